package vclock

import (
	"time"

	"github.com/benbjohnson/clock"
)

// queue is what the simulator reads and adjusts of the Mock's timer queue,
// which clock.Clock does not offer:
//
//  1. the instant of the next due timer, so that the world advances one
//     instant at a time and observes the settled world after each (the
//     barrier of DESIGN.md "Determinism");
//  2. a suspend/resume clock jump: time moves forward at once and every
//     overdue timer fires once on resuming, as timers of a suspended host
//     do (the Mock's own Add fires each at its own deadline).
//
// Two implementations: forkQueue, the exported methods of the
// heap-ordered fork in third_party/clock (what every build inside this
// module, and every `conform run --pkg` build, links: DESIGN-CLOCK.md),
// and reflectQueue, the upstream Mock's unexported fields read by
// reflection (what a build without the fork's replace links: correct and
// slower).
type queue interface {
	next() (time.Time, bool)
	len() int
	suspend(d time.Duration) error
}

// forkMock is the part of the fork's *clock.Mock the simulator uses.
type forkMock interface {
	Next() (time.Time, bool)
	Pending() int
	Jump(d time.Duration)
	Fire(max time.Time) bool
}

// forkQueue is the fork's queue: a heap, read through exported methods.
type forkQueue struct{ m forkMock }

func (q forkQueue) next() (time.Time, bool) { return q.m.Next() }
func (q forkQueue) len() int                { return q.m.Pending() }

// suspend is the fork's Jump: overdue timers become due at the resume
// instant in the order of their deadlines, one nanosecond per distinct
// deadline apart.
func (q forkQueue) suspend(d time.Duration) error {
	q.m.Jump(d)
	return nil
}

// newQueue returns the fork's queue when m is the fork's Mock, else the
// reflection fallback.
func newQueue(m *clock.Mock) (queue, error) {
	if fm, ok := any(m).(forkMock); ok {
		return forkQueue{fm}, nil
	}
	return newReflectQueue(m)
}

// Forked reports whether this build links the heap-ordered fork of
// github.com/benbjohnson/clock (third_party/clock) rather than upstream's
// Mock, which the simulator then reads by reflection (DESIGN-CLOCK.md).
func Forked() bool {
	_, ok := any(clock.NewMock()).(forkMock)
	return ok
}

// ClockModule is the module the fork replaces, and ForkDir the fork's
// directory in the allocsim module (slash-separated).
const (
	ClockModule = "github.com/benbjohnson/clock"
	ForkDir     = "third_party/clock"
)

// ForkReplace is the go.mod line that links the fork into a module that
// requires allocsim, with dir the allocsim module's directory.
func ForkReplace(dir string) string {
	return "replace " + ClockModule + " => " + dir + "/" + ForkDir
}
