package state_test

import (
	"testing"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// Both stores, for the checks below that are not in the shared suite.
var stores = map[string]func(*testing.T, state.FaultHook) interfaces.StateDB{"bolt": openBolt, "mem": openMem}

func TestPutRawChecks(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			db := open(t, nil).(*state.DB)
			must.ErrorIs(t, db.PutRaw("", "", state.KeyAlloc, []byte("x")), state.ErrInvalidArgument)
			must.ErrorIs(t, db.PutRaw("a1", "", "", []byte("x")), state.ErrInvalidArgument)
			must.NoError(t, db.Close())
			must.ErrorIs(t, db.PutRaw("a1", "", state.KeyAlloc, []byte("x")), state.ErrClosed)
		})
	}
}

// A value that JSON cannot encode fails its put before the hook, and
// nothing is written.
func TestPutUnencodable(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			hooked := false
			db := open(t, func(state.Write) error { hooked = true; return nil })
			a := &structs.Allocation{ID: "a1", Job: &structs.Job{TaskGroups: []*structs.TaskGroup{{
				Tasks: []*structs.Task{{Name: "web", Config: map[string]any{"bad": make(chan int)}}}}}}}
			err := db.PutAllocation(a)
			must.ErrorContains(t, err, "put a1/alloc: encode")
			must.False(t, hooked)
			allocs, errs, err := db.GetAllAllocations()
			must.NoError(t, err)
			must.SliceEmpty(t, allocs)
			must.MapEmpty(t, errs)
		})
	}
}

// Errors name the entry that failed.
func TestErrorsNameTheEntry(t *testing.T) {
	db := openMem(t, nil).(*state.DB)
	must.NoError(t, db.PutRaw("a1", "web", state.KeyTaskState, []byte("{")))
	_, _, err := db.GetTaskRunnerState("a1", "web")
	must.ErrorIs(t, err, state.ErrCorrupt)
	must.StrHasPrefix(t, "decode a1/task-web/task_state: corrupt state db entry: ", err.Error())
	must.NoError(t, db.Close())
	err = db.PutTaskState("a1", "web", nil)
	must.EqError(t, err, "put a1/task-web/task_state: state db is closed")
}

// Overwriting a value (which the memory store does in place when the new
// encoding fits) changes neither a value read before nor the bytes a
// PutRaw caller passed, whichever is longer.
func TestOverwriteKeepsEarlierReads(t *testing.T) {
	long := structs.NewTaskState()
	long.AppendEvent(structs.NewTaskEvent(structs.TaskStarted, time.Unix(1, 0)).SetMessage("a long message to make it longer"))
	short := structs.NewTaskState()
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			db := open(t, nil).(*state.DB)
			raw := []byte("{}")
			must.NoError(t, db.PutRaw("a1", "web", state.KeyTaskState, raw))
			must.NoError(t, db.PutTaskState("a1", "web", long))
			must.Eq(t, "{}", string(raw))
			_, gotLong, err := db.GetTaskRunnerState("a1", "web")
			must.NoError(t, err)
			for _, ts := range []*structs.TaskState{short, long, short} {
				must.NoError(t, db.PutTaskState("a1", "web", ts))
				_, got, err := db.GetTaskRunnerState("a1", "web")
				must.NoError(t, err)
				must.Eq(t, ts.Events, got.Events)
			}
			must.Eq(t, long.Events[0].Message, gotLong.Events[0].Message)
		})
	}
}

// GetAllocation reads one alloc as GetAllAllocations lists it: the same
// alloc when it decodes, its listing error when it does not, nil when it
// has no alloc entry or no bucket.
func TestGetAllocationIsListed(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			db := open(t, nil).(*state.DB)
			must.NoError(t, db.PutAllocation(&structs.Allocation{ID: "a1", ClientStatus: structs.AllocClientStatusRunning,
				Job: &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g", Tasks: []*structs.Task{{Name: "web"}}}}}}))
			must.NoError(t, db.PutRaw("a2", "", state.KeyAlloc, []byte("{")))
			must.NoError(t, db.PutTaskState("a3", "web", &structs.TaskState{State: structs.TaskStatePending}))
			listed, errs, err := db.GetAllAllocations()
			must.NoError(t, err)
			must.SliceLen(t, 1, listed)

			one, err := db.GetAllocation("a1")
			must.NoError(t, err)
			must.Eq(t, listed[0], one)
			one.ClientStatus = structs.AllocClientStatusFailed // a copy of its own
			again, err := db.GetAllocation("a1")
			must.NoError(t, err)
			must.EqOp(t, structs.AllocClientStatusRunning, again.ClientStatus)

			_, err = db.GetAllocation("a2")
			must.ErrorIs(t, err, state.ErrCorrupt)
			must.Eq(t, errs["a2"], err)
			for _, id := range []string{"a3", "a4"} {
				one, err := db.GetAllocation(id)
				must.NoError(t, err)
				must.Nil(t, one, must.Sprint(id))
			}
			_, err = db.GetAllocation("")
			must.ErrorIs(t, err, state.ErrInvalidArgument)
		})
	}
}
