package taskrunner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestKillRecoveredBeforeStart: a recovered live task killed before its
// start condition is killed after the loop (AR-6 "kill a leftover
// handle"): Terminated and Killed, dead.
func TestKillRecoveredBeforeStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.start()
		h.crash(tr, &faults{})
		h.startCh = make(chan struct{})
		tr2 := h.restored()
		tr2.Start()
		synctest.Wait()
		must.NoError(t, h.kill(tr2))
		ts := tr2.TaskState()
		must.Eq(t, []string{structs.TaskKilling, structs.TaskTerminated, structs.TaskKilled}, tail(ts, 3))
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.False(t, ts.Failed)
	})
}

// TestServerTerminalAlloc: a task of a server-terminal alloc runs no
// prestart and waits for the alloc runner's kill (AR-5).
func TestServerTerminalAlloc(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		h.alloc.DesiredStatus = structs.AllocDesiredStatusStop
		tr := h.start()
		must.Eq(t, []string{structs.TaskReceived}, types(tr.TaskState()))
		must.Nil(t, h.metrics())
		must.NoError(t, h.kill(tr))
		must.Eq(t, structs.TaskStateDead, tr.TaskState().State)
	})
}

// TestTaskDirFailures: the task dir cannot be built, then cannot be
// re-ensured: both are recoverable prestart failures.
func TestTaskDirFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1s"}))
		must.NoError(t, h.allocDir.Destroy())
		tr := h.start()
		ts := tr.TaskState()
		fail := lastEvent(t, ts, structs.TaskHookFailed)
		must.StrHasPrefix(t, `task_dir: failed to build the task directory of "web": `, fail.Message)
		must.Eq(t, structs.TaskRestarting, ts.Events[len(ts.Events)-1].Type)
		must.NoError(t, h.kill(tr))

		h2 := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1s"}))
		tr2 := h2.start()
		must.NoError(t, h2.allocDir.Destroy())
		h2.advance(time.Second)
		h2.advance(time.Duration(lastEvent(t, tr2.TaskState(), structs.TaskRestarting).StartDelay))
		fail = lastEvent(t, tr2.TaskState(), structs.TaskHookFailed)
		must.StrHasPrefix(t, `task_dir: failed to ensure the secrets directory of "web": `, fail.Message)
		must.NoError(t, h2.kill(tr2))
	})
}

// TestStartupUnscheduledUpdate: an update that leaves the schedule alone
// changes nothing; an update to another task definition is adopted.
func TestUpdateKeepsSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 9 * * * *", "0 17")
		tr := h.start()
		n := len(tr.TaskState().Events)
		alloc := h.alloc.Copy()
		alloc.LookupTaskGroup().Tasks[0].KillTimeout = 7 * time.Second
		tr.Update(alloc)
		tr.Update(nil)
		synctest.Wait()
		must.Eq(t, n, len(tr.TaskState().Events))
		must.Eq(t, 7*time.Second, tr.Task().KillTimeout)
		must.Eq(t, alloc, tr.Alloc())
		must.NoError(t, h.kill(tr))
	})
}
