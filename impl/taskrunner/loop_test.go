package taskrunner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/restart"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

// TestHappyPathBatch: AR-6 from Received to a successful exit: the task
// ends dead, not failed, waits for a kill, then persists RunComplete.
func TestHappyPathBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeBatch, nil, newTask(map[string]any{"run_for": "10s"}))
		tr := h.start()

		ts := tr.TaskState()
		must.Eq(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted}, types(ts))
		must.Eq(t, structs.TaskStateRunning, ts.State)
		must.True(t, ts.StartedAt.Equal(t0))
		must.Eq(t, structs.MsgTaskSetupBuildingDir, ts.Events[1].Message)
		must.Eq(t, "Task started by client", ts.Events[2].DisplayMessage)

		h.advance(10 * time.Second)
		ts = tr.TaskState()
		must.Eq(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted, structs.TaskTerminated}, types(ts))
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.False(t, ts.Failed)
		must.True(t, ts.FinishedAt.Equal(t0.Add(10*time.Second)))
		must.Eq(t, "Exit Code: 0", ts.Events[3].DisplayMessage)

		// Dead and waiting for a kill: Run has not returned, RunComplete unset.
		select {
		case <-tr.WaitCh():
			t.Fatal("a dead batch task must wait for a kill or an alloc restart")
		default:
		}
		ls, pts := h.persisted()
		must.False(t, ls.RunComplete)
		must.Nil(t, ls.TaskHandle)
		must.True(t, pts.Equal(tr.TaskState()), must.Sprint("task_state is persisted on every change"))

		must.NoError(t, tr.Kill(t.Context(), nil))
		<-tr.WaitCh()
		ls, _ = h.persisted()
		must.True(t, ls.RunComplete)
		must.True(t, ls.Hooks[telemetry.HookValidate].PrestartDone)
		must.Eq(t, map[string]string{taskDirDataDone: "true"}, ls.Hooks[telemetry.HookTaskDir].Data)
		must.Eq(t, 4, len(tr.TaskState().Events), must.Sprint("a kill of a dead task adds no event"))
		must.Positive(t, h.updates.Load())
	})
}

// TestServiceRestartsOnSuccess: a service task that exits 0 restarts
// within policy (AR-7 restart-on-success).
func TestServiceRestartsOnSuccess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, policy(2, time.Hour, 10*time.Second, "fail"),
			newTask(map[string]any{"run_for": "1s"}))
		tr := h.start()
		h.advance(time.Second)
		ev := lastEvent(t, tr.TaskState(), structs.TaskRestarting)
		must.Eq(t, restart.ReasonWithinPolicy, ev.RestartReason)
		must.Eq(t, structs.TaskStatePending, tr.TaskState().State)
		must.NoError(t, h.kill(tr))
	})
}

// TestRestartPolicyFail: restarts within policy on virtual time, then
// `Not Restarting` with the fail-mode reason: dead and failed (AR-7).
func TestRestartPolicyFail(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, policy(2, 30*time.Minute, 15*time.Second, "fail"),
			newTask(map[string]any{"run_for": "5s", "exit_code": 1}))
		tr := h.start()
		var starts []time.Duration
		for i := range 2 {
			starts = append(starts, h.clk.Now().Sub(t0))
			h.advance(5 * time.Second)
			ev := lastEvent(t, tr.TaskState(), structs.TaskRestarting)
			delay := time.Duration(ev.StartDelay)
			must.Between(t, 15*time.Second, delay, 15*time.Second+15*time.Second/4)
			must.Eq(t, restart.ReasonWithinPolicy, ev.RestartReason)
			must.Eq(t, uint64(i+1), tr.TaskState().Restarts)
			// One nanosecond early the task is still waiting.
			h.advance(delay - time.Nanosecond)
			must.Eq(t, structs.TaskStatePending, tr.TaskState().State)
			h.advance(time.Nanosecond)
			must.Eq(t, structs.TaskStateRunning, tr.TaskState().State)
		}
		must.Eq(t, 2, len(starts))
		h.advance(5 * time.Second)
		ts := tr.TaskState()
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.True(t, ts.Failed)
		ev := ts.Events[len(ts.Events)-1]
		must.Eq(t, structs.TaskNotRestarting, ev.Type)
		must.Eq(t, restart.FailReason(2, 30*time.Minute), ev.RestartReason)
		must.Eq(t, `Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"`, ev.DisplayMessage)
		must.True(t, ev.FailsTask)
		must.NoError(t, h.kill(tr))
	})
}

// TestRestartPolicyDelay: in delay mode, exceeding the attempts waits
// until the interval's end (AR-7 (7)).
func TestRestartPolicyDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, policy(1, time.Minute, 5*time.Second, "delay"),
			newTask(map[string]any{"run_for": "1s", "exit_code": 2}))
		tr := h.start()
		h.advance(time.Second) // first failure: within policy
		ev := lastEvent(t, tr.TaskState(), structs.TaskRestarting)
		must.Eq(t, restart.ReasonWithinPolicy, ev.RestartReason)
		h.advance(time.Duration(ev.StartDelay))
		must.Eq(t, structs.TaskStateRunning, tr.TaskState().State)
		h.advance(time.Second) // second failure: delayed to the interval's end
		ev = lastEvent(t, tr.TaskState(), structs.TaskRestarting)
		must.Eq(t, restart.ReasonDelay, ev.RestartReason)
		must.Eq(t, t0.Add(time.Minute).Sub(h.clk.Now()), time.Duration(ev.StartDelay))
		must.StrHasPrefix(t, restart.ReasonDelay+" - Task restarting in ", ev.DisplayMessage)
		h.advanceTo(t0.Add(time.Minute))
		must.Eq(t, structs.TaskStateRunning, tr.TaskState().State)
		must.False(t, tr.TaskState().Failed)
		must.NoError(t, h.kill(tr))
	})
}

// TestStartFailures: prestart and driver failures (AR-5, AR-6, AR-7 (5)).
func TestStartFailures(t *testing.T) {
	cases := []struct {
		name     string
		task     func() *structs.Task
		want     []string // event types after Received
		message  string   // Message of the failure event
		display  string   // DisplayMessage of the failure event
		failed   bool
		decision string
	}{
		{
			name: "missing csi mount",
			task: func() *structs.Task {
				tk := newTask(nil)
				tk.VolumeMounts = []*structs.VolumeMount{{Volume: "data", Destination: "/data"}}
				return tk
			},
			want:     []string{structs.TaskSetup, structs.TaskHookFailed, structs.TaskRestarting},
			message:  "volumes: No CSI Mount Point found for volume: data",
			display:  "volumes: No CSI Mount Point found for volume: data",
			decision: restart.ReasonWithinPolicy,
		},
		{
			name:     "validation",
			task:     func() *structs.Task { tk := newTask(nil); tk.Driver = ""; return tk },
			want:     []string{structs.TaskHookFailed, structs.TaskRestarting},
			message:  `validate: task "web" has no driver`,
			display:  `validate: task "web" has no driver`,
			decision: restart.ReasonWithinPolicy,
		},
		{
			name: "unrecoverable driver start",
			task: func() *structs.Task {
				return newTask(map[string]any{"start_error": "no such image", "start_error_recoverable": false})
			},
			want:     []string{structs.TaskSetup, structs.TaskDriverFailure, structs.TaskNotRestarting},
			display:  "no such image",
			failed:   true,
			decision: restart.ReasonUnrecoverableError,
		},
		{
			name: "recoverable driver start",
			task: func() *structs.Task {
				return newTask(map[string]any{"start_error": "busy", "start_error_recoverable": true})
			},
			want:     []string{structs.TaskSetup, structs.TaskDriverFailure, structs.TaskRestarting},
			display:  "busy",
			decision: restart.ReasonWithinPolicy,
		},
		{
			name:     "unknown driver",
			task:     func() *structs.Task { tk := newTask(nil); tk.Driver = "docker"; return tk },
			want:     []string{structs.TaskSetup, structs.TaskDriverFailure, structs.TaskNotRestarting},
			display:  `dispense driver "docker": driver not found`,
			failed:   true,
			decision: restart.ReasonUnrecoverableError,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, structs.JobTypeService, nil, tc.task())
				tr := h.start()
				ts := tr.TaskState()
				if diff := cmp.Diff(append([]string{structs.TaskReceived}, tc.want...), types(ts)); diff != "" {
					t.Fatalf("events (-want +got):\n%s", diff)
				}
				fail := ts.Events[len(ts.Events)-2]
				must.Eq(t, tc.message, fail.Message)
				must.Eq(t, tc.display, fail.DisplayMessage)
				must.Eq(t, tc.decision, ts.Events[len(ts.Events)-1].RestartReason)
				must.Eq(t, tc.failed, ts.Failed)
				must.NoError(t, h.kill(tr))
			})
		})
	}
}

// TestMissingMountRecovers: a missing CSI mount fails prestart, never
// crashes; once the alloc's hook resources hold it, the restart starts.
func TestMissingMountRecovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := newTask(nil)
		tk.VolumeMounts = []*structs.VolumeMount{
			{Volume: "data", Destination: "/data"}, {Volume: "cache", Destination: "/cache"},
		}
		h := newHarness(t, structs.JobTypeService, nil, tk)
		tr := h.start()
		ev := lastEvent(t, tr.TaskState(), structs.TaskRestarting)
		h.res.SetCSIMounts(map[string]*interfaces.CSIMountPoint{"data": {Source: "/mnt/data"}})
		h.advance(time.Duration(ev.StartDelay))
		must.Eq(t, structs.TaskStateRunning, tr.TaskState().State)
		must.Eq(t, []string{
			"nomad.client.task_hook.prestart.elapsed hook=task_dir count=2",
			"nomad.client.task_hook.prestart.elapsed hook=validate count=1",
			"nomad.client.task_hook.prestart.elapsed hook=volumes count=2",
			"nomad.client.task_hook.prestart.failed hook=volumes count=1",
			"nomad.client.task_hook.prestart.success hook=task_dir count=2",
			"nomad.client.task_hook.prestart.success hook=validate count=1",
			"nomad.client.task_hook.prestart.success hook=volumes count=1",
		}, h.metrics())
		must.NoError(t, h.kill(tr))
	})
}
