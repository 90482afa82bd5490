package sim

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"pgregory.net/rapid"
)

// TestDrawnScenariosKeepSyncOrder runs rapid-drawn scenarios (which shrink
// on failure) with the reference runner and checks, per alloc, that the
// server never received a state older than one it already had: receive
// times never go back and restart counts never decrease (SYNC-5.4), and
// that the run had no harness violation.
//
// A crash after failed state DB writes legitimately rolls the client's
// state back (the restored task state is the last one persisted,
// STATE-2, STATE-3), so restart counts are compared only in runs that do
// not combine the two (see SPEC-NOTES: SYNC-5.4 across a crash).
func TestDrawnScenariosKeepSyncOrder(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		sc := scenario.DrawOpts(rt, scenario.Options{MaxDuration: 3 * time.Minute})
		lossy := sc.Faults.Has(faults.ClientCrash) && sc.Faults.Has(faults.StateDBWriteFailure)
		var problem string
		Test(t, WatchConfig{}, func(t *testing.T) {
			w, err := Run(Config{Scenario: sc, Factory: referenceFactory()})
			if err != nil {
				problem = err.Error()
				return
			}
			for _, a := range w.Server().Allocs() {
				h := w.Server().History(a.ID, 0)
				for i := 1; i < len(h); i++ {
					if h[i].At.Before(h[i-1].At) {
						problem = "SYNC-5.4: receive times go back for " + a.ID
					}
					for name, ts := range h[i].State.TaskStates {
						if prev := h[i-1].State.TaskStates[name]; !lossy && prev != nil && ts.Restarts < prev.Restarts {
							problem = "SYNC-5.4: " + a.ID + "/" + name + " restarts went back"
						}
					}
				}
			}
		})
		if problem != "" {
			rt.Fatalf("%s", Failure{Scenario: sc, Violation: problem})
		}
	})
}
