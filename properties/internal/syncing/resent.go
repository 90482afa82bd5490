package syncing

import (
	"slices"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
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
	Situations: []prop.Situation{
		{Name: "first-send", Doc: "a state of an alloc with nothing acknowledged yet in the incarnation"},
		{Name: "typical-change-sent", Doc: "a state differing from the acknowledged one below ClientStatus (Typical): sent"},
		{Name: "urgent-change-sent", Doc: "a state whose ClientStatus differs from the acknowledged one (Urgent): sent"},
		{Name: "unchanged-left-out", Doc: "an acknowledged, unchanged alloc left out of a call carrying others"},
		{Name: "resent-after-failure", Doc: "a state a failed UpdateAlloc carried, sent again (a failure acknowledges nothing)"},
		{Name: "no-runner-exempt", Doc: "a state of an alloc the client holds no runner for (sent unclassified)"},
		{Name: "restarted-client", Doc: "a call of a restarted client: acknowledgements of its own incarnation only"},
	},
	New: func(scenario.Scenario) prop.Checker {
		var feed callFeed
		a := newAcks()
		failed := map[incAlloc]*structs.AllocState{}
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, e := range feed.next(v.World) {
				if e.Return {
					a.apply(e)
					if !e.Call.OK() {
						for _, en := range e.Call.Allocs {
							failed[incAlloc{e.Call.Incarnation, en.AllocID}] = en.State
						}
					}
					continue
				}
				call := e.Call
				if !call.Live {
					continue
				}
				reachResent(v, a, failed, call)
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

// reachResent counts what each state call carries is against the
// incarnation's acknowledged one, and the acknowledged allocs it leaves
// out.
func reachResent(v *prop.View, a *acks, failed map[incAlloc]*structs.AllocState, call sim.SyncCall) {
	if call.Incarnation > 1 {
		v.Reach("restarted-client")
	}
	var ids []string
	for _, en := range call.Allocs {
		ids = append(ids, en.AllocID)
		k := incAlloc{call.Incarnation, en.AllocID}
		if f := failed[k]; f != nil && equal(en.State, f) {
			v.Reach("resent-after-failure")
		}
		if !hasRunner(v, call.Incarnation, en.AllocID) {
			v.Reach("no-runner-exempt")
		}
		switch acked := a.cur[k]; {
		case acked == nil:
			v.Reach("first-send")
		case syncpolicy.StatePriority(en.State, acked) == syncpolicy.Urgent:
			v.Reach("urgent-change-sent")
		case syncpolicy.StatePriority(en.State, acked) == syncpolicy.Typical:
			v.Reach("typical-change-sent")
		}
	}
	for k, acked := range a.cur {
		if k.inc != call.Incarnation || slices.Contains(ids, k.alloc) {
			continue
		}
		if cur := v.Alloc(k.alloc); cur != nil && equal(cur.SharedClientState(), acked) {
			v.Reach("unchanged-left-out")
		}
	}
}
