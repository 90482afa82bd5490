package vclock

import (
	"context"
	"fmt"
	"time"

	"github.com/benbjohnson/clock"
)

// Clock is a clock.Clock over a *clock.Mock. The zero value is not usable;
// build one with New.
type Clock struct {
	mock *clock.Mock
	q    queue
	qerr error
	// barrier, when set (SetBarrier) and the clock is the fork, is what
	// Add waits on between two timers it fires, instead of the Mock's
	// real-time sleep after each.
	barrier func()
}

var _ clock.Clock = (*Clock)(nil)

// New returns a virtual clock set to start.
func New(start time.Time) *Clock {
	m := clock.NewMock()
	m.Set(start)
	q, err := newQueue(m)
	return &Clock{mock: m, q: q, qerr: err}
}

// Err reports a clock whose timer queue cannot be read (an upstream Mock
// whose internals are not those of the version the fallback knows); such
// a clock must not be advanced by Next.
func (c *Clock) Err() error { return c.qerr }

// Next returns the earliest deadline of an armed timer or ticker, false if
// none is armed (or the queue cannot be read: Err). Call it only when every
// other goroutine is blocked (after synctest.Wait).
func (c *Clock) Next() (time.Time, bool) {
	if c.qerr != nil {
		return time.Time{}, false
	}
	return c.q.next()
}

// Pending is the number of armed timers and tickers.
func (c *Clock) Pending() int {
	if c.qerr != nil {
		return 0
	}
	return c.q.len()
}

// Suspend moves virtual time forward by d without firing anything and
// makes every timer that fell due meanwhile due at the new instant, in the
// order of their original deadlines, one nanosecond per distinct deadline
// apart (timers that shared a deadline share an instant); the next Add
// fires each once, and tickers skip the ticks they missed (a host resuming
// from suspend). Call it only between steps, after synctest.Wait.
func (c *Clock) Suspend(d time.Duration) error {
	if c.qerr != nil {
		return c.qerr
	}
	return c.q.suspend(d)
}

// Mock returns the underlying Mock, for the simulator that advances it.
func (c *Clock) Mock() *clock.Mock { return c.mock }

// SetBarrier makes Add wait on barrier between two timers it fires (the
// simulator passes testing/synctest.Wait), so that each fire's
// consequences settle before the next, and not after the last, which the
// caller settles itself. Without a barrier, or on upstream's Mock, Add is
// the Mock's: a 1 ms sleep (synctest's fake time inside a bubble) after
// every fire and at the end.
func (c *Clock) SetBarrier(barrier func()) { c.barrier = barrier }

// Add advances virtual time by d, firing every timer due on the way in the
// Mock's order. Call testing/synctest.Wait before it inside a bubble.
func (c *Clock) Add(d time.Duration) {
	if _, ok := c.q.(forkQueue); c.barrier == nil || !ok {
		c.mock.Add(d)
		return
	}
	if d >= 0 {
		c.AdvanceTo(c.mock.Now().Add(d))
	}
}

// AdvanceTo advances virtual time to t, as Add does (only firing what is
// due now when t has passed), and returns the virtual time reached: the
// simulator's step, which knows its instant rather than a duration.
func (c *Clock) AdvanceTo(t time.Time) time.Time {
	now := c.mock.Now()
	t = maxTime(t, now)
	fm, ok := c.q.(forkQueue)
	if c.barrier == nil || !ok {
		c.mock.Add(t.Sub(now))
		return c.mock.Now()
	}
	// Fire checks the deadline itself; another timer due is looked up
	// only after a fire, to know whether a barrier goes before it.
	for fired := fm.m.Fire(t); fired; fired = fm.m.Fire(t) {
		if next, ok := fm.m.Next(); !ok || next.After(t) {
			break
		}
		c.barrier()
	}
	now = c.mock.Now()
	if d := t.Sub(now); d > 0 {
		fm.m.Jump(d) // nothing is due before t: a plain move
		return t
	}
	return now
}

// Set moves virtual time to t (forward only).
func (c *Clock) Set(t time.Time) { c.mock.Set(t) }

// Now is the virtual time.
func (c *Clock) Now() time.Time { return c.mock.Now() }

// Since is Now().Sub(t).
func (c *Clock) Since(t time.Time) time.Duration { return c.mock.Since(t) }

// Until is t.Sub(Now()).
func (c *Clock) Until(t time.Time) time.Duration { return c.mock.Until(t) }

// AfterFunc runs f in its own goroutine once d has elapsed.
func (c *Clock) AfterFunc(d time.Duration, f func()) *clock.Timer {
	return c.mock.AfterFunc(d, f)
}

// Timer returns a timer whose C receives the virtual time once d has
// elapsed. It is built from AfterFunc (hazard 1 and 2 of the package doc).
func (c *Clock) Timer(d time.Duration) *clock.Timer {
	ch := make(chan time.Time, 1)
	t := c.mock.AfterFunc(d, func() {
		select {
		case ch <- c.mock.Now():
		default:
		}
	})
	t.C = ch
	return t
}

// After is Timer(d).C.
func (c *Clock) After(d time.Duration) <-chan time.Time { return c.Timer(d).C }

// Sleep blocks until d of virtual time has elapsed.
func (c *Clock) Sleep(d time.Duration) { <-c.After(d) }

// Ticker returns the Mock's ticker; it panics on a non-positive period,
// which would make the Mock spin (a programming error, like time.NewTicker).
func (c *Clock) Ticker(d time.Duration) *clock.Ticker {
	if d <= 0 {
		panic(fmt.Sprintf("vclock: non-positive ticker period %v", d))
	}
	return c.mock.Ticker(d)
}

// Tick is Ticker(d).C.
func (c *Clock) Tick(d time.Duration) <-chan time.Time { return c.Ticker(d).C }

// WithDeadline returns a context cancelled at virtual instant d.
func (c *Clock) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return c.WithTimeout(parent, c.Until(d))
}

// WithTimeout returns a context cancelled after virtual duration d, built
// from a timer and context.WithCancel (hazard 4).
func (c *Clock) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	if d <= 0 {
		cancel(context.DeadlineExceeded)
		return ctx, func() {}
	}
	t := c.mock.AfterFunc(d, func() { cancel(context.DeadlineExceeded) })
	return ctx, func() {
		t.Stop()
		cancel(context.Canceled)
	}
}

// maxTime is the later of a and b.
func maxTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}
