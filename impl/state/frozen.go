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
// one of them encodes as it does. The bytes are the stored value: a
// frozen put hands its buffer to the store unborrowed. Readers copy them
// under mu (the allocjson.Reuse methods), so once a later put of the
// task replaced them in the store and here, nothing holds them, and the
// next frozen put writes into them (spare) instead of allocating: the
// memory store's in-place writes, which a borrowed put gets. Memory: one
// span list per task, a few spare buffers per DB.
type frozenStates struct {
	mu     sync.Mutex
	allocs map[string]map[string]*frozenTask
	spare  [][]byte // replaced encodings, held by nothing (at most maxSpare)
}

// maxSpare bounds frozenStates.spare.
const maxSpare = 4

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

// replace makes ft the task's frozen state. stored: the put of ft
// succeeded, so the store no longer holds prev's encoding (it held it
// only as the task's value) and it becomes spare, unless ft reuses it.
func (f *frozenStates) replace(allocID, task string, prev, ft *frozenTask, stored bool) {
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
		prev, stored = nil, false
	}
	tasks[task] = ft
	if stored && prev != nil && prev != ft {
		if len(f.spare) == maxSpare { // the oldest goes
			f.spare = append(f.spare[:0], f.spare[1:]...)
		}
		f.spare = append(f.spare, prev.enc[:0])
	}
}

// copyOf returns a copy of b in a spare buffer that holds it and is less
// than twice its size (a stored value stays near its size), or in a new
// one with the room its allocation had (append's), so that a slightly
// longer next state fits it too.
func (f *frozenStates) copyOf(b []byte) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(b)
	for i, s := range f.spare {
		if c := cap(s); c >= n && c < 2*n {
			f.spare = append(f.spare[:i], f.spare[i+1:]...)
			return append(s[:0], b...)
		}
	}
	return append([]byte(nil), b...)
}

// forget drops what is remembered of a task, or of every task of the
// alloc when task is empty (its bucket was deleted). The encodings are
// not spare: the store may still hold one whose delete failed.
func (f *frozenStates) forget(allocID, task string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if task == "" {
		delete(f.allocs, allocID)
		return
	}
	delete(f.allocs[allocID], task)
}

var _ allocjson.Reuse = (*frozenStates)(nil)

// AppendTaskState implements allocjson.Reuse: ts's encoding if it is the
// task state last put frozen for the task.
func (f *frozenStates) AppendTaskState(b []byte, allocID, task string, ts *structs.TaskState) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ft := f.allocs[allocID][task]; ft != nil && ft.ts == ts {
		return append(b, ft.enc...), true
	}
	return b, false
}

// AppendEvent implements allocjson.Reuse: e's encoding if it is, or
// compares same to, an event of the task state last put frozen for the
// task.
func (f *frozenStates) AppendEvent(b []byte, allocID, task string, e *structs.TaskEvent) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ft := f.allocs[allocID][task]; ft != nil {
		if enc := ft.event(e); enc != nil {
			return append(b, enc...), true
		}
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
// (PutFrozenTaskState), and only the next one makes prev's bytes spare.
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
