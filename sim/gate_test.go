package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"
)

// TestGateReleasesLateCallsLast: a call held with holdLate (a cancelled
// RPC ending) is released only once no other call is held, whatever the
// draw; the others go in the drawn order.
func TestGateReleasesLateCallsLast(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		synctest.Test(t, func(t *testing.T) {
			g := newGate(rand.New(rand.NewPCG(seed, 0)))
			var order []string
			done := make(chan string)
			for _, k := range []string{"rpc cancel b", "rpc cancel a"} {
				go func() { g.holdLate(k); done <- k }()
			}
			for _, k := range []string{"statedb x", "driver y", "rpc z"} {
				go func() { g.hold(k); done <- k }()
			}
			synctest.Wait()
			for g.releaseOne() {
				order = append(order, <-done)
			}
			if len(order) != 5 {
				t.Fatalf("seed %d: released %d calls, want 5", seed, len(order))
			}
			if late := order[3:]; !slices.Contains(late, "rpc cancel a") || !slices.Contains(late, "rpc cancel b") {
				t.Errorf("seed %d: release order %v, want the two late calls last", seed, order)
			}
		})
	}
}
