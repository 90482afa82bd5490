package transport

import (
	"strconv"

	"github.com/allocsim/allocsim/internal/allocjson"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
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

// allocSummaries are the summaries of an alloc list, encoded by hand as
// json.Marshal writes them (trace.Encode; TestEncodeIsMarshal).
type allocSummaries []allocSummary

func (l allocSummaries) AppendJSON(b []byte, ok bool) ([]byte, bool) {
	if l == nil {
		return append(b, "null"...), ok
	}
	b = append(b, '[')
	for i, s := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b, ok = s.AppendJSON(b, ok)
	}
	return append(b, ']'), ok
}

func (s allocSummary) AppendJSON(b []byte, ok bool) ([]byte, bool) {
	b = trace.AppendField(append(b, '{'), "id", true)
	b, ok = allocjson.AppendString(b, s.ID, ok)
	b, ok = trace.AppendNonEmpty(b, ok, "client_status", s.ClientStatus, "desired_status", s.DesiredStatus)
	if s.AllocModifyIndex != 0 {
		b = strconv.AppendUint(trace.AppendField(b, "alloc_modify_index", false), s.AllocModifyIndex, 10)
	}
	b, ok = trace.AppendNonEmpty(b, ok, "description", s.ClientDescription)
	if len(s.Tasks) > 0 && ok {
		var tasks []byte
		tasks, ok = trace.AppendMap(trace.AppendField(b, "tasks", false), s.Tasks,
			func(b []byte, t taskSummary) ([]byte, bool) { return t.AppendJSON(b, true) })
		b = tasks
	}
	return append(b, '}'), ok
}

func (t taskSummary) AppendJSON(b []byte, ok bool) ([]byte, bool) {
	b = trace.AppendField(append(b, '{'), "state", true)
	b, ok = allocjson.AppendString(b, t.State, ok)
	if t.Failed {
		b = append(trace.AppendField(b, "failed", false), "true"...)
	}
	if t.Restarts != 0 {
		b = strconv.AppendUint(trace.AppendField(b, "restarts", false), t.Restarts, 10)
	}
	b, ok = trace.AppendNonEmpty(b, ok, "paused", t.Paused)
	b = strconv.AppendInt(trace.AppendField(b, "events", false), int64(t.Events), 10)
	b, ok = trace.AppendNonEmpty(b, ok, "last", t.Last)
	return append(b, '}'), ok
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
		out := make(allocSummaries, 0, len(x.Alloc))
		for _, a := range x.Alloc {
			if a != nil {
				out = append(out, summarizeAlloc(a, true))
			}
		}
		return map[string]any{"allocs": out, "evals": len(x.Evals)}
	case *structs.NodeClientAllocsIndexResponse:
		return map[string]any{"index": x.Index, "allocs": x.Allocs}
	case *structs.AllocsGetResponse:
		out := make(allocSummaries, 0, len(x.Allocs))
		for _, a := range x.Allocs {
			if a != nil {
				out = append(out, summarizeAlloc(a, false))
			}
		}
		return map[string]any{"index": x.Index, "allocs": out}
	}
	return v
}
