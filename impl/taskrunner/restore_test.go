package taskrunner

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/shoenig/test/must"
)

// crash shuts tr down and replaces the driver instance, as a client
// restart does (the task itself survives on the clock).
func (h *harness) crash(tr *TaskRunner, f *faults) {
	tr.Shutdown()
	h.driver.Close()
	h.newDriver(f)
}

// restored builds a new task runner over the harness's DB and restores it.
func (h *harness) restored() *TaskRunner {
	h.t.Helper()
	tr := h.newTR()
	must.NoError(h.t, tr.Restore())
	return tr
}

// TestRestoreRecoveredHandle: STATE-4: a recovered handle keeps the task
// running with no second Received and no Started; Done hooks are skipped
// and task_dir reruns without Task Setup.
func TestRestoreRecoveredHandle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1h"}))
		tr := h.start()
		h.advance(time.Minute)
		before := tr.TaskState()
		h.crash(tr, &faults{})
		h.advance(time.Minute)

		tr2 := h.restored()
		tr2.Start()
		synctest.Wait()
		ts := tr2.TaskState()
		must.Eq(t, types(before), types(ts))
		must.Eq(t, structs.TaskStateRunning, ts.State)
		must.True(t, ts.StartedAt.Equal(before.StartedAt))
		must.SliceContains(t, h.ops(), "RecoverTask ok")
		must.Eq(t, []string{
			"nomad.client.task_hook.prestart.elapsed hook=task_dir count=2",
			"nomad.client.task_hook.prestart.elapsed hook=validate count=1",
			"nomad.client.task_hook.prestart.elapsed hook=volumes count=2",
			"nomad.client.task_hook.prestart.success hook=task_dir count=2",
			"nomad.client.task_hook.prestart.success hook=validate count=1",
			"nomad.client.task_hook.prestart.success hook=volumes count=2",
		}, h.metrics())

		// The recovered task exits at its planned instant.
		h.advanceTo(t0.Add(time.Hour))
		must.Eq(t, []string{structs.TaskTerminated, structs.TaskRestarting}, tail(tr2.TaskState(), 2))
		must.NoError(t, h.kill(tr2))
	})
}

// TestRestoreFailedRecovery: STATE-4: a running task whose handle cannot
// be recovered gets Failed Restoring Task (pending) and waits for the
// servers before it runs again.
func TestRestoreFailedRecovery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.start()
		h.crash(tr, &faults{recover: func(*drivers.TaskHandle) error { return errors.New("gone") }})

		updates := h.updates.Load()
		tr2 := h.restored()
		must.Eq(t, updates, h.updates.Load(), must.Sprint("Restore does not call StateUpdated"))
		ts := tr2.TaskState()
		must.Eq(t, structs.TaskStatePending, ts.State)
		must.Eq(t, structs.TaskRestoreFailed, ts.Events[len(ts.Events)-1].Type)
		must.Eq(t, structs.MsgRestoreFailed, ts.Events[len(ts.Events)-1].DisplayMessage)

		tr2.Start()
		h.advance(time.Minute)
		must.Eq(t, structs.TaskStatePending, tr2.TaskState().State)
		close(h.servers)
		synctest.Wait()
		ts = tr2.TaskState()
		must.Eq(t, structs.TaskStateRunning, ts.State)
		must.Eq(t, []string{structs.TaskRestoreFailed, structs.TaskStarted}, tail(ts, 2),
			must.Sprint("task_dir reruns with its Data: no second Task Setup"))
		must.NoError(t, h.kill(tr2))
	})
}

// TestRestoreFailedRecoveryForgetsHandle: a failed recovery clears the
// persisted handle at once, so that a second crash before the task runs
// again does not let the next restore re-attach to the run that ended
// with Failed Restoring Task (STATE-4; found by
// STATE-4/ended-run-not-recovered, seed 1345397026418578471).
func TestRestoreFailedRecoveryForgetsHandle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.start()
		h.crash(tr, &faults{recover: func(*drivers.TaskHandle) error { return errors.New("gone") }})
		ls, _, err := h.db.GetTaskRunnerState(testAllocID, testTask)
		must.NoError(t, err)
		must.NotNil(t, ls.TaskHandle)

		h.restored() // fails to recover; never run
		ls, _, err = h.db.GetTaskRunnerState(testAllocID, testTask)
		must.NoError(t, err)
		must.Nil(t, ls.TaskHandle, must.Sprint("the unrecovered handle is not left persisted"))
	})
}

// TestRestoreDead: restored dead with RunComplete runs only the stop
// hooks; dead without it waits for a kill (STATE-4).
func TestRestoreDead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeBatch, nil, newTask(map[string]any{"run_for": "1s"}))
		tr := h.start()
		h.advance(time.Second)
		must.Eq(t, structs.TaskStateDead, tr.TaskState().State)
		h.crash(tr, &faults{})

		// Dead without RunComplete: waits for a kill.
		tr2 := h.restored()
		tr2.Start()
		synctest.Wait()
		select {
		case <-tr2.WaitCh():
			t.Fatal("a restored dead task without RunComplete must wait")
		default:
		}
		must.NoError(t, tr2.Kill(t.Context(), nil))
		ls, _ := h.persisted()
		must.True(t, ls.RunComplete)

		// Dead with RunComplete: Run returns at once, the driver untouched.
		n := len(h.ops())
		tr3 := h.restored()
		tr3.Start()
		<-tr3.WaitCh()
		must.Eq(t, n, len(h.ops()))
		must.Eq(t, types(tr.TaskState()), types(tr3.TaskState()))
	})
}

// TestRestorePausedLiveTask: PAUSE-10: a recovered live task whose window
// ended while the client was down is pause-stopped.
func TestRestorePausedLiveTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 8 * * * *", "0 9")
		tr := h.start()
		must.Eq(t, structs.TaskStateRunning, tr.TaskState().State)
		h.crash(tr, &faults{})
		h.advanceTo(at(10, 0))

		tr2 := h.restored()
		must.Eq(t, structs.TaskScheduleStateSchedulePause, tr2.GetPauseState())
		tr2.Start()
		synctest.Wait()
		ts := tr2.TaskState()
		must.Eq(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted, structs.TaskPausing,
			structs.TaskTerminated, structs.TaskRestarting}, types(ts))
		must.Eq(t, structs.TaskStatePending, ts.State)
		must.False(t, ts.Failed)
		h.advanceTo(at(8, 0).Add(24 * time.Hour))
		must.Eq(t, []string{structs.TaskRunning, structs.TaskStarted}, tail(tr2.TaskState(), 2))
		must.NoError(t, h.kill(tr2))
	})
}

// TestRestoreOverride: PAUSE-10: a restored override is kept and seeds the
// effective state: no second Pausing.
func TestRestoreOverride(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 8 * * * *", "0 17")
		tr := h.start()
		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForcePause))
		synctest.Wait()
		h.crash(tr, &faults{})
		tr2 := h.restored()
		tr2.Start()
		synctest.Wait()
		ts := tr2.TaskState()
		must.Eq(t, structs.TaskScheduleStateForcePause, tr2.GetPauseState())
		must.Eq(t, []string{structs.TaskPausing, structs.TaskTerminated, structs.TaskRestarting}, tail(ts, 3))
		must.Eq(t, structs.TaskStatePending, ts.State)
		must.NoError(t, h.kill(tr2))
	})
}

// TestRestoreReadError: a failed state read is Restore's error.
func TestRestoreReadError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		must.NoError(t, h.db.PutRaw(testAllocID, testTask, state.KeyTaskState, []byte("{not json")))
		tr := h.newTR()
		err := tr.Restore()
		must.ErrorIs(t, err, state.ErrCorrupt)
		must.StrHasPrefix(t, `failed to read the state of task "web": `, err.Error())
	})
}

// TestPersistFailures: STATE-2: a failed local_state write after a hook
// changed fails prestart unrecoverably; failed task_state writes are
// logged while memory advances.
func TestPersistFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		h.setDBFault(func(w state.Write) error {
			if w.Key == state.KeyLocalState {
				return errors.New("disk full")
			}
			return nil
		})
		tr := h.start()
		ts := tr.TaskState()
		must.Eq(t, []string{structs.TaskReceived, structs.TaskNotRestarting}, types(ts))
		must.Eq(t, "Error was unrecoverable", ts.Events[1].RestartReason)
		must.True(t, ts.Failed)
		must.NoError(t, h.kill(tr))

		h2 := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		h2.setDBFault(func(w state.Write) error {
			if w.Key == state.KeyTaskState {
				return errors.New("disk full")
			}
			return nil
		})
		tr2 := h2.start()
		must.Eq(t, structs.TaskStateRunning, tr2.TaskState().State)
		_, pts := h2.persisted()
		must.Nil(t, pts)
		must.NoError(t, h2.kill(tr2))
	})
}

// TestRestoreEvaluationError: PAUSE-9 at restore for a recovered live
// task: stopped, then Terminated, Task hook failed, Not Restarting.
func TestRestoreEvaluationError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 8 * * * *", "0 17")
		tr := h.start()
		h.crash(tr, &faults{})
		h.alloc = h.alloc.Copy()
		h.alloc.LookupTaskGroup().Tasks[0].Schedule.Cron.Timezone = "Mars/Olympus"
		tr2 := h.restored()
		tr2.Start()
		synctest.Wait()
		ts := tr2.TaskState()
		must.Eq(t, []string{structs.TaskStarted, structs.TaskTerminated, structs.TaskHookFailed,
			structs.TaskNotRestarting}, tail(ts, 4))
		must.True(t, ts.Failed)
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.NoError(t, h.kill(tr2))
	})
}
