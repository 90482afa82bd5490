package state_test

import (
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/impl/state/statetest"
	"github.com/allocsim/allocsim/model/structs"
)

// TestPutAllocationMemoProperty: whatever sequence of allocs is put
// (repeats, changes, the caller mutating what it put, values that do not
// survive a JSON round trip), every PutAllocation stores exactly
// json.Marshal of the alloc at the time of the call, and every one of
// them is a write the fault hook sees (STATE-1, STATE-2). So does every
// PutUnchangedAllocation, used wherever its promise holds: for any alloc
// but the one last put for its ID changed in place since.
func TestPutAllocationMemoProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var writes atomic.Int64
		db := state.NewMemDB(state.MemConfig{FaultHook: func(w state.Write) error {
			if w.Key == state.KeyAlloc {
				writes.Add(1)
			}
			return nil
		}})
		ids := []string{"a1", "a2"}
		cur := map[string]*structs.Allocation{}
		steps := rapid.IntRange(1, 12).Draw(rt, "steps")
		for i := range steps {
			id := rapid.SampledFrom(ids).Draw(rt, "id")
			a := cur[id]
			mutated := false
			switch op := rapid.IntRange(0, 5).Draw(rt, "op"); {
			case a == nil || op == 0: // a new value
				a = statetest.GenAllocation(id).Draw(rt, "alloc")
				if rapid.Bool().Draw(rt, "round-trippable") {
					// Config numbers come back as float64: keep the
					// alloc equal to its own round trip.
					for _, task := range a.Job.TaskGroups[0].Tasks {
						task.Config = map[string]any{"run_for": 1.5, "argv": []any{"x"}}
					}
				}
			case op == 1: // the same value again, as a fresh copy
				a = a.Copy()
			case op == 2: // the caller changes what it put last
				a.ClientStatus += "x"
				mutated = true
			case op == 3: // a change deep inside
				a = a.Copy()
				a.TaskStates = map[string]*structs.TaskState{"t": {State: "dead", Events: []*structs.TaskEvent{{Type: "Terminated", Details: map[string]string{"n": rapid.String().Draw(rt, "detail")}}}}}
			case op == 4: // a zone that does not survive the round trip
				a = a.Copy()
				a.DeploymentStatus = &structs.AllocDeploymentStatus{Timestamp: time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("X", 3600))}
			case op == 5: // the very alloc put last, unchanged
			}
			cur[id] = a
			want, err := json.Marshal(a)
			must.NoError(rt, err)
			if !mutated && rapid.Bool().Draw(rt, "unchanged") {
				must.NoError(rt, db.PutUnchangedAllocation(a))
			} else {
				must.NoError(rt, db.PutAllocation(a))
			}
			got, err := state.RawValue(db, id, "", state.KeyAlloc)
			must.NoError(rt, err)
			must.Eq(rt, string(want), string(got))
			must.Eq(rt, int64(i+1), writes.Load())
		}
		if rapid.Bool().Draw(rt, "delete") {
			must.NoError(rt, db.DeleteAllocationBucket(ids[0]))
			a := cur[ids[0]]
			if a == nil {
				a = statetest.GenAllocation(ids[0]).Draw(rt, "after delete")
			}
			must.NoError(rt, db.PutAllocation(a))
			got, err := state.RawValue(db, ids[0], "", state.KeyAlloc)
			must.NoError(rt, err)
			want, _ := json.Marshal(a)
			must.Eq(rt, string(want), string(got))
		}
	})
}

// TestPutAllocationFaultStillWrites: a memoised (unchanged) alloc is
// still a write: a failing hook fails it and leaves the old bytes.
func TestPutAllocationFaultStillWrites(t *testing.T) {
	fail := false
	errHook := errString("injected")
	db := state.NewMemDB(state.MemConfig{FaultHook: func(state.Write) error {
		if fail {
			return errHook
		}
		return nil
	}})
	a := &structs.Allocation{ID: "a", ClientStatus: "running"}
	must.NoError(t, db.PutAllocation(a))
	must.NoError(t, db.PutAllocation(a.Copy()))
	fail = true
	must.ErrorIs(t, db.PutAllocation(a.Copy()), errHook)
	b := a.Copy()
	b.ClientStatus = "complete"
	must.ErrorIs(t, db.PutAllocation(b), errHook)
	got, err := state.RawValue(db, "a", "", state.KeyAlloc)
	must.NoError(t, err)
	want, _ := json.Marshal(a)
	must.Eq(t, string(want), string(got))
}

type errString string

func (e errString) Error() string { return string(e) }
