package syncing

import (
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// acknowledgedNotResent: SYNC-2 and SYNC-3 (a None entry is dropped). An
// UpdateAlloc of a client incarnation never carries a state of an alloc
// equal (SYNC-2 equality: syncpolicy.StatePriority None) to the state an
// UpdateAlloc of the same incarnation that returned without error carried
// for it last. Acknowledgements are taken within one incarnation only:
// what a restarted client may resend depends on what its restore loaded,
// which STATE-3/acknowledged-survives checks. Allocs the client holds no
// runner for are exempt (SYNC-3 sends those unclassified).
var acknowledgedNotResent = prop.Property{
	ID:       "SYNC-5/acknowledged-not-resent",
	Specs:    []string{"SYNC-5", "SYNC-2", "SYNC-3"},
	Doc:      "an UpdateAlloc never carries a state of an alloc equal to the one its incarnation last had acknowledged for it",
	Profiles: prop.Full | prop.ClientCommunication,
	Faults:   syncFaults,
	Draw:     drawSync,
	New: func(scenario.Scenario) prop.Checker {
		var feed callFeed
		a := newAcks()
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, e := range feed.next(v.World) {
				if e.Return {
					a.apply(e)
					continue
				}
				call := e.Call
				if !call.Live {
					continue
				}
				for _, en := range call.Allocs {
					k := incAlloc{call.Incarnation, en.AllocID}
					acked := a.cur[k]
					if acked == nil || !equal(en.State, acked) || !hasRunner(v, call.Incarnation, en.AllocID) {
						continue
					}
					v.Violate(prop.Violation{At: call.Start, Alloc: en.AllocID,
						What: "state carried by the UpdateAlloc of incarnation " + itoa(call.Incarnation) + " started " + at(call.Start),
						Got:  describe(en.State) + ", equal to the one acknowledged " + at(a.at[k]),
						Want: "not sent (SYNC-2 None against the acknowledged state)"})
					return
				}
			}
		}}
	},
}
