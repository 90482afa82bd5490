package statetest

import (
	"errors"
	"fmt"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// kind is one STATE-1 key with its typed accessors, so that every property
// runs over every value. Values travel as any; get returns a typed pointer
// (possibly a typed nil).
type kind struct {
	key  string // STATE-1 key
	task bool   // per-task key
	gen  func(allocID string) *rapid.Generator[any]
	put  func(db interfaces.StateDB, allocID, task string, v any) error
	get  func(db interfaces.StateDB, allocID, task string) (any, error)
	// zero is a typed nil of the value's type, for NilValuesReadBackNil.
	zero any
}

func asAny[V any](g *rapid.Generator[V]) *rapid.Generator[any] {
	return rapid.Map(g, func(v V) any { return v })
}

var kinds = []kind{
	{
		key: state.KeyAlloc,
		gen: func(id string) *rapid.Generator[any] { return asAny(GenAllocation(id)) },
		put: func(db interfaces.StateDB, _, _ string, v any) error {
			return db.PutAllocation(v.(*structs.Allocation))
		},
		get: func(db interfaces.StateDB, id, _ string) (any, error) { return getAlloc(db, id) },
	},
	{
		key: state.KeyAcknowledgedState,
		gen: func(string) *rapid.Generator[any] { return asAny(GenAllocState()) },
		put: func(db interfaces.StateDB, id, _ string, v any) error {
			return db.PutAcknowledgedState(id, v.(*structs.AllocState))
		},
		get:  func(db interfaces.StateDB, id, _ string) (any, error) { return db.GetAcknowledgedState(id) },
		zero: (*structs.AllocState)(nil),
	},
	{
		key: state.KeyDeployStatus,
		gen: func(string) *rapid.Generator[any] { return asAny(GenDeploymentStatus()) },
		put: func(db interfaces.StateDB, id, _ string, v any) error {
			return db.PutDeploymentStatus(id, v.(*structs.AllocDeploymentStatus))
		},
		get:  func(db interfaces.StateDB, id, _ string) (any, error) { return db.GetDeploymentStatus(id) },
		zero: (*structs.AllocDeploymentStatus)(nil),
	},
	{
		key: state.KeyNetworkStatus,
		gen: func(string) *rapid.Generator[any] { return asAny(GenNetworkStatus()) },
		put: func(db interfaces.StateDB, id, _ string, v any) error {
			return db.PutNetworkStatus(id, v.(*structs.AllocNetworkStatus))
		},
		get:  func(db interfaces.StateDB, id, _ string) (any, error) { return db.GetNetworkStatus(id) },
		zero: (*structs.AllocNetworkStatus)(nil),
	},
	{
		key: state.KeyAllocVolume,
		gen: func(string) *rapid.Generator[any] { return asAny(GenAllocVolumes()) },
		put: func(db interfaces.StateDB, id, _ string, v any) error {
			return db.PutAllocVolumes(id, v.(*interfaces.AllocVolumes))
		},
		get:  func(db interfaces.StateDB, id, _ string) (any, error) { return db.GetAllocVolumes(id) },
		zero: (*interfaces.AllocVolumes)(nil),
	},
	{
		key: state.KeyLocalState, task: true,
		gen: func(string) *rapid.Generator[any] { return asAny(GenLocalState()) },
		put: func(db interfaces.StateDB, id, task string, v any) error {
			return db.PutTaskRunnerLocalState(id, task, v.(*interfaces.LocalState))
		},
		get: func(db interfaces.StateDB, id, task string) (any, error) {
			ls, _, err := db.GetTaskRunnerState(id, task)
			return ls, err
		},
		zero: (*interfaces.LocalState)(nil),
	},
	{
		key: state.KeyTaskState, task: true,
		gen: func(string) *rapid.Generator[any] { return asAny(GenTaskState()) },
		put: func(db interfaces.StateDB, id, task string, v any) error {
			return db.PutTaskState(id, task, v.(*structs.TaskState))
		},
		get: func(db interfaces.StateDB, id, task string) (any, error) {
			_, ts, err := db.GetTaskRunnerState(id, task)
			return ts, err
		},
		zero: (*structs.TaskState)(nil),
	},
}

// getAlloc finds one alloc in GetAllAllocations: a typed nil if absent
// (also when its bucket has no alloc entry), its per-alloc error if it is
// corrupt.
func getAlloc(db interfaces.StateDB, id string) (*structs.Allocation, error) {
	allocs, errs, err := db.GetAllAllocations()
	if err != nil {
		return nil, err
	}
	if err := errs[id]; err != nil && !errors.Is(err, state.ErrNoAllocEntry) {
		return nil, err
	}
	for _, a := range allocs {
		if a.ID == id {
			return a, nil
		}
	}
	return nil, nil
}

// isNull reports whether v is nil or a typed nil pointer.
func isNull(t tb, v any) bool {
	t.Helper()
	return string(encode(t, v)) == "null"
}

// mustGet reads k and fails t on error.
func mustGet(t tb, db interfaces.StateDB, k kind, allocID, task string) any {
	t.Helper()
	v, err := k.get(db, allocID, task)
	if err != nil {
		t.Fatalf("get %s of %s: %v", k.key, where(allocID, task), err)
	}
	return v
}

// mustPut writes k and fails t on error.
func mustPut(t tb, db interfaces.StateDB, k kind, allocID, task string, v any) {
	t.Helper()
	if err := k.put(db, allocID, task, v); err != nil {
		t.Fatalf("put %s of %s: %v", k.key, where(allocID, task), err)
	}
}

func where(allocID, task string) string {
	if task == "" {
		return fmt.Sprintf("alloc %q", allocID)
	}
	return fmt.Sprintf("alloc %q task %q", allocID, task)
}
