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
}

var _ clock.Clock = (*Clock)(nil)

// New returns a virtual clock set to start.
func New(start time.Time) *Clock {
	m := clock.NewMock()
	m.Set(start)
	return &Clock{mock: m}
}

// Mock returns the underlying Mock, for the simulator that advances it.
func (c *Clock) Mock() *clock.Mock { return c.mock }

// Add advances virtual time by d, firing every timer due on the way in the
// Mock's order. Call testing/synctest.Wait before it inside a bubble.
func (c *Clock) Add(d time.Duration) { c.mock.Add(d) }

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
