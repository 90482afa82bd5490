package sim

import (
	"time"

	"github.com/allocsim/allocsim/internal/bubbletime"
	"github.com/allocsim/allocsim/internal/watchdog"
)

// The bubble's own clock in step with the world's (internal/bubbletime).
//
// A runner written on the time package (time.Now, time.Sleep, timers)
// reads the synctest bubble's clock, which is virtual but its own. The
// world keeps it in step: New moves the bubble to the scenario's start,
// and before every move of the world's clock to an instant t the bubble
// sleeps to t. A goroutine of the runner woken earlier by a timer of the
// time package that pushes a state or makes an injected call nudges the
// world, which then stops at that instant, settles and observes there, as
// at any other instant. So such a runner's stamps are the world's now and
// its sleeps take their virtual duration; DET-1 then means a stamp that is
// not the world's now, whatever clock the runner read.
//
// On upstream's clock (without the fork, DESIGN-CLOCK.md) the Mock sleeps
// 1 ms of the bubble's time after each timer it fires: the world absorbs
// that into its offset after each advance (rebase), so a runner on the time
// package is a few milliseconds off there while it sleeps across an
// advance; on the fork it is exact.
//
// What is not kept in step: a second world in one bubble (CheckReplay's
// runs after the first) starts with the bubble already past its start; it
// keeps the difference as an offset, so a runner on the time package sees
// times shifted by it there (the suite runs every check in a bubble of its
// own). During a clock jump the bubble moves with the jump, and what a
// runner does on the time package meanwhile is observed when the world
// resumes.

// closeGrace is how long of virtual time Close lets the bubble's own
// timers run when the world's clock has no timer left and the client's
// shutdown has not finished (a runner sleeping on the time package).
const closeGrace = 2 * time.Minute

// alignBubble moves the bubble to the scenario's start and prepares the
// waits; outside a bubble (a world that is never advanced) it does
// nothing.
func (w *World) alignBubble() {
	if watchdog.Bubble() == 0 {
		return
	}
	w.offset = bubbletime.Align(w.sc.Start)
	w.bubble = bubbletime.NewWaiter()
}

// nudge tells a world sleeping the bubble toward its next instant that a
// goroutine of the runner acted at an instant the world has not reached
// (it woke on the time package's clock).
func (w *World) nudge() {
	if w.bubble != nil && bubbletime.Instant().After(w.clk.Now().Add(w.offset)) {
		w.bubble.Nudge()
	}
}

// catchUp sleeps the bubble to t and returns t, or an earlier instant at
// which a goroutine of the runner acted (nudge): the world must stop
// there first.
func (w *World) catchUp(t time.Time) time.Time {
	if w.bubble == nil {
		return t
	}
	reached := w.bubble.Until(t.Add(w.offset)).Add(-w.offset)
	if !reached.Before(t) || !reached.After(w.clk.Now()) {
		return t
	}
	return reached
}

// stepTo moves the world toward t: the bubble first (catchUp), then the
// world's clock, firing its timers due. It returns the instant reached:
// t, or an earlier one where the runner acted on the time package's clock
// (nothing of the world's clock is due then); the caller settles either
// way.
func (w *World) stepTo(t time.Time) time.Time {
	reached := w.catchUp(t)
	w.advance(reached)
	return reached
}

// catchUpAll sleeps the bubble all the way to t (a clock jump: nothing
// stops on the way).
func (w *World) catchUpAll(t time.Time) {
	for w.bubble != nil && w.catchUp(t).Before(t) {
	}
}

// now is the world's virtual now as a runner acting on its own sees it:
// the world's clock, or the bubble's when a goroutine of the runner woke
// on the time package's clock at an instant the world has not reached
// yet (it stops there next: nudge).
func (w *World) now() time.Time {
	now := w.clk.Now()
	if w.bubble != nil {
		if b := bubbletime.Instant().Add(-w.offset); b.After(now) {
			return b
		}
	}
	return now
}

// rebase absorbs into the offset whatever the bubble's clock moved during
// an advance of the world's clock to now that no runner asked for
// (upstream's Mock sleeps 1 ms of the bubble's time after each timer it
// fires).
func (w *World) rebase(now time.Time) {
	if w.bubble == nil {
		return
	}
	if d := bubbletime.Instant().Sub(now); d > w.offset {
		w.offset = d
	}
}
