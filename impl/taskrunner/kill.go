package taskrunner

import (
	"context"
	"errors"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// Kill kills the task with ev (the caller's `Killing`, appended first) and
// waits until the loop has returned or ctx ends (AR-6 kill path, PAUSE-8). A
// live task is stopped by the run loop (prekill hooks, kill signal, capped
// kill timeout, retries) and gets `Terminated` and `Killed`; a task in the
// gate, a restart delay or not yet started just ends dead. It returns the
// kill error, if the driver could not stop the task. Before Start it
// only marks the task killed: the loop then ends it at once.
func (tr *TaskRunner) Kill(ctx context.Context, ev *structs.TaskEvent) error {
	if ev != nil {
		tr.AppendEvent(ev)
	}
	tr.markKilled()
	tr.mu.Lock()
	started := tr.runStarted
	tr.mu.Unlock()
	if !started {
		return nil
	}
	select {
	case <-tr.waitCh:
	case <-ctx.Done():
		return ctx.Err()
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.killErr
}

// markKilled tells the restart tracker (AR-7 (1)) and cancels the kill
// and hook contexts.
func (tr *TaskRunner) markKilled() {
	tr.mu.Lock()
	tr.tracker.SetKilled()
	tr.mu.Unlock()
	tr.killCancel()
	tr.hookCancel()
}

// MarkFailedKill marks the task dead and failed with a `Setup Failure`
// event when the alloc fails before it could start (AR-4): reason is the
// event's DisplayMessage as given (the alloc runner's `failed to setup
// alloc: <error>`), its kill_reason `Failed Restoring Task`. The task is
// then killed: the loop ends it at once.
func (tr *TaskRunner) MarkFailedKill(reason string) {
	ev := tr.newEvent(structs.TaskSetupFailure).
		SetKillReason(structs.TaskRestoreFailed).
		SetDisplayMessage(reason).
		SetFailsTask()
	tr.updateState(structs.TaskStateDead, ev)
	tr.markKilled()
}

// killRun is the kill path for a live run (AR-6): prekill hooks, the
// tracker marked killed, then the driver stop unless the exit is already
// known (res, got). It returns the exit, whether a shutdown interrupted
// it, and the kill error.
func (tr *TaskRunner) killRun(run *driverRun, res *drivers.ExitResult, got bool) (*drivers.ExitResult, bool, error) {
	tr.preKill()
	tr.mu.Lock()
	tr.tracker.SetKilled()
	tr.mu.Unlock()
	if got {
		return res, false, nil
	}
	select {
	case r, ok := <-run.resultCh:
		return orWaitEnded(r, ok), false, nil
	default:
	}
	if err := tr.stopRun(run); err != nil {
		tr.logger.Error("failed to kill task", "error", err)
		return nil, tr.shutdownCtx.Err() != nil, err
	}
	select {
	case r, ok := <-run.resultCh:
		return orWaitEnded(r, ok), false, nil
	case <-tr.shutdownCtx.Done():
		return nil, true, nil
	}
}

// errWaitEnded is the exit error of a wait that ended without a result
// (the driver forgot the task).
var errWaitEnded = errors.New("driver wait ended without an exit result")

func orWaitEnded(r *drivers.ExitResult, ok bool) *drivers.ExitResult {
	if !ok || r == nil {
		return &drivers.ExitResult{Err: errWaitEnded}
	}
	return r
}

// killLeftover kills a run still live when the loop ended (a recovered
// handle killed before its first pass, AR-6). False on shutdown.
func (tr *TaskRunner) killLeftover() bool {
	run := tr.liveRun()
	if run == nil {
		return true
	}
	if run.resultCh == nil {
		tr.watch(run)
	}
	res, shutdown, killErr := tr.killRun(run, nil, false)
	if shutdown {
		return false
	}
	tr.endRun(run, res, nil)
	tr.setKillErr(killErr)
	tr.AppendEvent(tr.newEvent(structs.TaskKilled).SetKillError(killErr))
	return true
}
