package taskrunner

import (
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/restart"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// Start runs the task loop (AR-6) in a goroutine of its own, which closes
// WaitCh on return; it is called once, and a Start after Shutdown returns
// at once. The runner counts as running from Start's return, not from
// whenever that goroutine gets to it: Kill, Shutdown and a pause stop then
// wait for (or defer to) the run, so that whether a Kill right after the
// launch waits for the task does not depend on how far a just-launched
// goroutine got (DET-4).
func (tr *TaskRunner) Start() {
	if pending, complete, ok := tr.begin(); ok {
		tr.persistAtStart()
		go tr.loop(pending, complete)
	}
}

// persistAtStart writes the task state as it is if nothing wrote or
// loaded it since construction (persistTaskStateOnce): construction
// skips its fresh write when the state DB already holds a task state for
// the task (one a Restore is to load, or one a crashed incarnation left
// behind for an alloc that is now built afresh). It runs on the caller's
// goroutine, before the run's: an alloc runner that kills the task right
// after launching it (a server-terminal alloc) then finds it written,
// instead of racing the run's goroutine for the task_state lock, which
// made the number of task_state writes vary (DET-4, seed
// 108612381296492485).
func (tr *TaskRunner) persistAtStart() {
	if tr.shutdownCtx.Err() == nil {
		tr.persistTaskStateOnce()
	}
}

// begin marks the runner started, once: it reports false if Start was
// called before, else takes the pause stops requested before the
// start and whether the restored task has nothing left to run.
func (tr *TaskRunner) begin() (pending []*driverRun, complete, ok bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.runStarted {
		return nil, false, false
	}
	tr.runStarted = true
	pending, complete = tr.pendingPauseStops, tr.restoredComplete
	tr.pendingPauseStops = nil
	return pending, complete, true
}

// loop is the task loop Start runs, once begin said so.
func (tr *TaskRunner) loop(pending []*driverRun, complete bool) {
	defer close(tr.waitCh)
	if tr.shutdownCtx.Err() != nil {
		return
	}
	for _, r := range pending {
		tr.startPauseStop(r)
	}
	if complete { // restored dead with RunComplete: only the stop hooks (STATE-4)
		tr.gate.finish()
		tr.runStopHooks()
		return
	}

	dead := tr.TaskState().State == structs.TaskStateDead
	if !dead && !tr.waitToStart() {
		return
	}
	for {
		if !dead {
			final, shutdown := tr.runLoop()
			if shutdown {
				return
			}
			if !tr.killLeftover() {
				return
			}
			if final != nil {
				// Stamped as it is appended: killing a leftover run
				// (a recovered handle whose prestart failed) takes time,
				// and an event's time is the instant it is pushed (DET-1).
				final.Time = tr.clock.Now().UnixNano()
			}
			tr.gate.finish() // no pause event after this (PAUSE-2)
			tr.updateState(structs.TaskStateDead, final)
		}
		if tr.IsPoststopTask() || tr.killCtx.Err() != nil {
			break
		}
		revive, shutdown := tr.waitRestartOrKill()
		if shutdown {
			return
		}
		if !revive {
			break
		}
		dead = false
	}
	tr.finishRun()
}

// waitToStart waits for the start condition (AR-9) and, after a failed
// recovery, for the servers (STATE-4). False on shutdown; a kill lets the
// loop see it.
func (tr *TaskRunner) waitToStart() bool {
	select {
	case <-tr.cfg.StartConditionMetCh:
	case <-tr.killCtx.Done():
		return tr.shutdownCtx.Err() == nil
	case <-tr.shutdownCtx.Done():
		return false
	}
	tr.mu.Lock()
	wait := tr.waitOnServers
	tr.mu.Unlock()
	if !wait {
		return tr.shutdownCtx.Err() == nil
	}
	select {
	case <-tr.cfg.ServersContactedCh:
	case <-tr.killCtx.Done():
	case <-tr.shutdownCtx.Done():
	}
	return tr.shutdownCtx.Err() == nil
}

// runLoop runs the task until the restart decision lets it go (AR-6,
// AR-7). It returns the event the task dies with (Not Restarting, or
// nil), or shutdown.
func (tr *TaskRunner) runLoop() (final *structs.TaskEvent, shutdown bool) {
	for {
		if shutdown := tr.attempt(); shutdown {
			return nil, true
		}
		tr.mu.Lock()
		d := tr.cfg.Policies.Restart(tr.tracker, tr.clock.Now(), tr.cfg.Rand.Float64)
		tr.mu.Unlock()
		switch d.State {
		case restart.Killed, restart.Terminated:
			return nil, false
		case restart.NotRestarting:
			return d.Event(tr.clock.Now()), false
		}
		tr.updateState(structs.TaskStatePending, d.Event(tr.clock.Now()))
		if !tr.sleep(d.Delay, tr.hookCtx) {
			if tr.shutdownCtx.Err() != nil {
				return nil, true
			}
		}
	}
}

// attempt is one pass of AR-6 from prestart to the exit; it leaves the
// restart tracker's inputs set for the decision. It returns true on
// shutdown.
func (tr *TaskRunner) attempt() (shutdown bool) {
	switch {
	case tr.shutdownCtx.Err() != nil:
		return true
	case tr.killCtx.Err() != nil:
		return false // the tracker is killed: the decision ends the loop
	}
	// PAUSE-9 outside the gate; a live run's failure is reported with
	// its exit (after Terminated).
	if err := tr.gate.failed(); err != nil && tr.liveRun() == nil {
		tr.setStartError(err, false)
		return false
	}
	if !tr.awaitRunnableAlloc() {
		return tr.shutdownCtx.Err() != nil
	}
	env, err := tr.prestart()
	if err != nil {
		tr.setStartError(err, drivers.IsRecoverable(err))
		return tr.shutdownCtx.Err() != nil
	}

	run := tr.liveRun() // a recovered handle (STATE-4) skips gate and start
	if run == nil {
		fresh := newDriverRun(tr.driverID)
		err := tr.gate.pass(tr.hookCtx, func() { tr.setRun(fresh) })
		if tr.gatePassed != nil {
			tr.gatePassed()
		}
		switch {
		case tr.shutdownCtx.Err() != nil:
			tr.abandon(fresh)
			return true
		case tr.killCtx.Err() != nil:
			tr.abandon(fresh)
			return false
		case err != nil: // PAUSE-9 at the gate
			tr.setStartError(err, false)
			return false
		}
		run = fresh
		if err := tr.startDriver(run, env); err != nil {
			tr.endRun(run, nil, err)
			return false
		}
	} else if ev := tr.cfg.Policies.RecoveredEvent(tr.clock.Now()); ev != nil || tr.TaskState().State != structs.TaskStateRunning {
		tr.updateState(structs.TaskStateRunning, ev) // recovered: no Started (STATE-4)
	}
	tr.watch(run)
	tr.poststart()

	res, killed, shutdown, killErr := tr.waitExit(run)
	if shutdown {
		return true
	}
	tr.endRun(run, res, nil)
	if killed {
		tr.setKillErr(killErr)
		tr.AppendEvent(tr.newEvent(structs.TaskKilled).SetKillError(killErr))
	}
	tr.exited()
	return false
}

// awaitRunnableAlloc holds a task of a server-terminal alloc before its
// prestart (AR-5: no prestart for terminal allocs) until the alloc
// runner's kill or a shutdown. True when the alloc may run. Poststop tasks
// are exempt: the alloc runner leaves them alone (AR-9) and starts them
// once the main tasks are dead, which is exactly what a server stop leads to.
func (tr *TaskRunner) awaitRunnableAlloc() bool {
	if tr.IsPoststopTask() || !tr.Alloc().ServerTerminal() {
		return true
	}
	<-tr.hookCtx.Done()
	return false
}

func (tr *TaskRunner) setStartError(err error, recoverable bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.tracker.SetStartError(err, recoverable)
}

func (tr *TaskRunner) setKillErr(err error) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.killErr = err
}

func exitResult(r *drivers.ExitResult) restart.ExitResult {
	return restart.ExitResult{ExitCode: r.ExitCode, Signal: r.Signal, Err: r.Err}
}

// waitRestartOrKill is where a dead non-poststop task waits (AR-6): a
// restart (Restart) revives it, a kill ends the runner.
func (tr *TaskRunner) waitRestartOrKill() (revive, shutdown bool) {
	tr.mu.Lock()
	tr.deadWaiting = true
	tr.mu.Unlock()
	defer func() {
		tr.mu.Lock()
		tr.deadWaiting = false
		tr.mu.Unlock()
	}()
	select {
	case <-tr.restartCh:
		tr.gate.revive()
		tr.updateState(structs.TaskStatePending, nil)
		return true, false
	case <-tr.killCtx.Done():
		return false, tr.shutdownCtx.Err() != nil
	case <-tr.shutdownCtx.Done():
		return false, true
	}
}

// finishRun persists RunComplete and runs the stop hooks (AR-6).
func (tr *TaskRunner) finishRun() {
	tr.editLocalState(func(ls *interfaces.LocalState) { ls.RunComplete = true })
	tr.persistLocalStateLogged("run exit")
	tr.runStopHooks()
}
