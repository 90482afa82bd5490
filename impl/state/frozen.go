package state

import (
	"sync"

	"github.com/allocsim/allocsim/internal/allocjson"
	"github.com/allocsim/allocsim/model/structs"
)

// frozenStates remembers, per task, the last task state put frozen
// (PutFrozenTaskState) with its encoding and where each of its events
// lies in it. The task state written next (which holds the same events
// but the newest) copies those events' bytes instead of encoding them
// again, and the alloc and the acknowledged state that hold that very
// task state, or copies of its events, reference them (allocjson.Lender:
// the memory store keeps them as ropes): a task runner's frozen task
// states are all of a task's events, written at every change of the task
// and again in its alloc and its acknowledged state, and encoding them
// was a fifth of the state DB's CPU in a conformance check, holding them
// three times a fifth of a cluster's live memory.
//
// Only pointers the caller promised never to change are remembered, so a
// pointer's bytes stay its encoding, and an event that compares same to
// one of them encodes as it does. The bytes are the stored value: a
// frozen put hands them to the store unborrowed, and nothing writes into
// them again, so a rope may reference them after the task's next put
// replaced them here and in the store.
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

// replace makes ft the task's frozen state, unless the task's bucket
// was deleted (forget) since prev was read.
func (f *frozenStates) replace(allocID, task string, prev, ft *frozenTask) {
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
	if tasks[task] != prev {
		// The bucket was deleted (forget) meanwhile: remember nothing of
		// a put that raced with the delete.
		return
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

var _ allocjson.Lender = (*frozenStates)(nil)

// TaskStateEnc implements allocjson.Lender: ts's encoding if it is the
// task state last put frozen for the task.
func (f *frozenStates) TaskStateEnc(allocID, task string, ts *structs.TaskState) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ft := f.allocs[allocID][task]; ft != nil && ft.ts == ts {
		return ft.enc
	}
	return nil
}

// EventEnc implements allocjson.Lender: e's encoding if it is, or
// compares same to, an event of the task state last put frozen for the
// task.
func (f *frozenStates) EventEnc(allocID, task string, e *structs.TaskEvent) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ft := f.allocs[allocID][task]; ft != nil {
		return ft.event(e)
	}
	return nil
}

// AppendTaskState implements allocjson.Reuse (TaskStateEnc, copied).
func (f *frozenStates) AppendTaskState(b []byte, allocID, task string, ts *structs.TaskState) ([]byte, bool) {
	if enc := f.TaskStateEnc(allocID, task, ts); enc != nil {
		return append(b, enc...), true
	}
	return b, false
}

// AppendEvent implements allocjson.Reuse (EventEnc, copied).
func (f *frozenStates) AppendEvent(b []byte, allocID, task string, e *structs.TaskEvent) ([]byte, bool) {
	if enc := f.EventEnc(allocID, task, e); enc != nil {
		return append(b, enc...), true
	}
	return b, false
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
// encodes with: the events of its previous frozen state. It reads prev
// without the lock: puts of one task are never concurrent
// (PutFrozenTaskState), and prev's bytes never change.
type taskReuse struct{ prev *frozenTask }

func (r taskReuse) AppendTaskState(b []byte, _, _ string, _ *structs.TaskState) ([]byte, bool) {
	return b, false
}

func (r taskReuse) AppendEvent(b []byte, _, _ string, e *structs.TaskEvent) ([]byte, bool) {
	if enc := r.prev.event(e); enc != nil {
		return append(b, enc...), true
	}
	return b, false
}
