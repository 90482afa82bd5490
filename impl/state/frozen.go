package state

import (
	"sync"

	"github.com/allocsim/allocsim/internal/allocjson"
	"github.com/allocsim/allocsim/model/structs"
)

// frozenStates remembers, per task, the last task state put frozen
// (PutFrozenTaskState) with its encoding and where each of its events
// lies in it. Encodings of the task state written next (which holds the
// same events but the newest), and of the alloc and the acknowledged
// state that hold that very task state, copy those bytes instead of
// encoding again: a task runner's frozen task states are all of a
// task's events, written at every change of the task and again in its
// alloc at every alloc write, and encoding them was a fifth of the state
// DB's CPU in a conformance check.
//
// Only pointers the caller promised never to change are remembered, so a
// pointer's bytes stay its encoding, and an event that compares same to
// one of them encodes as it does; the bytes are the stored value,
// which the store never changes either (a frozen put hands its buffer
// over, unborrowed). Memory: one task state and its span list per task,
// the task state the runner holds anyway.
type frozenStates struct {
	mu     sync.Mutex
	allocs map[string]map[string]*frozenTask
}

// frozenTask is a task state put frozen and its encoding.
type frozenTask struct {
	ts    *structs.TaskState
	enc   []byte
	spans []allocjson.EventSpan
}

func (f *frozenStates) get(allocID, task string) *frozenTask {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.allocs[allocID][task]
}

func (f *frozenStates) set(allocID, task string, ft *frozenTask) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.allocs == nil {
		f.allocs = map[string]map[string]*frozenTask{}
	}
	tasks := f.allocs[allocID]
	if tasks == nil {
		tasks = map[string]*frozenTask{}
		f.allocs[allocID] = tasks
	}
	tasks[task] = ft
}

// forget drops what is remembered of a task, or of every task of the
// alloc when task is empty (its bucket was deleted).
func (f *frozenStates) forget(allocID, task string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if task == "" {
		delete(f.allocs, allocID)
		return
	}
	delete(f.allocs[allocID], task)
}

// reuse is the allocjson.Reuse of one alloc's remembered task states.
func (f *frozenStates) reuse(allocID string) allocjson.Reuse {
	return frozenReuse{f: f, allocID: allocID}
}

type frozenReuse struct {
	f       *frozenStates
	allocID string
}

func (r frozenReuse) TaskState(task string, ts *structs.TaskState) []byte {
	if ft := r.f.get(r.allocID, task); ft != nil && ft.ts == ts {
		return ft.enc
	}
	return nil
}

func (r frozenReuse) Event(task string, e *structs.TaskEvent) []byte {
	if ft := r.f.get(r.allocID, task); ft != nil {
		return ft.event(e)
	}
	return nil
}

// event is e's encoding if e is one of the task state's events, or
// compares same to one (structs.TaskEvent.SameJSON: it then encodes
// alike). A copy of a task's events compares same: the client's copies,
// which the acknowledged states hold.
func (ft *frozenTask) event(e *structs.TaskEvent) []byte {
	for i := len(ft.spans) - 1; i >= 0; i-- { // a kept event is among the newest
		if sp := ft.spans[i]; sp.Event == e {
			return ft.enc[sp.Start:sp.End]
		}
	}
	if e == nil {
		return nil
	}
	for i := len(ft.spans) - 1; i >= 0; i-- {
		if sp := ft.spans[i]; sp.Event != nil && sp.Event.Time == e.Time && sp.Event.SameJSON(e) {
			return ft.enc[sp.Start:sp.End]
		}
	}
	return nil
}

// taskReuse is the allocjson.Reuse a frozen put of a task's next state
// encodes with: the events of its previous frozen state.
type taskReuse struct{ prev *frozenTask }

func (r taskReuse) TaskState(string, *structs.TaskState) []byte { return nil }

func (r taskReuse) Event(_ string, e *structs.TaskEvent) []byte { return r.prev.event(e) }
