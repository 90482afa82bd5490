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
	Situations: []prop.Situation{
		{Name: "push-during-call", Doc: "a runner pushed while an UpdateAlloc was in flight"},
		{Name: "push-during-hanging-call", Doc: "a runner pushed while an UpdateAlloc had been in flight for 10s or more"},
		{Name: "push-during-retry-backoff", Doc: "a runner pushed after a failed UpdateAlloc, before the retry"},
		{Name: "push-before-contact", Doc: "a runner pushed before the servers were contacted"},
		{Name: "push-during-partition", Doc: "a runner pushed while the client was partitioned from the servers"},
		{Name: "several-pushes-one-instant", Doc: "several allocs pushed at one instant"},
	},
	New: func(scenario.Scenario) prop.Checker {
		var feed callFeed
		var part partitions
		ps := newPushes()
		return prop.Checks{OnSettled: func(v *prop.View) {
			feed.next(v.World)
			part.see(v.New)
			reachPushes(v, &feed, part.on, ps.next(v))
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

// reachPushes counts what the sync loop was doing when allocs pushed.
func reachPushes(v *prop.View, feed *callFeed, partitioned bool, pushed []string) {
	if len(pushed) == 0 {
		return
	}
	if len(pushed) > 1 {
		v.Reach("several-pushes-one-instant")
	}
	inc, running := v.World.Incarnation()
	if !running {
		return
	}
	now := v.Now()
	if c, ok := feed.inFlight(inc, now); ok {
		v.Reach("push-during-call")
		if now.Sub(c.Start) >= hangMin {
			v.Reach("push-during-hanging-call")
		}
	} else if feed.inBackoff(inc, now) {
		v.Reach("push-during-retry-backoff")
	}
	if _, ok := v.World.FirstContact(inc); !ok {
		v.Reach("push-before-contact")
	}
	if partitioned {
		v.Reach("push-during-partition")
	}
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
