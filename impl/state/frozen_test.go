package state_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/impl/state/statetest"
	"github.com/allocsim/allocsim/model/structs"
)

// TestFrozenTaskStateProperty: however task states are put frozen (each
// sharing events with the task's last one, as a task runner's published
// copies do), and whatever allocs, acknowledged states and plain task
// states are put beside them (holding the frozen states themselves,
// copies of them, or copies changed in one event), across reopens and
// deleted buckets, every write stores exactly json.Marshal of its value
// at the time of the call: the encodings the DB copies from frozen task
// states are theirs.
func TestFrozenTaskStateProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var db interfaces.StateDB = state.NewMemDB(state.MemConfig{})
		const id = "a1"
		tasks := []string{"web", "db"}
		frozen := map[string]*structs.TaskState{} // never changed once put
		check := func(task, key string, v any) {
			want, err := json.Marshal(v)
			must.NoError(rt, err)
			got, err := state.RawValue(db.(*state.DB), id, task, key)
			must.NoError(rt, err)
			must.Eq(rt, string(want), string(got))
		}
		// held is what a state put beside the frozen ones holds for task:
		// the frozen state itself, a deep copy, or a copy with one event
		// changed at the same instant.
		held := func(task string) *structs.TaskState {
			ts := frozen[task]
			if ts == nil {
				return statetest.GenTaskState().Draw(rt, "unfrozen")
			}
			switch rapid.IntRange(0, 2).Draw(rt, "held") {
			case 0:
				return ts
			case 1:
				return ts.Copy()
			}
			cp := ts.Copy()
			if len(cp.Events) > 0 {
				if e := cp.Events[rapid.IntRange(0, len(cp.Events)-1).Draw(rt, "changed")]; e != nil {
					if rapid.Bool().Draw(rt, "in details") {
						e.Details = map[string]string{"x": rapid.String().Draw(rt, "detail")}
					} else {
						e.Message += "!"
					}
				}
			}
			return cp
		}
		// Each task starts with a frozen state holding events, so that
		// the states put beside have events to share or to differ in.
		for i, task := range tasks {
			ts := statetest.GenTaskState().Draw(rt, "first")
			ts.Events = append(ts.Events, structs.NewTaskEvent(structs.TaskStarted, time.Unix(int64(i), 0)).SetMessage("started"))
			must.NoError(rt, db.(*state.DB).PutFrozenTaskState(id, task, ts))
			frozen[task] = ts
		}
		for range rapid.IntRange(1, 16).Draw(rt, "steps") {
			task := rapid.SampledFrom(tasks).Draw(rt, "task")
			switch rapid.IntRange(0, 6).Draw(rt, "op") {
			case 0, 1: // the task's next state, keeping some of its events
				next := statetest.GenTaskState().Draw(rt, "next")
				if prev := frozen[task]; prev != nil && len(prev.Events) > 0 {
					keep := rapid.IntRange(0, len(prev.Events)).Draw(rt, "keep")
					next.Events = append(slices.Clone(prev.Events[len(prev.Events)-keep:]), next.Events...)
				}
				if rapid.Bool().Draw(rt, "again") && frozen[task] != nil {
					next = frozen[task] // the very state put last
				}
				must.NoError(rt, db.(*state.DB).PutFrozenTaskState(id, task, next))
				frozen[task] = next
				check(task, state.KeyTaskState, next)
			case 2:
				s := &structs.AllocState{ClientStatus: "running", TaskStates: map[string]*structs.TaskState{}}
				for _, name := range tasks {
					s.TaskStates[name] = held(name)
				}
				must.NoError(rt, db.PutAcknowledgedState(id, s))
				check("", state.KeyAcknowledgedState, s)
			case 3:
				a := statetest.GenAllocation(id).Draw(rt, "alloc")
				a.TaskStates = map[string]*structs.TaskState{task: held(task)}
				must.NoError(rt, db.PutAllocation(a))
				check("", state.KeyAlloc, a)
			case 4:
				ts := held(task)
				must.NoError(rt, db.PutTaskState(id, task, ts))
				check(task, state.KeyTaskState, ts)
			case 5:
				reopened, err := db.(*state.DB).Reopen()
				must.NoError(rt, err)
				db = reopened
			case 6:
				if rapid.Bool().Draw(rt, "whole alloc") {
					must.NoError(rt, db.DeleteAllocationBucket(id))
				} else {
					must.NoError(rt, db.DeleteTaskBucket(id, task))
				}
			}
		}
	})
}
