package taskrunner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// driverRun is one driver task of the runner, from the open gate (or a
// recovery) until its exit is seen. It is "live" for the pause machine
// for all that time, so a pause during a blocking StartTask stops the
// task as soon as it has started.
type driverRun struct {
	// started is closed once StartTask returned; driver, taskID and handle
	// are written before and read after it.
	started chan struct{}
	driver  drivers.Driver
	taskID  string
	// handle is nil when the start failed.
	handle    *drivers.TaskHandle
	recovered bool
	// resultCh receives the exit (WaitTask); waitCancel releases the wait.
	resultCh   <-chan *drivers.ExitResult
	waitCancel context.CancelFunc
}

func newDriverRun(taskID string) *driverRun {
	return &driverRun{started: make(chan struct{}), taskID: taskID}
}

// recoveredRun is the run of a handle RecoverTask re-attached (STATE-4).
func recoveredRun(d drivers.Driver, h *drivers.TaskHandle) *driverRun {
	r := &driverRun{started: make(chan struct{}), driver: d, taskID: h.TaskID, handle: h, recovered: true}
	close(r.started)
	return r
}

// startedHandle reports whether the run's driver task has started.
func (r *driverRun) startedHandle() bool {
	select {
	case <-r.started:
		return r.handle != nil
	default:
		return false
	}
}

// liveRun is the live driver run, nil if none.
func (tr *TaskRunner) liveRun() *driverRun {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.run
}

// setRun registers the live run (nil: none).
func (tr *TaskRunner) setRun(r *driverRun) {
	tr.mu.Lock()
	tr.run = r
	tr.mu.Unlock()
}

func (tr *TaskRunner) now() time.Time { return tr.clock.Now() }

func (tr *TaskRunner) afterFunc(d time.Duration, f func()) *clock.Timer {
	return tr.clock.AfterFunc(d, f)
}

// startDriver starts the run's task (AR-6): on success the handle is
// persisted (STATE-2) and the task is running with `Started`. A failed
// start appends `Driver Failure` and returns the start error.
func (tr *TaskRunner) startDriver(run *driverRun, env map[string]string) error {
	err := tr.startTask(run, env)
	close(run.started)
	if err != nil {
		tr.AppendEvent(tr.newEvent(structs.TaskDriverFailure).SetDriverError(err))
		return err
	}
	handle := run.handle.Copy()
	tr.editLocalState(func(ls *interfaces.LocalState) { ls.TaskHandle = handle })
	tr.persistLocalStateLogged("driver start")
	tr.updateState(structs.TaskStateRunning, tr.newEvent(structs.TaskStarted))
	return nil
}

func (tr *TaskRunner) startTask(run *driverRun, env map[string]string) error {
	task := tr.Task()
	d, err := tr.cfg.DriverManager.Dispense(task.Driver)
	if err != nil {
		return err
	}
	run.driver = d
	h, err := d.StartTask(tr.taskConfig(task, env))
	if err != nil {
		return err
	}
	run.handle = h
	return nil
}

// taskConfig is what the driver is given.
func (tr *TaskRunner) taskConfig(task *structs.Task, env map[string]string) *drivers.TaskConfig {
	alloc := tr.Alloc()
	jobName := alloc.JobID
	if alloc.Job != nil && alloc.Job.Name != "" {
		jobName = alloc.Job.Name
	}
	// NOMAD_META_<key> of the job's meta (model/structs.MetaEnv), under
	// what the hooks set.
	if meta := structs.MetaEnv(alloc.Job.GetMeta()); meta != nil {
		maps.Copy(meta, env)
		env = meta
	}
	return &drivers.TaskConfig{
		ID:            tr.driverID,
		AllocID:       tr.allocID,
		Name:          task.Name,
		Namespace:     alloc.Namespace,
		JobName:       jobName,
		TaskGroupName: alloc.TaskGroup,
		Driver:        task.Driver,
		Config:        task.Config,
		Env:           env,
		TaskDir:       tr.taskDir.Dir,
	}
}

// watch starts waiting for the run's exit; a wait error becomes the exit
// result's error.
func (tr *TaskRunner) watch(run *driverRun) {
	ctx, cancel := context.WithCancel(tr.shutdownCtx)
	run.waitCancel = cancel
	ch, err := run.driver.WaitTask(ctx, run.taskID)
	if err != nil {
		res := make(chan *drivers.ExitResult, 1)
		res <- &drivers.ExitResult{Err: err}
		close(res)
		ch = res
	}
	run.resultCh = ch
}

// waitExit waits for the run's exit, a kill or a shutdown (AR-6). A kill
// takes the kill path (killRun) even if the exit is there too, so the
// outcome does not depend on select's choice.
func (tr *TaskRunner) waitExit(run *driverRun) (res *drivers.ExitResult, killed, shutdown bool, killErr error) {
	var got bool
	select {
	case r, ok := <-run.resultCh:
		res, got = r, true
		if !ok {
			res = &drivers.ExitResult{Err: errWaitEnded}
		}
	case <-tr.killCtx.Done():
	case <-tr.shutdownCtx.Done():
	}
	switch {
	case tr.shutdownCtx.Err() != nil:
		return nil, false, true, nil
	case tr.killCtx.Err() != nil:
		res, shutdown, killErr = tr.killRun(run, res, got)
		return res, true, shutdown, killErr
	}
	return res, false, false, nil
}

// stopRun stops the run's task with the task's kill signal and capped
// kill timeout (DATA-4), retrying with backoff (AR-6: status.KillAttempts
// attempts, status.KillRetryDelay after each failure). It returns once
// the task has exited, or the last error.
func (tr *TaskRunner) stopRun(run *driverRun) error {
	task := tr.Task()
	timeout := task.EffectiveKillTimeout(tr.cfg.ClientConfig.MaxKillTimeout)
	signal := task.EffectiveKillSignal()
	var err error
	for i := range status.KillAttempts {
		if i > 0 && tr.liveRun() != run {
			// The run ended between two attempts: what the stop was for.
			// Every run of the task has the same driver task ID, so a
			// retry would stop the next one.
			return nil
		}
		err = run.driver.StopTask(run.taskID, timeout, signal)
		if err == nil || errors.Is(err, drivers.ErrTaskNotFound) {
			return nil
		}
		tr.logger.Warn("failed to stop task", "attempt", i+1, "error", err)
		if i == status.KillAttempts-1 || !tr.sleep(status.KillRetryDelay(i), tr.shutdownCtx) {
			break
		}
	}
	return fmt.Errorf("failed to stop task %q: %w", tr.taskName, err)
}

// sleep waits d on the clock; false if ctx ended first. A non-positive d
// returns at once: no timer is armed for it.
func (tr *TaskRunner) sleep(d time.Duration, ctx context.Context) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	fired := make(chan struct{})
	t := tr.clock.AfterFunc(d, func() { close(fired) })
	defer t.Stop()
	select {
	case <-fired:
		return true
	case <-ctx.Done():
		return false
	}
}

// endRun records the run's exit: the pause machine learns of it, the run
// is dropped, the driver forgets the task, the persisted handle is cleared
// (so a restore never re-attaches to an exited task), `Terminated` is
// appended for a real exit and the restart tracker gets its inputs.
func (tr *TaskRunner) endRun(run *driverRun, res *drivers.ExitResult, startErr error) {
	pauseInduced, held, failure := tr.gate.exited(func() { tr.setRun(nil) })
	if run.waitCancel != nil {
		run.waitCancel()
	}
	if run.handle != nil {
		if err := run.driver.DestroyTask(run.taskID, false); err != nil && !errors.Is(err, drivers.ErrTaskNotFound) {
			tr.logger.Warn("failed to destroy driver task", "error", err)
		}
		tr.editLocalState(func(ls *interfaces.LocalState) { ls.TaskHandle = nil })
		tr.persistLocalStateLogged("exit")
	}
	if res != nil {
		tr.AppendEvent(tr.newEvent(structs.TaskTerminated).
			SetExitCode(res.ExitCode).SetSignal(res.Signal).
			SetOOMKilled(res.OOMKilled).SetExitMessage(res.Err))
	}
	if len(held) > 0 {
		tr.changeState(func(ts *structs.TaskState) {
			for _, ev := range taskEvents(held, tr.clock.Now()) {
				tr.cfg.Policies.AppendEvent(ts, ev)
			}
		})
		tr.notify()
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if res != nil {
		tr.tracker.SetExitResult(exitResult(res))
	}
	if startErr != nil {
		tr.tracker.SetStartError(startErr, drivers.IsRecoverable(startErr))
	}
	if pauseInduced {
		tr.tracker.SetPauseInduced()
	}
	if failure != nil {
		tr.tracker.SetStartError(failure, false)
	}
}

// abandon drops a fresh run that will never start: a kill or a shutdown
// came after the start gate (which may have registered it as the live
// run) and before StartTask. Left registered, it would pass for a live
// run with no driver task: the next pass or killLeftover would wait on
// it through a nil driver (found by DET-3/concurrent-use under -race, a
// kill landing in that instant from another goroutine). Its started
// channel is closed, handle nil, for whoever waits to stop it
// (pauseStop: never started).
func (tr *TaskRunner) abandon(fresh *driverRun) {
	tr.mu.Lock()
	if tr.run == fresh {
		tr.run = nil
	}
	tr.mu.Unlock()
	close(fresh.started)
}
