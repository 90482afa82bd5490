package taskrunner

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestKillRunning: the kill path of AR-6: the caller's Killing, StopTask
// with the kill signal and the capped kill timeout, Terminated, Killed;
// dead, not failed; Run returns and RunComplete is persisted.
func TestKillRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := newTask(map[string]any{"kill_after": "3s"})
		tk.KillTimeout = time.Minute
		tk.KillSignal = "SIGTERM"
		h := newHarness(t, structs.JobTypeService, nil, tk)
		h.client.MaxKillTimeout = 10 * time.Second
		tr := h.start()
		h.advance(time.Minute)

		must.NoError(t, h.kill(tr))
		ts := tr.TaskState()
		must.Eq(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted,
			structs.TaskKilling, structs.TaskTerminated, structs.TaskKilled}, types(ts))
		must.Eq(t, "Sent interrupt. Waiting 10s before force killing", ts.Events[3].DisplayMessage)
		must.Eq(t, "Exit Code: 0, Signal: 15", ts.Events[4].DisplayMessage)
		must.Eq(t, "Task successfully killed", ts.Events[5].DisplayMessage)
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.False(t, ts.Failed)
		must.SliceContains(t, h.ops(), "StopTask signal=SIGTERM timeout=10s")
		ls, _ := h.persisted()
		must.True(t, ls.RunComplete)
		must.Nil(t, ls.TaskHandle)
	})
}

// TestKillRetriesWithBackoff: a failing StopTask is retried 5 times
// after min(4^i × 5s, 2m); the kill error reaches Killed and Kill.
func TestKillRetriesWithBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		var calls []time.Duration
		h.newDriver(&faults{stop: func(string) mock.StopFault {
			calls = append(calls, h.clk.Now().Sub(t0))
			return mock.StopFault{Err: errors.New("plugin gone")}
		}})
		tr := h.start()
		err := h.kill(tr)
		must.ErrorContains(t, err, "plugin gone")
		must.Eq(t, []time.Duration{0, 5 * time.Second, 25 * time.Second, 105 * time.Second, 225 * time.Second}, calls)
		ts := tr.TaskState()
		killed := ts.Events[len(ts.Events)-1]
		must.Eq(t, structs.TaskKilled, killed.Type)
		must.StrContains(t, killed.KillError, "plugin gone")
		must.Eq(t, structs.TaskStateDead, ts.State)
		// The task never stopped: end it so the bubble drains.
		must.NoError(t, h.driver.DestroyTask(tr.driverID, true))
	})
}

// TestKillBeforeStart: a kill while waiting for the start condition ends
// the task dead with the caller's event only; no hook runs.
func TestKillBeforeStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		h.startCh = make(chan struct{})
		tr := h.start()
		must.NoError(t, h.kill(tr))
		must.Eq(t, []string{structs.TaskReceived, structs.TaskKilling}, types(tr.TaskState()))
		must.Eq(t, structs.TaskStateDead, tr.TaskState().State)
		must.Nil(t, h.metrics())
	})
}

// TestKillRightAfterStart: Start makes the runner count as running at
// once, so a Kill or Shutdown right after it, before the launched
// goroutine ran a line, waits for the run to end as after the loop began, and
// never returns early with the task runner still to run (DET-4: the alloc
// runner's kill phases must not depend on how far a just-launched
// goroutine got; fixtures/seeds/leader_kill_races_task_launch).
func TestKillRightAfterStart(t *testing.T) {
	for _, stop := range []string{"kill", "shutdown"} {
		t.Run(stop, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
				h.startCh = make(chan struct{}) // waits for its start condition
				tr := h.newTR()
				tr.Start()
				if stop == "kill" {
					must.NoError(t, tr.Kill(t.Context(), nil))
				} else {
					tr.Shutdown()
				}
				select {
				case <-tr.WaitCh():
				default:
					t.Fatalf("%s returned before the started run ended", stop)
				}
				tr.Start() // once only: returns at once
			})
		})
	}
}

// TestKillInRestartDelay: a kill during the restart delay ends the task
// at once, with no Terminated or Killed.
func TestKillInRestartDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1s", "exit_code": 3}))
		tr := h.start()
		h.advance(time.Second)
		must.Eq(t, structs.TaskStatePending, tr.TaskState().State)
		must.NoError(t, tr.Kill(t.Context(), structs.NewTaskEvent(structs.TaskKilling, h.clk.Now())))
		ts := tr.TaskState()
		must.Eq(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted, structs.TaskTerminated,
			structs.TaskRestarting, structs.TaskKilling}, types(ts))
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.False(t, ts.Failed)
	})
}

// TestKillBeforeRun: Kill before Run returns at once; Run then ends the
// task without starting it.
func TestKillBeforeRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.newTR()
		must.NoError(t, tr.Kill(t.Context(), nil))
		tr.Start()
		<-tr.WaitCh()
		must.Eq(t, structs.TaskStateDead, tr.TaskState().State)
		must.Eq(t, []string{structs.TaskReceived}, types(tr.TaskState()))
	})
}

// TestMarkFailedKill: AR-4's prerun failure: Setup Failure with the given
// DisplayMessage and kill_reason, dead and failed; Run ends at once.
func TestMarkFailedKill(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.newTR()
		tr.MarkFailedKill("failed to setup alloc: pre-run hook \"csi_hook\" failed: boom")
		tr.Start()
		<-tr.WaitCh()
		ts := tr.TaskState()
		ev := ts.Events[len(ts.Events)-1]
		must.Eq(t, structs.TaskSetupFailure, ev.Type)
		must.Eq(t, "failed to setup alloc: pre-run hook \"csi_hook\" failed: boom", ev.DisplayMessage)
		must.Eq(t, structs.TaskRestoreFailed, ev.Details["kill_reason"])
		must.True(t, ev.FailsTask)
		must.True(t, ts.Failed)
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.SliceEmpty(t, h.ops(), must.Sprint("the driver is never called"))
		ls, _ := h.persisted()
		must.True(t, ls.RunComplete)
	})
}

// TestShutdownLeavesTaskRunning: Shutdown returns after Run and leaves
// the driver task and its persisted handle in place.
func TestShutdownLeavesTaskRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.start()
		tr.Shutdown()
		<-tr.WaitCh()
		must.Eq(t, structs.TaskStateRunning, tr.TaskState().State)
		ls, _ := h.persisted()
		must.NotNil(t, ls.TaskHandle)
		must.False(t, ls.RunComplete)
		must.NoError(t, h.driver.DestroyTask(tr.driverID, true))
	})
}

// TestShutdownBeforeRun: Shutdown without Run returns at once and a later
// Run returns at once too.
func TestShutdownBeforeRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.newTR()
		tr.Shutdown()
		tr.Start()
		<-tr.WaitCh()
		must.SliceEmpty(t, h.ops())
	})
}

// TestStopRetryEndsWithItsRun: a stop's retries are for the run it
// stops. A restart whose StopTask keeps failing, on a task that exits on
// its own meanwhile and runs again, retries no more: the next run has the
// same driver task ID, and a retry would stop it (found by
// AR-1/restart-call-result seed 4966600378568966029: the fourth attempt
// stopped the new run, counted as a policy restart).
func TestStopRetryEndsWithItsRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, policy(3, time.Hour, time.Second, "delay"),
			newTask(map[string]any{"run_for": "10s"}))
		var stops []time.Duration
		failing := true
		h.newDriver(&faults{stop: func(string) mock.StopFault {
			if !failing {
				return mock.StopFault{}
			}
			stops = append(stops, h.clk.Now().Sub(t0))
			return mock.StopFault{Err: errors.New("plugin gone")}
		}})
		tr := h.start()
		h.advance(2 * time.Second)
		errCh := make(chan error, 1)
		go func() {
			errCh <- tr.Restart(context.Background(), structs.NewTaskEvent(structs.TaskRestartSignal, h.clk.Now()), false)
		}()
		for range 40 { // past every retry the stop would make (5 s, 20 s, 80 s, 120 s)
			h.advance(5 * time.Second)
		}
		must.NoError(t, <-errCh) // the run ended: what the stop was for
		must.Eq(t, []time.Duration{2 * time.Second, 7 * time.Second}, stops)
		failing = false // let the kill through so the bubble drains
		must.NoError(t, h.kill(tr))
	})
}

// TestShutdownWaitsForPauseStop: Shutdown returns only once a pause
// stop's StopTask in flight returned (found by DET-3/concurrent-use: the
// pause stop's goroutine outlived Client.Shutdown, still in the driver's
// StopTask, a goroutine of the runner left after the client shut down).
func TestShutdownWaitsForPauseStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := newTask(map[string]any{"kill_after": "2s"})
		tk.Schedule = scheduled("0 8 * * * *", "0 17")
		h := newHarness(t, structs.JobTypeService, policy(0, time.Hour, time.Second, "fail"), tk)
		tr := h.start()
		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForcePause))
		synctest.Wait() // the pause stop's StopTask waits for the exit, 2 s away
		done := make(chan struct{})
		go func() {
			defer close(done)
			tr.Shutdown()
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("Shutdown returned while the pause stop's StopTask was in flight")
		default:
		}
		h.advance(2 * time.Second)
		<-done
		must.NoError(t, h.driver.DestroyTask(tr.driverID, true))
	})
}

// TestKillBetweenGateAndStart: a kill that lands after the start gate let
// a fresh run through and before StartTask leaves no run behind: the task
// dies killed and the driver is never called (found by
// DET-3/concurrent-use under -race: the never-started run stayed the live
// one, and killLeftover waited on it through a nil driver, a panic).
func TestKillBetweenGateAndStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, policy(0, time.Hour, time.Second, "fail"), newTask(map[string]any{"run_for": "1h"}))
		tr := h.newTR()
		tr.gatePassed = tr.markKilled // Kill's first step, in that instant
		tr.Start()
		synctest.Wait()
		must.NoError(t, h.kill(tr))
		must.Eq(t, structs.TaskStateDead, tr.TaskState().State)
		must.Nil(t, tr.liveRun())
		for _, op := range h.ops() {
			must.False(t, strings.HasPrefix(op, "StartTask"), must.Sprintf("driver call %q after a kill before the start", op))
		}
	})
}
