package taskrunner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestSignal: PAUSE-11: Signaling (Details signal, generic display), then
// the normal exit path; no live handle is `Task not running`.
func TestSignal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.start()
		must.NoError(t, tr.Signal(nil, "SIGHUP"))
		synctest.Wait()
		ts := tr.TaskState()
		sig := lastEvent(t, ts, structs.TaskSignaling)
		must.Eq(t, "SIGHUP", sig.Details["signal"])
		must.Eq(t, structs.DisplaySignalingGeneric, sig.DisplayMessage)
		must.Eq(t, []string{structs.TaskSignaling, structs.TaskTerminated, structs.TaskRestarting}, tail(ts, 3))
		must.Eq(t, "Exit Code: 0, Signal: 1", ts.Events[len(ts.Events)-2].DisplayMessage)
		must.Eq(t, "Restart within policy", ts.Events[len(ts.Events)-1].RestartReason)

		// In the restart delay there is no live handle.
		err := tr.Signal(nil, "SIGHUP")
		must.ErrorIs(t, err, ErrTaskNotRunning)
		must.EqError(t, err, "Task not running")
		must.ErrorIs(t, tr.Restart(t.Context(), nil, false), ErrTaskNotRunning)
		must.NoError(t, h.kill(tr))
		must.ErrorIs(t, tr.Signal(nil, "SIGHUP"), ErrTaskNotRunning)
	})
}

// TestSignalPausedTask: a task paused in the gate is not running.
func TestSignalPausedTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 9 * * * *", "0 17")
		tr := h.start()
		must.EqError(t, tr.Signal(nil, "SIGHUP"), "Task not running")
		must.NoError(t, h.kill(tr))
	})
}

// TestRestart: Restart Signaled restarts at once without an attempt
// (AR-1, AR-7 (2)): the policy allows none, yet the task runs again.
func TestRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, policy(0, time.Hour, time.Second, "fail"), newTask(nil))
		tr := h.start()
		ev := structs.NewTaskEvent(structs.TaskRestartSignal, h.clk.Now()).SetRestartReason("operator")
		must.NoError(t, tr.Restart(t.Context(), ev, false))
		synctest.Wait()
		ts := tr.TaskState()
		must.Eq(t, []string{structs.TaskRestartSignal, structs.TaskTerminated, structs.TaskRestarting,
			structs.TaskStarted}, tail(ts, 4))
		must.Eq(t, "Task restarting in 0s", ts.Events[len(ts.Events)-2].DisplayMessage)
		must.Eq(t, structs.TaskStateRunning, ts.State)
		must.False(t, ts.Failed)

		// failure=true leaves it to the policy: no attempts, so it fails.
		must.NoError(t, tr.Restart(t.Context(), nil, true))
		synctest.Wait()
		ts = tr.TaskState()
		must.Eq(t, structs.TaskNotRestarting, ts.Events[len(ts.Events)-1].Type)
		must.True(t, ts.Failed)
		must.NoError(t, h.kill(tr))
	})
}

// TestRestartDeadTask: an alloc restart revives a dead task waiting for
// it (AR-6).
func TestRestartDeadTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeBatch, nil, newTask(map[string]any{"run_for": "1s"}))
		tr := h.start()
		h.advance(time.Second)
		must.Eq(t, structs.TaskStateDead, tr.TaskState().State)
		ev := structs.NewTaskEvent(structs.TaskRestartSignal, h.clk.Now())
		must.NoError(t, tr.Restart(t.Context(), ev, false))
		synctest.Wait()
		ts := tr.TaskState()
		must.Eq(t, []string{structs.TaskTerminated, structs.TaskRestartSignal, structs.TaskStarted}, tail(ts, 3))
		must.Eq(t, structs.TaskStateRunning, ts.State)
		// Running again: an ordinary restart.
		must.NoError(t, tr.Restart(t.Context(), nil, false))
		synctest.Wait()
		must.Eq(t, []string{structs.TaskTerminated, structs.TaskRestarting, structs.TaskStarted}, tail(tr.TaskState(), 3))
		must.NoError(t, h.kill(tr))
	})
}
