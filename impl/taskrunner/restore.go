package taskrunner

import (
	"fmt"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// Restore loads local and task state and recovers a persisted handle
// (STATE-3, STATE-4); before Start. The loaded task state replaces the fresh
// one (no second `Received`). A handle RecoverTask accepts is reused: the
// task is running with no `Started`. A failed recovery of a running task
// destroys the driver task and, unless the alloc is terminal or the job is
// a system job, appends `Failed Restoring Task` (pending) and makes the loop
// wait for the servers. The restored Paused value seeds the pause gate
// (PAUSE-10). Only a failed state read is an error. StateUpdated is not
// called during Restore. A task without a persisted task state keeps the
// fresh one, persisted by construction (or here, if construction could
// not read the DB), so that the loop's start never races an alloc runner's
// kill rule for the task's state (DET-3).
func (tr *TaskRunner) Restore() error {
	tr.quiet.Store(true)
	defer tr.quiet.Store(false)
	ls, ts, err := tr.cfg.StateDB.GetTaskRunnerState(tr.allocID, tr.taskName)
	if err != nil {
		return fmt.Errorf("failed to read the state of task %q: %w", tr.taskName, err)
	}
	tr.stateMu.Lock()
	if ls != nil {
		if ls.Hooks == nil {
			ls.Hooks = map[string]*interfaces.HookState{}
		}
		tr.localState = ls
	}
	if ts != nil {
		tr.state = ts
		tr.publishLocked(ts.Copy())
	}
	st, paused := tr.state.State, tr.state.Paused
	handle, complete := tr.localState.TaskHandle.Copy(), tr.localState.RunComplete
	tr.stateMu.Unlock()
	if ts != nil {
		tr.taskStateMu.Lock()
		tr.taskStatePersisted = true // loaded: Start does not write it again
		tr.taskStateMu.Unlock()
	} else {
		tr.persistTaskStateOnce() // none loaded: the fresh one, if not yet
	}

	var run *driverRun
	if handle != nil && st != structs.TaskStateDead {
		run = tr.recover(handle, st)
	}
	tr.mu.Lock()
	tr.run = run
	tr.restoredComplete = st == structs.TaskStateDead && complete
	tr.mu.Unlock()
	tr.gate.restore(paused, run)
	if st == structs.TaskStateDead {
		tr.gate.finish()
	}
	return nil
}

// recover re-attaches to a persisted handle (STATE-4); nil when there is
// nothing to recover.
func (tr *TaskRunner) recover(h *drivers.TaskHandle, st string) *driverRun {
	name := h.Driver
	if name == "" {
		name = tr.Task().Driver
	}
	d, err := tr.cfg.DriverManager.Dispense(name)
	if err == nil {
		if err = d.RecoverTask(h); err == nil {
			return recoveredRun(d, h)
		}
	}
	tr.logger.Warn("failed to recover task", "error", err)
	tr.editLocalState(func(ls *interfaces.LocalState) { ls.TaskHandle = nil })
	// Persisted at once, as endRun does: a crash before the task's next
	// local_state write must not leave the handle for a later restore to
	// re-attach to a run that ended here (Failed Restoring Task).
	tr.persistLocalStateLogged("failed recovery")
	if st != structs.TaskStateRunning {
		return nil // nothing was running
	}
	if d != nil {
		if err := d.DestroyTask(h.TaskID, true); err != nil {
			tr.logger.Debug("failed to destroy unrecovered task", "error", err)
		}
	}
	alloc := tr.Alloc()
	if alloc.Terminal() || jobType(alloc) == structs.JobTypeSystem {
		return nil
	}
	tr.updateState(structs.TaskStatePending, tr.newEvent(structs.TaskRestoreFailed))
	tr.mu.Lock()
	tr.waitOnServers = true
	tr.mu.Unlock()
	return nil
}
