package concurrent

import (
	"context"
	"time"

	"github.com/benbjohnson/clock"
)

// speedup is how much faster than real time the runners' clock runs: a
// minute of it (the client's state snapshot, STATE-2) is 6 ms, so that
// every loop of a client runs within a check.
const speedup = 10000

// scaledClock is a real clock running speedup times faster: Now advances
// speedup ns per real ns from its start, and a timer of d fires d/speedup
// later in real time. Reset of a returned Timer or Ticker takes a real
// duration (the clock package's types cannot be wrapped): a runner that
// resets one only waits longer, never wrongly.
type scaledClock struct {
	wall  clock.Clock
	start time.Time // real and scaled time agree at start
}

var _ clock.Clock = scaledClock{}

func newScaledClock(wall clock.Clock) scaledClock {
	return scaledClock{wall: wall, start: wall.Now()}
}

func scale(d time.Duration) time.Duration {
	if d <= 0 {
		return d
	}
	return max(d/speedup, 1)
}

func (c scaledClock) Now() time.Time {
	return c.start.Add(c.wall.Since(c.start) * speedup)
}

func (c scaledClock) After(d time.Duration) <-chan time.Time { return c.Timer(d).C }

func (c scaledClock) AfterFunc(d time.Duration, f func()) *clock.Timer {
	return c.wall.AfterFunc(scale(d), f)
}

func (c scaledClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }
func (c scaledClock) Until(t time.Time) time.Duration { return t.Sub(c.Now()) }
func (c scaledClock) Sleep(d time.Duration)           { c.wall.Sleep(scale(d)) }

func (c scaledClock) Tick(d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	return c.Ticker(d).C
}

func (c scaledClock) Ticker(d time.Duration) *clock.Ticker { return c.wall.Ticker(scale(d)) }
func (c scaledClock) Timer(d time.Duration) *clock.Timer   { return c.wall.Timer(scale(d)) }

func (c scaledClock) WithDeadline(parent context.Context, t time.Time) (context.Context, context.CancelFunc) {
	return c.WithTimeout(parent, c.Until(t))
}

func (c scaledClock) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return c.wall.WithTimeout(parent, scale(d))
}
