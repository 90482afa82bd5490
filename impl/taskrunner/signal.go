package taskrunner

import (
	"context"
	"errors"

	"github.com/allocsim/allocsim/model/structs"
)

// ErrTaskNotRunning is PAUSE-11's `Task not running`: Signal and Restart
// of a task with no live driver handle.
var ErrTaskNotRunning = errors.New("Task not running")

// startedRun is the live run whose driver task has started, or nil.
func (tr *TaskRunner) startedRun() *driverRun {
	if run := tr.liveRun(); run != nil && run.startedHandle() {
		return run
	}
	return nil
}

// Signal appends ev (`Signaling`; nil builds one with Details signal=<sig>
// and the generic DisplayMessage) and delivers sig; ErrTaskNotRunning when
// there is no live handle (PAUSE-11). What follows is the normal exit path.
func (tr *TaskRunner) Signal(ev *structs.TaskEvent, sig string) error {
	run := tr.startedRun()
	if run == nil {
		return ErrTaskNotRunning
	}
	if ev == nil {
		ev = tr.newEvent(structs.TaskSignaling).SetSignalText(sig)
	}
	tr.AppendEvent(ev)
	return run.driver.SignalTask(run.taskID, sig)
}

// Restart restarts the task without using a restart attempt (`Restart
// Signaled`, AR-1, AR-7 (2)). A running task: ev is appended, the prekill
// hooks run and the task is stopped; the loop restarts it with delay 0.
// failure=true leaves that exit to the restart policy instead, as a
// failure. A dead task waiting for an alloc restart (AR-6) appends ev and
// runs again from its prestart hooks. Otherwise ErrTaskNotRunning.
func (tr *TaskRunner) Restart(_ context.Context, ev *structs.TaskEvent, failure bool) error {
	tr.mu.Lock()
	dead := tr.deadWaiting
	tr.mu.Unlock()
	if dead {
		if ev != nil {
			tr.AppendEvent(ev)
		}
		select {
		case tr.restartCh <- struct{}{}:
		default:
		}
		return nil
	}
	run := tr.startedRun()
	if run == nil {
		return ErrTaskNotRunning
	}
	if ev != nil {
		tr.AppendEvent(ev)
	}
	if !failure {
		tr.mu.Lock()
		tr.tracker.SetRestartTriggered()
		tr.mu.Unlock()
	}
	tr.preKill()
	return tr.stopRun(run)
}

// SetPauseState is PAUSE-2 for this task: stored before it returns (an
// immediate GetPauseState sees it); the stop or start follows
// asynchronously. An unscheduled task: `task "<name>" has no schedule`.
func (tr *TaskRunner) SetPauseState(s structs.TaskScheduleState) error {
	return tr.gate.set(s)
}

// GetPauseState is PAUSE-2's stored state ("" for an unscheduled task).
func (tr *TaskRunner) GetPauseState() structs.TaskScheduleState { return tr.gate.get() }

// requestPauseStop stops run as a pause stop (PAUSE-5) in its own
// goroutine; before Start it is deferred to the loop's start.
func (tr *TaskRunner) requestPauseStop(run *driverRun) {
	tr.mu.Lock()
	if !tr.runStarted {
		tr.pendingPauseStops = append(tr.pendingPauseStops, run)
		tr.mu.Unlock()
		return
	}
	tr.mu.Unlock()
	tr.startPauseStop(run)
}

func (tr *TaskRunner) startPauseStop(run *driverRun) {
	tr.bg.Add(1)
	go func() {
		defer tr.bg.Done()
		tr.pauseStop(run)
	}()
}

// pauseStop is PAUSE-5's stop: once the run's task has started, prekill
// hooks, then the kill signal and the capped kill timeout; no `Killing`.
// The exit reaches the run loop as usual.
func (tr *TaskRunner) pauseStop(run *driverRun) {
	select {
	case <-run.started:
	case <-tr.shutdownCtx.Done():
	}
	if tr.shutdownCtx.Err() != nil || run.handle == nil || tr.liveRun() != run {
		return // shut down, never started, or already exited
	}
	tr.AppendEvent(tr.cfg.Policies.PauseStopEvent(tr.Task(), tr.cfg.ClientConfig.MaxKillTimeout, tr.clock.Now())) // none (PAUSE-5)
	tr.preKill()
	if err := tr.stopRun(run); err != nil {
		tr.logger.Error("failed to stop task for pause", "error", err)
	}
}
