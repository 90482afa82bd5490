package syncing

import (
	"slices"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// nothingBeforeContact: SYNC-3's servers-contacted condition. No
// UpdateAlloc of a client incarnation starts before that incarnation's
// first successful alloc pull returned (ServersContactedCh closes after
// the first successful allocation pull: Node.GetClientAllocs, and the
// Alloc.GetAllocs that fetched what it listed; sim.Contact); a call and
// the pull's return at one instant are ordered as the world saw them. Every
// scenario crashes the client once at least (a restarted client has
// restored states to send), has a busy job and fails 40 to 90 % of the
// calls, so that states go unacknowledged before the crash and the first
// pull after it is slow; most make calls hang too.
var nothingBeforeContact = prop.Property{
	ID:       "SYNC-5/nothing-before-contact",
	Specs:    []string{"SYNC-5", "SYNC-3"},
	Doc:      "no UpdateAlloc of a client incarnation starts before its first successful alloc pull (Node.GetClientAllocs, then Alloc.GetAllocs) returned",
	Profiles: prop.Full | prop.ClientCommunication,
	Faults:   contactFaults,
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := scenario.DrawWith(d, syncOptions(env))
		drawCrash(d, env, &sc)
		drawBusy(d, env, &sc, true)
		drawHangs(d, env, &sc, false)
		if env.Allows(faults.RPCFailure) {
			replace(&sc, faults.Fault{Class: faults.RPCFailure, Rate: float64(d.IntRange("rpc failure percent", 40, 90)) / 100})
		}
		return sc
	},
	Situations: []prop.Situation{
		{Name: "first-pull-fails", Doc: "an incarnation's first alloc pull failed: the contact comes later"},
		{Name: "first-fetch-fails", Doc: "the Alloc.GetAllocs of an incarnation's first pull failed: the contact comes later"},
		{Name: "pushed-before-contact", Doc: "states pushed before the servers were contacted: held back"},
		{Name: "restored-before-contact", Doc: "a restarted client with states to send before its first successful pull"},
		// An UpdateAlloc starting at the contact's very instant (ordered
		// after it by sequence) is not among them: under the world's
		// holds a pull is released, and its reply comes, only after
		// every clock timer of its instant fired, the sync tick
		// included, so a conforming runner's first call comes at a
		// later tick; only a clock jump that fires a pull's latency timer
		// just before a tick could tie them. The sequence order that
		// case needs is the one the check uses for every call.
		{Name: "held-back-sent", Doc: "states pushed before the contact go out in the incarnation's first UpdateAlloc, after it"},
		{Name: "never-contacted", Doc: "an incarnation that never contacted the servers: it sends nothing"},
	},
	New: func(scenario.Scenario) prop.Checker {
		var feed callFeed
		ps := newPushes()
		started := map[int]bool{}
		heldBack, called := map[int]bool{}, map[int]bool{} // incarnations that pushed before contact; that made a call
		return prop.Checks{OnSettled: func(v *prop.View) {
			if reachContact(v, ps.next(v), started) {
				inc, _ := v.World.Incarnation()
				heldBack[inc] = true
			}
			for _, e := range feed.next(v.World) {
				call := e.Call
				if e.Return || !call.Live {
					continue
				}
				contact, ok := v.World.FirstContact(call.Incarnation)
				if ok && contact.Seq < call.Seq {
					if heldBack[call.Incarnation] && !called[call.Incarnation] {
						v.Reach("held-back-sent")
					}
					called[call.Incarnation] = true
					continue
				}
				got := "before any (none yet)"
				if ok {
					got = "before it (it returned " + at(contact.At) + ")"
				}
				alloc := firstAlloc(call)
				v.Violate(prop.Violation{At: call.Start, Alloc: alloc,
					What: "UpdateAlloc of incarnation " + itoa(call.Incarnation) + " started " + at(call.Start) +
						", against its first successful alloc pull",
					Got: got, Want: "after it (servers contacted)"})
				return
			}
		}, OnFinal: func(v *prop.View) {
			for inc := range started {
				if _, ok := v.World.FirstContact(inc); !ok {
					v.Reach("never-contacted")
				}
			}
		}}
	},
}

// reachContact counts what happens in an incarnation before its first
// contact; started collects the incarnations seen running. It reports
// whether the running incarnation pushed a state before its contact.
func reachContact(v *prop.View, pushed []string, started map[int]bool) bool {
	inc, running := v.World.Incarnation()
	if !running {
		return false
	}
	started[inc] = true
	if _, ok := v.World.FirstContact(inc); ok {
		return false
	}
	if len(rpcRecords(v.New, structs.RPCNodeGetClientAllocs, "fail")) > 0 {
		v.Reach("first-pull-fails")
	}
	if len(rpcRecords(v.New, structs.RPCAllocGetAllocs, "fail")) > 0 {
		v.Reach("first-fetch-fails")
	}
	if len(pushed) > 0 {
		v.Reach("pushed-before-contact")
		if inc > 1 {
			v.Reach("restored-before-contact")
		}
		return true
	}
	return false
}

// contactFaults are syncFaults without clock jumps, which only move the
// instants this property orders by sequence.
var contactFaults = slices.DeleteFunc(slices.Clone(syncFaults), func(c faults.Class) bool { return c == faults.ClockJump })
