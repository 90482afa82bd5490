package taskrunner

import (
	"github.com/allocsim/allocsim/model/structs"
)

// AppendEvent appends an event to the task state, persists it and notifies
// StateUpdated. An event without a time gets the clock's.
func (tr *TaskRunner) AppendEvent(ev *structs.TaskEvent) {
	if ev == nil {
		return
	}
	tr.updateState("", ev)
}

// newEvent returns an event of type typ at the clock's instant.
func (tr *TaskRunner) newEvent(typ string) *structs.TaskEvent {
	return structs.NewTaskEvent(typ, tr.clock.Now())
}

// updateState appends ev (if not nil) and moves the task to newState (if
// not empty) as one change, persists the task state and notifies
// StateUpdated with no lock held (STATE-2).
func (tr *TaskRunner) updateState(newState string, ev *structs.TaskEvent) {
	tr.changeState(func(ts *structs.TaskState) {
		if ev != nil {
			if ev.Time == 0 {
				ev.Time = tr.clock.Now().UnixNano()
			}
			ts.AppendEvent(ev)
		}
		if newState != "" {
			ts.SetState(newState, tr.clock.Now())
		}
	})
	tr.notify()
}

// changeState applies fn to the task state and persists the result; it
// does not notify. A write error is logged: memory still advances
// (STATE-2).
func (tr *TaskRunner) changeState(fn func(ts *structs.TaskState)) {
	tr.persistMu.Lock()
	defer tr.persistMu.Unlock()
	tr.stateMu.Lock()
	fn(tr.state)
	cp := tr.state.Copy()
	tr.stateMu.Unlock()
	if err := tr.cfg.StateDB.PutTaskState(tr.allocID, tr.taskName, cp); err != nil {
		tr.logger.Error("failed to persist task state", "error", err)
	}
}

// notify tells the alloc runner the task state changed; never called with
// a task runner lock held, nor during Restore (the AR recomputes after it).
func (tr *TaskRunner) notify() {
	if tr.quiet.Load() {
		return
	}
	tr.cfg.StateUpdated()
}

// persistTaskState writes the current task state as it is.
func (tr *TaskRunner) persistTaskState() {
	tr.changeState(func(*structs.TaskState) {})
}

// persistLocalState writes the local state (STATE-1 local_state).
func (tr *TaskRunner) persistLocalState() error {
	tr.persistMu.Lock()
	defer tr.persistMu.Unlock()
	tr.stateMu.Lock()
	cp := tr.localState.Copy()
	tr.stateMu.Unlock()
	return tr.cfg.StateDB.PutTaskRunnerLocalState(tr.allocID, tr.taskName, cp)
}

// persistLocalStateLogged persists the local state, logging a failure
// (the writes of STATE-2 whose errors are logged).
func (tr *TaskRunner) persistLocalStateLogged(what string) {
	if err := tr.persistLocalState(); err != nil {
		tr.logger.Error("failed to persist local state", "after", what, "error", err)
	}
}

// commitPause stores the pause state and appends the pause events as one
// persisted change, without notifying (the gate notifies once unlocked).
func (tr *TaskRunner) commitPause(stored structs.TaskScheduleState, events []*structs.TaskEvent) {
	tr.changeState(func(ts *structs.TaskState) {
		ts.Paused = stored
		for _, ev := range events {
			ts.AppendEvent(ev)
		}
	})
}
