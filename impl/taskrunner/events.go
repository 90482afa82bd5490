package taskrunner

import (
	"maps"

	"github.com/allocsim/allocsim/impl/interfaces"
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
			tr.cfg.Policies.AppendEvent(ts, ev)
		}
		if newState != "" {
			ts.SetState(newState, tr.clock.Now())
		}
	})
	tr.notify()
}

// changeState applies fn to the task state, persists the result and then
// publishes it to TaskState; it does not notify. Changes and writes are
// serialised by taskStateMu, so task_state writes land in change order
// (STATE-2). A write error is logged: memory still advances (STATE-2).
func (tr *TaskRunner) changeState(fn func(ts *structs.TaskState)) {
	tr.taskStateMu.Lock()
	defer tr.taskStateMu.Unlock()
	tr.changeStateLocked(fn)
}

func (tr *TaskRunner) changeStateLocked(fn func(ts *structs.TaskState)) {
	tr.taskStatePersisted = true
	tr.stateMu.Lock()
	fn(tr.state)
	// The published state is never changed (SharedTaskState): the new
	// copy shares the events it still holds.
	cp := tr.state.CopySharingEvents(tr.published)
	// The working state then holds the published events (equal, and
	// never changed once appended), so each event is kept once, not also
	// as the object it was appended as.
	copy(tr.state.Events, cp.Events)
	tr.stateMu.Unlock()
	// One copy is both written and published: the state DB changes
	// nothing it is given (interfaces.StateDB), and only a change under
	// taskStateMu, held here, moves tr.state.
	put := tr.cfg.StateDB.PutTaskState
	if db, ok := tr.cfg.StateDB.(frozenTaskStatePutter); ok {
		put = db.PutFrozenTaskState // cp is never changed, nor its events
	}
	if err := put(tr.allocID, tr.taskName, cp); err != nil {
		tr.logger.Error("failed to persist task state", "error", err)
	}
	tr.stateMu.Lock()
	tr.publishLocked(cp)
	tr.stateMu.Unlock()
}

// frozenTaskStatePutter is a state DB (impl/state.DB) that keeps a task
// state the caller will never change, with its encoding, so that the
// task's next state and the allocs holding it copy its events' bytes
// (PutFrozenTaskState): the published copies are such. Any other state
// DB gets PutTaskState.
type frozenTaskStatePutter interface {
	PutFrozenTaskState(allocID, taskName string, ts *structs.TaskState) error
}

// notify tells the alloc runner the task state changed; never called with
// a task runner lock held, nor during Restore (the AR recomputes after it).
func (tr *TaskRunner) notify() {
	if tr.quiet.Load() {
		return
	}
	tr.cfg.StateUpdated()
}

// persistFreshState writes the fresh state of construction (STATE-2: the
// `Received` event) unless the DB has a task state for the task, which a
// Restore is to load. If the DB cannot be read, Start writes it instead.
func (tr *TaskRunner) persistFreshState() {
	_, ts, err := tr.cfg.StateDB.GetTaskRunnerState(tr.allocID, tr.taskName)
	switch {
	case err != nil:
		tr.logger.Warn("failed to read task state", "error", err)
	case ts == nil:
		tr.persistTaskStateOnce()
	}
}

// persistTaskStateOnce writes the current task state as it is, unless it
// was written or loaded since construction. Start calls it
// (persistAtStart) on its caller's goroutine, in case neither
// construction nor Restore did (an unreadable DB, or a task state left
// in the DB for an alloc built afresh).
func (tr *TaskRunner) persistTaskStateOnce() {
	tr.taskStateMu.Lock()
	defer tr.taskStateMu.Unlock()
	if !tr.taskStatePersisted {
		tr.changeStateLocked(func(*structs.TaskState) {})
	}
}

// persistLocalState writes the local state (STATE-1 local_state).
func (tr *TaskRunner) persistLocalState() error {
	tr.localStateMu.Lock()
	defer tr.localStateMu.Unlock()
	tr.stateMu.Lock()
	ls := tr.localState // never changed once installed (editLocalState)
	tr.stateMu.Unlock()
	return tr.cfg.StateDB.PutTaskRunnerLocalState(tr.allocID, tr.taskName, ls)
}

// editLocalState installs a changed copy of the local state. A local
// state, once installed, is never changed, so persistLocalState hands it
// to the state DB as it is: a change copies the struct and its Hooks map
// and shares the hook states and the task handle, which are replaced,
// never changed. Copying the whole local state at every write was 5 % of
// the bytes BenchmarkClients100x50 allocated.
func (tr *TaskRunner) editLocalState(fn func(ls *interfaces.LocalState)) {
	tr.stateMu.Lock()
	defer tr.stateMu.Unlock()
	next := *tr.localState
	next.Hooks = maps.Clone(tr.localState.Hooks) // never nil: NewLocalState, Restore
	fn(&next)
	tr.localState = &next
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
			tr.cfg.Policies.AppendEvent(ts, ev)
		}
	})
}
