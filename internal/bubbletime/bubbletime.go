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
// keeps one timer of the bubble for all its waits. Its zero value is not
// usable: call NewWaiter inside the bubble.
type Waiter struct {
	timer *time.Timer
	wake  chan struct{}
}

// NewWaiter returns a Waiter of the calling goroutine's bubble.
func NewWaiter() *Waiter {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &Waiter{timer: t, wake: make(chan struct{}, 1)}
}

// Nudge wakes a waiting Until (or the next one, which then checks whether
// the bubble's time moved). It never blocks.
func (w *Waiter) Nudge() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Until sleeps the bubble until t, or less when a goroutine of the bubble
// nudges it at an earlier instant; it returns the instant reached (the
// bubble's now, t at the latest) once every goroutine of the bubble
// woken then has settled (synctest.Wait). A nudge from an instant the
// bubble had already reached when Until was called is stale and ignored.
// If the bubble is already at or past t it returns its now at once,
// without waiting.
func (w *Waiter) Until(t time.Time) time.Time {
	start := time.Now()
	if !start.Before(t) {
		return start
	}
	for {
		w.timer.Reset(time.Until(t))
		select {
		case <-w.timer.C:
			synctest.Wait()
			return time.Now()
		case <-w.wake:
			// Stop drains nothing here: the channel of a stopped timer
			// (Go 1.23+) is never read stale.
			w.timer.Stop()
			if now := time.Now(); now.After(start) {
				synctest.Wait()
				return now
			}
		}
	}
}
