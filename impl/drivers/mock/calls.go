package mock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
)

// WaitTask returns the task's exit channel (package drivers' contract
// step 2; tasktable.Exit.Wait): closed without a value if ctx ends first
// or the driver closes. It starts no goroutine.
func (d *Driver) WaitTask(ctx context.Context, taskID string) (<-chan *drivers.ExitResult, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, err := d.tasks.Lookup(taskID)
	if err != nil {
		err = fmt.Errorf("wait task %q: %w", taskID, err)
		d.trace.Emit(OpWait, taskID, errDetail("", err))
		return nil, err
	}
	d.trace.Emit(OpWait, taskID, "ok")
	return t.exit.Wait(ctx, &d.mu), nil
}

// StopTask delivers signal (empty: SIGINT) and force-kills the task at
// timeout unless it has exited by then (package doc); it returns once the
// task has exited, at once if it already had, or ErrClosed if the driver
// closes first. Faults is consulted first: its Err fails the call before
// any signal, its Hang makes the task ignore the signal.
func (d *Driver) StopTask(taskID string, timeout time.Duration, signal string) error {
	if signal == "" {
		signal = drivers.DefaultStopSignal
	}
	var fault StopFault
	if d.faults != nil {
		fault = d.faults.StopTask(taskID, timeout, signal)
	}
	detail := fmt.Sprintf("signal=%s timeout=%s", signal, timeout)

	d.mu.Lock()
	t, err := d.tasks.Lookup(taskID)
	var canon string
	var num int
	if err == nil {
		canon, num, err = drivers.ParseSignal(signal)
	}
	if err == nil && fault.Err != nil {
		err = fault.Err
	}
	if err != nil {
		err = fmt.Errorf("stop task %q: %w", taskID, err)
		d.trace.Emit(OpStop, taskID, errDetail(detail, err))
		d.mu.Unlock()
		return err
	}
	d.trace.Emit(OpStop, taskID, detail)
	now := d.clock.Now()
	switch {
	case num == drivers.SIGKILL:
		d.planExit(t, now, killed())
	case fault.Hang || t.spec.ignores(canon):
		d.planExit(t, now.Add(timeout), killed())
	case t.spec.KillAfter <= timeout:
		d.planExit(t, now.Add(t.spec.KillAfter), t.spec.signalResult(canon, num))
	default:
		d.planExit(t, now.Add(timeout), killed())
	}
	done := t.exit.Done()
	d.mu.Unlock()

	if err := d.tasks.Await(done); err != nil {
		return fmt.Errorf("stop task %q: %w", taskID, err)
	}
	return nil
}

// SignalTask delivers signal to a running task (package doc; no force
// kill). signal_error, if configured, is returned unchanged instead. A
// task that has exited: drivers.ErrTaskExited.
func (d *Driver) SignalTask(taskID, signal string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	detail := "signal=" + signal
	t, err := d.tasks.Lookup(taskID)
	var canon string
	var num int
	if err == nil {
		canon, num, err = drivers.ParseSignal(signal)
	}
	if err == nil && t.exit.Exited() {
		err = drivers.ErrTaskExited
	}
	if err != nil {
		err = fmt.Errorf("signal task %q: %w", taskID, err)
		d.trace.Emit(OpSignal, taskID, errDetail(detail, err))
		return err
	}
	if t.spec.SignalError != "" {
		err := errors.New(t.spec.SignalError)
		d.trace.Emit(OpSignal, taskID, errDetail(detail, err))
		return err
	}
	d.trace.Emit(OpSignal, taskID, detail)
	now := d.clock.Now()
	switch {
	case num == drivers.SIGKILL:
		d.planExit(t, now, killed())
	case t.spec.ignores(canon):
	default:
		d.planExit(t, now.Add(t.spec.KillAfter), t.spec.signalResult(canon, num))
	}
	return nil
}

// DestroyTask forgets a task. A running task is refused with
// drivers.ErrTaskRunning unless force, which kills it at once (signal 9,
// delivered to waiters) first.
func (d *Driver) DestroyTask(taskID string, force bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	detail := fmt.Sprintf("force=%t", force)
	t, err := d.tasks.Lookup(taskID)
	if err == nil && !t.exit.Exited() && !force {
		err = drivers.ErrTaskRunning
	}
	if err != nil {
		err = fmt.Errorf("destroy task %q: %w", taskID, err)
		d.trace.Emit(OpDestroy, taskID, errDetail(detail, err))
		return err
	}
	d.trace.Emit(OpDestroy, taskID, detail)
	if !t.exit.Exited() {
		d.exit(t, killed())
	}
	d.tasks.Delete(taskID)
	return nil
}
