package restore

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// drawLatePlacements adds, one run in two, two jobs registered after the
// last restart: their placements move the node's alloc index (new
// pulls) without changing the failed or client-terminal allocs' own
// AllocModifyIndex, which such a client has no reason to fetch again.
func drawLatePlacements(d *prop.Drawer, sc *scenario.Scenario, lastUp time.Duration) {
	if !d.Bool("late placements") {
		return
	}
	at := lastUp
	for i := 0; i < 2; i++ {
		at += d.Duration("placement after", time.Second, 20*time.Second, time.Second)
		j := &structs.Job{ID: fmt.Sprintf("late%d", i+1), Name: fmt.Sprintf("late%d", i+1), Type: structs.JobTypeService,
			TaskGroups: []*structs.TaskGroup{{Name: "g1", Count: 1, Tasks: []*structs.Task{{Name: "main", Driver: "mock_driver", KillTimeout: 2 * time.Second, Config: map[string]any{}}}}}}
		j.Canonicalize()
		sc.Jobs = append(sc.Jobs, scenario.JobAt{At: scenario.Duration(at), Job: j})
	}
}

// fetches follows one incarnation's Alloc.GetAllocs replies: Nomad's
// pull protocol (SPEC-NOTES, "Alloc pull protocol") fetches an alloc
// only when the client holds none at the AllocModifyIndex the index map
// lists, so an alloc fetched once is fetched again only once that index
// moved: also one the client reported failed (AR-3, STATE-3 (4)) or saw
// client-terminal.
type fetches struct {
	at map[string]uint64 // alloc → the AllocModifyIndex last fetched
	// failed are the allocs whose restore failed in this incarnation: it
	// holds them (reported failed) at the index its first pull lists.
	failed map[string]bool
}

// restoreFailed notes an alloc whose restore failed in this incarnation.
func (f *fetches) restoreFailed(id string) {
	if f.failed == nil {
		f.failed = map[string]bool{}
	}
	f.failed[id] = true
}

type fetchedAlloc struct {
	ID               string `json:"id"`
	AllocModifyIndex uint64 `json:"alloc_modify_index"`
}

// settled reads one settled instant's records; refetched reports an
// alloc fetched again at an index it was already fetched at.
func (f *fetches) settled(v *prop.View, r trace.Record) {
	switch {
	case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
		f.at, f.failed = map[string]uint64{}, nil
	case r.Kind == trace.KindRPC && r.Op == structs.RPCNodeGetClientAllocs && r.Msg == "reply":
		var reply struct {
			Allocs map[string]uint64 `json:"allocs"`
		}
		if err := json.Unmarshal(r.Data, &reply); err != nil {
			return
		}
		if f.at == nil {
			f.at = map[string]uint64{}
		}
		for id := range f.failed {
			if _, ok := f.at[id]; !ok {
				if idx, listed := reply.Allocs[id]; listed {
					f.at[id] = idx
				}
			}
		}
	case r.Kind == trace.KindRPC && r.Op == structs.RPCAllocGetAllocs && r.Msg == "reply":
		var reply struct {
			Allocs []fetchedAlloc `json:"allocs"`
		}
		if err := json.Unmarshal(r.Data, &reply); err != nil {
			return
		}
		if f.at == nil {
			f.at = map[string]uint64{}
		} else if len(f.at) > 0 {
			v.Reach("later-fetch")
		}
		for _, a := range reply.Allocs {
			if prev, ok := f.at[a.ID]; ok {
				if a.AllocModifyIndex <= prev {
					v.Violatef(a.ID, "", fmt.Sprintf("%s fetched the alloc again at AllocModifyIndex %d", structs.RPCAllocGetAllocs, a.AllocModifyIndex),
						"fetched again", fmt.Sprintf("not fetched: the client has it at index %d and fetches an alloc only once its index moved (pull protocol)", prev))
					return
				}
			}
			f.at[a.ID] = a.AllocModifyIndex
		}
	}
}
