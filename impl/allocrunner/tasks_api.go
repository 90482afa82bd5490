package allocrunner

import (
	"errors"
	"fmt"
	"sync"

	"github.com/allocsim/allocsim/model/structs"
)

// Signal implements interfaces.AllocRunner (PAUSE-11, API-6): it sends
// sig to one task, or to every task (name order) when taskName is empty,
// with a Signaling event whose Details carry the signal name. An unknown
// task is `Task not found`; signal-all failures are aggregated as
// `Failed to signal task: <name>, err: <err>`.
func (ar *allocRunner) Signal(taskName, sig string) error {
	event := func() *structs.TaskEvent {
		return structs.NewTaskEvent(structs.TaskSignaling, ar.clock.Now()).SetSignalText(sig)
	}
	if taskName != "" {
		tr, ok := ar.tasks[taskName]
		if !ok {
			return errors.New(MsgTaskNotFound)
		}
		return tr.Signal(event(), sig)
	}
	var errs []error
	for _, name := range ar.taskNames {
		if err := ar.tasks[name].Signal(event(), sig); err != nil {
			errs = append(errs, fmt.Errorf(structs.FmtSignalTaskFailed, name, err))
		}
	}
	return errors.Join(errs...)
}

// restartEvent is ev as a Restart Signaled event (AR-1), stamped now if it
// has no time; nil ev gives a fresh one.
func (ar *allocRunner) restartEvent(ev *structs.TaskEvent) *structs.TaskEvent {
	if ev == nil {
		return structs.NewTaskEvent(structs.TaskRestartSignal, ar.clock.Now())
	}
	out := ev.Copy()
	out.Type = structs.TaskRestartSignal
	if out.Time == 0 {
		out.Time = ar.clock.Now().UnixNano()
	}
	return out
}

// RestartTask implements interfaces.AllocRunner (AR-1): Restart Signaled,
// no restart attempt used.
func (ar *allocRunner) RestartTask(taskName string, ev *structs.TaskEvent) error {
	if !ar.shouldRun() {
		return errors.New(MsgRestartShouldNotRun)
	}
	tr, ok := ar.tasks[taskName]
	if !ok {
		return fmt.Errorf(MsgTaskRunnerNotFound, taskName)
	}
	return tr.Restart(ar.shutdownCtx, ar.restartEvent(ev), false)
}

// RestartRunning implements interfaces.AllocRunner: it restarts every
// running task, concurrently.
func (ar *allocRunner) RestartRunning(ev *structs.TaskEvent) error {
	return ar.restartTasks(ev, func(name string) bool {
		s := ar.tasks[name].SharedTaskState()
		return s != nil && s.State == structs.TaskStateRunning
	})
}

// RestartAll implements interfaces.AllocRunner: it restarts every
// non-poststop task that is running or dead (a dead one's task runner waits
// for an alloc restart, AR-6), concurrently; pending tasks are left alone.
func (ar *allocRunner) RestartAll(ev *structs.TaskEvent) error {
	return ar.restartTasks(ev, func(name string) bool {
		tr := ar.tasks[name]
		s := tr.SharedTaskState()
		return !tr.IsPoststopTask() && s != nil && s.State != structs.TaskStatePending
	})
}

// restartTasks restarts the selected tasks concurrently and joins their
// errors in name order.
func (ar *allocRunner) restartTasks(ev *structs.TaskEvent, selected func(string) bool) error {
	if !ar.shouldRun() {
		return errors.New(MsgRestartShouldNotRun)
	}
	event := ar.restartEvent(ev)
	errs := make([]error, len(ar.taskNames))
	var wg sync.WaitGroup
	for i, name := range ar.taskNames {
		if !selected(name) {
			continue
		}
		wg.Go(func() {
			if err := ar.tasks[name].Restart(ar.shutdownCtx, event.Copy(), false); err != nil {
				errs[i] = fmt.Errorf("failed to restart task %q: %w", name, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// SetTaskPauseState implements interfaces.AllocRunner (PAUSE-2).
func (ar *allocRunner) SetTaskPauseState(taskName string, s structs.TaskScheduleState) error {
	tr, ok := ar.tasks[taskName]
	if !ok {
		return errors.New(MsgTaskNotFound)
	}
	return tr.SetPauseState(s)
}

// GetTaskPauseState implements interfaces.AllocRunner (PAUSE-2).
func (ar *allocRunner) GetTaskPauseState(taskName string) (structs.TaskScheduleState, error) {
	tr, ok := ar.tasks[taskName]
	if !ok {
		return "", errors.New(MsgTaskNotFound)
	}
	return tr.GetPauseState(), nil
}
