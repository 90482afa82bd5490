package syncing

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// urgentRacedClassification: SYNC-5/urgent-rides-first-tick's and
// SYNC-5/acknowledged-not-resent's rules with
// every GetUpdatePriority of the client's ticks held at the world's gate
// (sim.HoldPriority), so that runners push newer states while a tick
// classifies: the buffer changes under the classification and SYNC-3's
// tick classifies again. Serialised events never reach that (a tick's
// classification takes no virtual time), so without it a client that
// ticks with a stale classification passes: its newer state then counts
// as having no runner, never urgent and never acknowledged to its runner,
// which later sends it again. So it also requires SYNC-3's success step
// of every returned call: AcknowledgeState for each entry whose runner
// exists, which the full profile's runners persist (STATE-2
// acknowledged_state) at the instant the call returned.
var urgentRacedClassification = prop.Property{
	ID:       "SYNC-5/urgent-while-classifying",
	Specs:    []string{"SYNC-5", "SYNC-3", "SYNC-2"},
	Doc:      "with the client's classifications held while runners push newer states, a ClientStatus change is still sent on its first tick and an acknowledged state is never sent again (as SYNC-5/urgent-rides-first-tick and SYNC-5/acknowledged-not-resent)",
	Profiles: prop.Full,
	Hold:     sim.DefaultHold | sim.HoldPriority,
	Faults:   syncFaults,
	Draw:     drawSync,
	Situations: append(slices.Concat(urgentFirstTick.Situations, acknowledgedNotResent.Situations),
		prop.Situation{Name: "pushed-while-classifying", Doc: "a runner pushed a state while a tick's GetUpdatePriority was held"},
		prop.Situation{Name: "acknowledged-to-runner", Doc: "a returned call's entry acknowledged to its runner: its acknowledged_state written"}),
	New: func(sc scenario.Scenario) prop.Checker {
		urgent, resent := urgentFirstTick.New(sc), acknowledgedNotResent.New(sc)
		acks := &ackWrites{owed: map[string]time.Time{}}
		return prop.Checks{OnSettled: func(v *prop.View) {
			if acks.settled(v); v.Failed() {
				return
			}
			for _, r := range v.New {
				if r.Kind != trace.KindWorld || r.Msg != sim.MsgPriorityReleased {
					continue
				}
				var d struct{ Pushed bool }
				if json.Unmarshal(r.Data, &d) == nil && d.Pushed {
					v.Reach("pushed-while-classifying")
				}
			}
			if resent.Settled(v); !v.Failed() {
				urgent.Settled(v)
			}
		}, OnFinal: func(v *prop.View) {
			if resent.Final(v); !v.Failed() {
				urgent.Final(v)
			}
		}}
	},
}

// ackWrites follows SYNC-3's success step: each entry of a call that
// returned without error whose alloc has a runner is acknowledged to it,
// which persists its acknowledged_state at that instant.
type ackWrites struct {
	feed callFeed
	owed map[string]time.Time // alloc → the instant its acknowledged_state write is owed
}

func (a *ackWrites) settled(v *prop.View) {
	for _, e := range a.feed.next(v.World) {
		if !e.Return || !e.Call.OK() || !e.Call.Live {
			continue
		}
		for _, en := range e.Call.Allocs {
			if hasRunner(v, e.Call.Incarnation, en.AllocID) {
				a.owed[en.AllocID] = e.Call.Return
			}
		}
	}
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindWorld && (r.Msg == trace.MsgClientCrash || r.Msg == trace.MsgClientStop):
			clear(a.owed) // the incarnation is gone: what it owed with it
		case r.Kind == trace.KindStateDB && r.Op == "put acknowledged_state":
			if _, ok := a.owed[r.Alloc]; ok {
				delete(a.owed, r.Alloc)
				v.Reach("acknowledged-to-runner")
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(a.owed)) {
		if at := a.owed[id]; v.Now().After(at) {
			v.Violatef(id, "", fmt.Sprintf("acknowledged_state writes at %s, when the UpdateAlloc carrying the alloc's state returned without error", prop.When(at, nil)), "none",
				"one: SYNC-3 acknowledges every entry whose runner exists (AcknowledgeState), which persists it (STATE-2)")
			return
		}
	}
}
