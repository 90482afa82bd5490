package transport

import (
	"github.com/allocsim/allocsim/model/structs"
)

// allocSummary is what a trace shows of an alloc crossing the network.
type allocSummary struct {
	ID                string                 `json:"id"`
	ClientStatus      string                 `json:"client_status,omitempty"`
	DesiredStatus     string                 `json:"desired_status,omitempty"`
	AllocModifyIndex  uint64                 `json:"alloc_modify_index,omitempty"`
	ClientDescription string                 `json:"description,omitempty"`
	Tasks             map[string]taskSummary `json:"tasks,omitempty"`
}

type taskSummary struct {
	State    string `json:"state"`
	Failed   bool   `json:"failed,omitempty"`
	Restarts uint64 `json:"restarts,omitempty"`
	Paused   string `json:"paused,omitempty"`
	Events   int    `json:"events"`
	// Last is the type of the newest event.
	Last string `json:"last,omitempty"`
}

func summarizeAlloc(a *structs.Allocation, withTasks bool) allocSummary {
	s := allocSummary{ID: a.ID, ClientStatus: a.ClientStatus, DesiredStatus: a.DesiredStatus,
		AllocModifyIndex: a.AllocModifyIndex, ClientDescription: a.ClientDescription}
	if withTasks && len(a.TaskStates) > 0 {
		s.Tasks = map[string]taskSummary{}
		for name, ts := range a.TaskStates {
			if ts == nil {
				continue
			}
			t := taskSummary{State: ts.State, Failed: ts.Failed, Restarts: ts.Restarts, Paused: string(ts.Paused), Events: len(ts.Events)}
			if n := len(ts.Events); n > 0 && ts.Events[n-1] != nil {
				t.Last = ts.Events[n-1].Type
			}
			s.Tasks[name] = t
		}
	}
	return s
}

// summarize is the traced form of an RPC's args or reply: alloc lists are
// summarised (IDs, statuses, task states), everything else is traced as
// is (the request shapes of rpc.go are small); a Node.GetClientAllocs
// reply is its index and its map of alloc ID to AllocModifyIndex (JSON
// sorts the keys).
func summarize(v any) any {
	switch x := v.(type) {
	case *structs.AllocUpdateRequest:
		out := make([]allocSummary, 0, len(x.Alloc))
		for _, a := range x.Alloc {
			if a != nil {
				out = append(out, summarizeAlloc(a, true))
			}
		}
		return map[string]any{"allocs": out, "evals": len(x.Evals)}
	case *structs.NodeClientAllocsIndexResponse:
		return map[string]any{"index": x.Index, "allocs": x.Allocs}
	case *structs.AllocsGetResponse:
		out := make([]allocSummary, 0, len(x.Allocs))
		for _, a := range x.Allocs {
			if a != nil {
				out = append(out, summarizeAlloc(a, false))
			}
		}
		return map[string]any{"index": x.Index, "allocs": out}
	}
	return v
}
