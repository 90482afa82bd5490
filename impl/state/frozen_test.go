package state_test

import (
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"
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
// at the time of the call: the encodings the DB copies or references
// (the memory store's ropes) from frozen task states are theirs, and
// stay so once later puts replaced them.
func TestFrozenTaskStateProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		failNext := false // the next write fails (STATE-1 fault), nothing written
		var db interfaces.StateDB = state.NewMemDB(state.MemConfig{FaultHook: func(state.Write) error {
			if failNext {
				failNext = false
				return errors.New("injected")
			}
			return nil
		}})
		const id = "a1"
		tasks := []string{"web", "db"}
		frozen := map[string]*structs.TaskState{} // never changed once put
		// stored is every key's bytes as last written: an alloc or an
		// acknowledged state still references the encodings of task states
		// put frozen before the task's latest.
		stored := map[[2]string]string{}
		verify := func() {
			for k, want := range stored {
				got, err := state.RawValue(db.(*state.DB), id, k[0], k[1])
				must.NoError(rt, err)
				must.Eq(rt, want, string(got), must.Sprint(k))
			}
		}
		check := func(task, key string, v any) {
			want, err := json.Marshal(v)
			must.NoError(rt, err)
			stored[[2]string{task, key}] = string(want)
			verify()
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
				switch prev := frozen[task]; {
				case prev == nil:
				case rapid.Bool().Draw(rt, "again"):
					next = prev // the very state put last
				case rapid.Bool().Draw(rt, "same size"):
					// A state whose encoding is as long as the last one's:
					// an in-place write of it would go unseen by a length.
					cp := *prev
					cp.Failed = !cp.Failed
					cp.Restarts ^= 1
					next = &cp
				}
				failNext = rapid.IntRange(0, 3).Draw(rt, "fails") == 0
				err := db.(*state.DB).PutFrozenTaskState(id, task, next)
				frozen[task] = next // published whether written or not
				if failNext = false; err != nil {
					verify() // nothing written, nothing of the stored values reused
				} else {
					check(task, state.KeyTaskState, next)
				}
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
					clear(stored)
				} else {
					must.NoError(rt, db.DeleteTaskBucket(id, task))
					for _, key := range []string{state.KeyTaskState, state.KeyLocalState} {
						delete(stored, [2]string{task, key})
					}
				}
			}
		}
	})
}

// TestFrozenTaskStateConcurrentReaders: while a task's frozen states are
// put one after another (each reusing the memory of the one before last),
// acknowledged states holding the newest published state are written
// from another goroutine, each storing exactly its own encoding. Run
// under -race, it also shows that readers copy an encoding before its
// memory is reused.
func TestFrozenTaskStateConcurrentReaders(t *testing.T) {
	db := state.NewMemDB(state.MemConfig{})
	const id, task, n = "a1", "web", 300
	var published atomic.Pointer[structs.TaskState]
	first := &structs.TaskState{State: structs.TaskStateRunning}
	published.Store(first)
	must.NoError(t, db.PutFrozenTaskState(id, task, first))
	done := make(chan struct{})
	go func() {
		defer close(done)
		prev := first
		for i := range n {
			next := *prev
			next.Events = append(slices.Clone(prev.Events[max(0, len(prev.Events)-9):]),
				structs.NewTaskEvent(structs.TaskStarted, time.Unix(int64(i), 0)).SetMessage("started"))
			next.Restarts = uint64(i % 2) // the same length every other put
			must.NoError(t, db.PutFrozenTaskState(id, task, &next))
			published.Store(&next)
			prev = &next
		}
	}()
	for i, running := 0, true; running; i++ {
		select {
		case <-done:
			running = false
		default:
		}
		ts := published.Load()
		if i%2 == 1 {
			ts = ts.Copy() // its events compare same to the published ones'
		}
		s := &structs.AllocState{ClientStatus: "running", TaskStates: map[string]*structs.TaskState{task: ts}}
		must.NoError(t, db.PutAcknowledgedState(id, s))
		want, err := json.Marshal(s)
		must.NoError(t, err)
		got, err := state.RawValue(db, id, "", state.KeyAcknowledgedState)
		must.NoError(t, err)
		must.Eq(t, string(want), string(got))
	}
	got, err := state.RawValue(db, id, task, state.KeyTaskState)
	must.NoError(t, err)
	want, _ := json.Marshal(published.Load())
	must.Eq(t, string(want), string(got))
}
