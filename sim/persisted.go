package sim

import (
	"errors"

	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// PersistedAlloc reads alloc id's `alloc` entry (STATE-1) from the state
// DB storage, as a restore would load it now; nil if there is none or it
// does not decode. It only reads.
func (w *World) PersistedAlloc(id string) (*structs.Allocation, error) {
	w.mu.Lock()
	db := w.db
	w.mu.Unlock()
	if one, ok := db.(*state.DB); ok {
		a, err := one.GetAllocation(id)
		if errors.Is(err, state.ErrCorrupt) || errors.Is(err, state.ErrNoAllocEntry) {
			return nil, nil // GetAllAllocations leaves it out
		}
		return a, err
	}
	allocs, _, err := db.GetAllAllocations()
	if err != nil {
		return nil, err
	}
	for _, a := range allocs {
		if a.ID == id {
			return a, nil
		}
	}
	return nil, nil
}

// PersistedTaskState reads the `task_state` entry (STATE-1) of task in
// alloc id from the state DB storage, as a restore would load it now;
// nil if there is none. It only reads.
func (w *World) PersistedTaskState(id, task string) (*structs.TaskState, error) {
	w.mu.Lock()
	db := w.db
	w.mu.Unlock()
	_, ts, err := db.GetTaskRunnerState(id, task)
	return ts, err
}
