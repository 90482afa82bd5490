package syncing

import (
	"time"

	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/scenario"
)

// producersNeverBlock: SYNC-5.5 (and SYNC-1: the buffer's lock is held
// only for the insert). Every AllocStateUpdated a runner calls returns at
// the virtual instant it was called, and none is still in flight at a
// settled instant (it would be waiting for something only the clock can
// bring), whatever the RPC does: every scenario has a busy job and makes
// some calls hang for up to 10 s to a minute, so that pushes meet an
// UpdateAlloc in flight.
var producersNeverBlock = prop.Property{
	ID:       "SYNC-5/producers-never-block",
	Specs:    []string{"SYNC-5", "SYNC-1"},
	Doc:      "a runner's AllocStateUpdated returns at the instant it was called, whatever the RPC does (hanging, failing, partitioned calls)",
	Profiles: prop.Full | prop.ClientCommunication,
	Faults:   syncFaults,
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := scenario.DrawWith(d, syncOptions(env))
		drawBusy(d, env, &sc, true)
		drawHangs(d, env, &sc, true)
		drawHeavyFailure(d, env, &sc)
		return sc
	},
	New: func(scenario.Scenario) prop.Checker {
		return prop.Checks{OnSettled: func(v *prop.View) {
			bp := v.World.BlockedPushes()
			if len(bp) == 0 {
				return
			}
			p := bp[0]
			got := "returned " + at(p.Returned)
			if p.InFlight {
				got = "still blocked at " + at(v.Now())
			}
			if c, ok := inFlightAt(v.World.SyncCalls(0), p.Incarnation, p.Called); ok {
				got += " (an UpdateAlloc started " + at(c.Start) + " was in flight)"
			}
			v.Violate(prop.Violation{At: p.Called, Alloc: p.Alloc,
				What: "AllocStateUpdated of incarnation " + itoa(p.Incarnation) + " called " + at(p.Called),
				Got:  got, Want: "returned at once (the instant it was called)"})
		}}
	},
}

// inFlightAt finds an UpdateAlloc of incarnation inc in flight at t.
func inFlightAt(calls []sim.SyncCall, inc int, t time.Time) (sim.SyncCall, bool) {
	for _, c := range calls {
		if c.Incarnation == inc && c.InFlight(t) {
			return c, true
		}
	}
	return sim.SyncCall{}, false
}
