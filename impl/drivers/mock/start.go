package mock

import (
	"errors"
	"fmt"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
)

// StartTask starts cfg's task (see the package doc). In order: the Config
// is decoded (a bad value fails naming the key, unrecoverable); Faults is
// consulted; StartTask blocks start_block_for plus the fault's Delay on
// the clock; the fault's Err, else start_error, fails it; a task of the
// same ID still running fails it with drivers.ErrTaskExists (an exited
// one is replaced). The task starts at the clock's instant after the
// block and exits by itself at start + run_for (or as the fault plans).
func (d *Driver) StartTask(cfg *drivers.TaskConfig) (*drivers.TaskHandle, error) {
	if cfg == nil || cfg.ID == "" {
		return nil, errors.New("task config has no ID")
	}
	id := cfg.ID
	cfg = cfg.Copy()
	spec, err := decodeSpec(cfg.Config)
	if err != nil {
		d.traceFailure(OpStart, id, err)
		return nil, fmt.Errorf("start task %q: %w", id, err)
	}
	var fault StartFault
	if d.faults != nil {
		fault = d.faults.StartTask(cfg.Copy())
	}
	if err := d.block(spec.StartBlockFor + fault.Delay); err != nil {
		return nil, fmt.Errorf("start task %q: %w", id, err)
	}
	startErr := fault.Err
	if startErr == nil && spec.StartError != "" {
		startErr = drivers.NewRecoverableError(errors.New(spec.StartError), spec.StartErrorRecoverable)
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks.Closed() {
		return nil, fmt.Errorf("start task %q: %w", id, ErrClosed)
	}
	if startErr != nil {
		d.trace.Emit(OpStart, id, errDetail("", startErr))
		return nil, startErr
	}
	if old, ok := d.tasks.Get(id); ok && !old.exit.Exited() {
		err := fmt.Errorf("start task %q: %w", id, drivers.ErrTaskExists)
		d.trace.Emit(OpStart, id, errDetail("", err))
		return nil, err
	}
	st := &driverState{
		Task: cfg, Spec: spec, StartedAt: d.clock.Now().UnixNano(), State: stateRunning,
		Exit: spec.naturalExit(),
	}
	if fault.Exit != nil {
		st.Exit = &exitPlan{After: fault.Exit.After, Result: recordOf(fault.Exit.Result)}
	}
	h, err := encodeHandle(d.name, st)
	if err != nil {
		err = fmt.Errorf("start task %q: %w", id, err)
		d.trace.Emit(OpStart, id, errDetail("", err))
		return nil, err
	}
	d.trace.Emit(OpStart, id, "ok")
	d.adopt(st)
	return h, nil
}

// RecoverTask re-attaches to the task of a handle this driver (any
// instance on the same clock) wrote: the task keeps running and exits at
// StartedAt + its natural exit's After, at once if that instant has
// passed. A task this instance already tracks is left as it is (nil).
// Faults is consulted first; a handle of another driver, another version,
// or with undecodable or mismatched state is an error.
func (d *Driver) RecoverTask(h *drivers.TaskHandle) error {
	if h == nil {
		return errors.New("nil task handle")
	}
	id := h.TaskID
	if d.faults != nil {
		if err := d.faults.RecoverTask(h.Copy()); err != nil {
			d.traceFailure(OpRecover, id, err)
			return fmt.Errorf("recover task %q: %w", id, err)
		}
	}
	st, err := decodeHandle(d.name, h)
	if err != nil {
		d.traceFailure(OpRecover, id, err)
		return fmt.Errorf("recover task %q: %w", id, err)
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks.Closed() {
		return fmt.Errorf("recover task %q: %w", id, ErrClosed)
	}
	if _, ok := d.tasks.Get(id); ok {
		d.trace.Emit(OpRecover, id, "already_tracked")
		return nil
	}
	d.trace.Emit(OpRecover, id, "ok")
	d.adopt(st)
	return nil
}

// adopt tracks a started or recovered task and plans its natural exit,
// with the lock held.
func (d *Driver) adopt(st *driverState) {
	t := newTask(st.Task.ID, st.Spec, time.Unix(0, st.StartedAt))
	d.tasks.Put(t.id, t)
	if st.Exit != nil {
		d.planExit(t, t.startedAt.Add(st.Exit.After), st.Exit.Result.result())
	}
}

// traceFailure traces a call that failed before taking the lock.
func (d *Driver) traceFailure(op Op, taskID string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.trace.Emit(op, taskID, errDetail("", err))
}
