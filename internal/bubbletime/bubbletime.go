package bubbletime

import (
	"testing/synctest"
	"time"
)

// Instant is the bubble's time: its virtual now.
func Instant() time.Time { return time.Now() }

// Align moves the bubble's clock to start if it is behind and returns how
// far the bubble is past start afterwards (zero unless a world already
// ran in this bubble and moved it further).
func Align(start time.Time) time.Duration {
	if d := time.Until(start); d > 0 {
		time.Sleep(d)
	}
	return max(0, time.Since(start))
}

// Waiter sleeps the bubble toward instants, waking early on a nudge. It
// keeps one timer of the bubble for all its waits, which a nudge fires at
// once. Its zero value is not usable: call NewWaiter inside the bubble.
type Waiter struct {
	timer *time.Timer
}

// NewWaiter returns a Waiter of the calling goroutine's bubble.
func NewWaiter() *Waiter {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &Waiter{timer: t}
}

// Nudge wakes a waiting Until (it fires the Until's timer now). A nudge
// while no Until waits is stale: the next Until re-arms the timer. It
// never blocks.
func (w *Waiter) Nudge() { w.timer.Reset(0) }

// Until sleeps the bubble until t, or less when a goroutine of the bubble
// nudges it at an earlier instant; it returns the instant reached (the
// bubble's now, t at the latest) once every goroutine of the bubble
// woken then has settled (synctest.Wait). A nudge from an instant the
// bubble had already reached when Until was called is stale and ignored.
// If the bubble is already at or past t it returns its now at once,
// without waiting.
//
// It waits on the timer's channel alone, not in a select with a channel
// of nudges: the wait is on every step of the world, and a select over
// a timer's channel costs a sixth of a ticking world's step.
func (w *Waiter) Until(t time.Time) time.Time {
	start := time.Now()
	for start.Before(t) {
		// Reset discards a fire nobody received (Go 1.23+): a stale
		// nudge never ends this wait.
		w.timer.Reset(t.Sub(start))
		<-w.timer.C
		if now := time.Now(); now.After(start) {
			synctest.Wait()
			return now
		}
	}
	return start
}
