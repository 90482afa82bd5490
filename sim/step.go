package sim

import (
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/sim/trace"
)

// maxStepsPerInstant bounds the settled steps at one instant: more means
// something keeps arming zero-length timers (a livelock).
const maxStepsPerInstant = 100000

// Advance runs the world for d of virtual time, one instant at a time:
// before each step every goroutine has settled (synctest.Wait), the clock
// moves to the next due timer and fires everything due then (each timer's
// consequences settle before the next fires: the Mock's own barrier), the
// world settles again and observes, then runs the world events due then.
// A clock jump, or a world event that needs the clock to finish (a
// crash's shutdown), can carry the world past the target; Advance then
// returns late.
func (w *World) Advance(d time.Duration) { w.runTo(w.clk.Now().Add(d), nil) }

// RunUntil advances until pred holds, checked after every settled instant
// (and first before advancing), at most limit of virtual time; it reports
// whether pred held. pred runs on the caller's goroutine while the world
// is settled.
func (w *World) RunUntil(pred func() bool, limit time.Duration) bool {
	return w.runTo(w.clk.Now().Add(limit), pred)
}

// Run advances to the end of the scenario.
func (w *World) Run() { w.runTo(w.sc.End(), nil) }

func (w *World) runTo(target time.Time, pred func() bool) bool {
	w.settle()
	if pred != nil && pred() {
		return true
	}
	same := 0
	for {
		now := w.clk.Now()
		next, ok := w.clk.Next()
		ev, evOK := w.nextEvent()
		if evOK && (!ok || !next.Before(ev)) {
			next, ok = ev, true
		}
		if !ok || next.After(target) {
			if !target.After(now) {
				return pred != nil && pred()
			}
			next, ok, evOK = target, false, false
		}
		reached := w.stepTo(next)
		w.settle()
		if reached.Before(next) {
			// The runner acted on the time package's clock before the
			// world's next instant (instep.go): an instant of its own.
			if pred != nil && pred() {
				return true
			}
			continue
		}
		if !ok {
			return pred != nil && pred()
		}
		if evOK && !ev.After(w.clk.Now()) {
			w.runEvents()
			w.applyJump() // only a world event (a clock_jump fault) asks for one
		}
		if w.clk.Now().Equal(now) {
			if same++; same > maxStepsPerInstant {
				w.violation("livelock: more than %d steps at %s", maxStepsPerInstant, now.UTC().Format(trace.TimeFormat))
				return false
			}
		} else {
			same = 0
		}
		if pred != nil && pred() {
			return true
		}
	}
}

// advance moves the clock to t (not back), firing every timer due, for
// the stall watchdog a barrier: the Mock waits for each fired timer's
// goroutines to block.
func (w *World) advance(t time.Time) {
	w.watch.advancing(t)
	w.rebase(w.clk.AdvanceTo(t))
	w.watch.passed()
}

// settle waits until every goroutine is blocked, releasing held injected
// calls one at a time (waiting again after each), then observes: it checks
// retired incarnations, reads runner states and writes this instant's
// records in their deterministic order. Each return of synctest.Wait is
// progress for the stall watchdog (watch.go).
func (w *World) settle() {
	w.watch.enter(phaseSettle)
	synctest.Wait()
	w.watch.passed()
	for w.gate.releaseOne() {
		w.watch.enter(phaseRelease)
		synctest.Wait()
		w.watch.passed()
	}
	now := w.clk.Now()
	// One critical section for what the instant's observation takes
	// from the world: every goroutine is blocked, nothing adds to these
	// until the next advance.
	w.mu.Lock()
	w.steps++
	steps := w.steps
	retired := w.retired
	w.retired = nil
	dirty, closing := w.dirty, w.closed
	w.dirty = nil
	w.mu.Unlock()
	w.watch.settled(steps, now)
	w.checkRetired(retired)
	w.rec.Flush()
	w.traceStates(now, dirty, closing)
	w.rec.Flush()
}

// applyJump performs a pending clock jump (the clock_jump fault), on the
// world's loop between instants: the host was suspended, so time moves
// forward at once and every timer that fell due meanwhile fires once on
// resuming (vclock.Clock.Suspend). It reports whether it jumped.
func (w *World) applyJump() bool {
	w.mu.Lock()
	d := w.jump
	w.jump = 0
	w.mu.Unlock()
	if d <= 0 {
		return false
	}
	from := w.clk.Now()
	w.catchUpAll(from.Add(d))
	if err := w.clk.Suspend(d); err != nil {
		w.violation("clock jump: %v", err)
		return false
	}
	w.rec.Emit(trace.Record{At: w.clk.Now(), Kind: trace.KindWorld, Msg: "clock_resumed",
		Data: trace.Encode(map[string]string{"from": from.UTC().Format(trace.TimeFormat), "by": d.String()})})
	w.advance(w.clk.Now())
	w.settle()
	return true
}
