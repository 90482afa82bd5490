package sim

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sync"
)

// gate holds the injected calls of the client under test (driver calls,
// CSI calls, state DB writes, RPCs) until the world releases them, one at a
// time, each after everything else has settled (DESIGN.md "Steps": each
// event releases exactly one thing). Which held call goes first is the
// world's choice, drawn from the run's "schedule" stream among the calls
// sorted by key, so same-instant races between a runner's goroutines at
// these points resolve the same way on every run of a seed.
//
// A runner must not hold a mutex across an injected call that another
// goroutine then waits for: a goroutine blocked on a mutex is not durably
// blocked, so the world could never settle (the same rule as for calls
// that block on the clock).
type gate struct {
	rng *rand.Rand

	mu      sync.Mutex
	seq     uint64
	waiting []*heldCall
}

type heldCall struct {
	key     string
	seq     uint64
	late    bool // released only when no other call is held (holdLate)
	release chan struct{}
}

func newGate(rng *rand.Rand) *gate { return &gate{rng: rng} }

// hold blocks the calling goroutine until the world releases the call.
func (g *gate) hold(key string) { g.wait(&heldCall{key: key, release: make(chan struct{})}) }

// holdLate is hold for a call released only once no other call is held:
// what it lets go (a cancelled call ending) happens as late as the world
// can make it, after everything its canceller may still do.
func (g *gate) holdLate(key string) {
	g.wait(&heldCall{key: key, late: true, release: make(chan struct{})})
}

func (g *gate) wait(c *heldCall) {
	g.mu.Lock()
	g.seq++
	c.seq = g.seq
	// waiting stays sorted by key, then arrival: where releaseOne draws from.
	i, _ := slices.BinarySearchFunc(g.waiting, c, compareHeld)
	g.waiting = slices.Insert(g.waiting, i, c)
	g.mu.Unlock()
	<-c.release
}

// compareHeld orders held calls: late ones last, then by key, then by
// arrival.
func compareHeld(a, b *heldCall) int {
	return cmp.Or(compareLate(a.late, b.late), cmp.Compare(a.key, b.key), cmp.Compare(a.seq, b.seq))
}

func compareLate(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// releaseOne releases one held call, if any, and reports whether it did.
// Call it only when everything has settled: the set of held calls is then
// a deterministic function of the run.
func (g *gate) releaseOne() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiting) == 0 {
		return false
	}
	// Late calls sort last: draw among the others while there are any.
	n := len(g.waiting)
	if !g.waiting[0].late {
		n, _ = slices.BinarySearchFunc(g.waiting, true, func(c *heldCall, late bool) int { return compareLate(c.late, late) })
	}
	i := 0
	if n > 1 {
		i = g.rng.IntN(n)
	}
	c := g.waiting[i]
	g.waiting = slices.Delete(g.waiting, i, i+1)
	close(c.release)
	return true
}
