package mock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/allocsim/allocsim/impl/drivers"
)

// defaultStopSignal is the signal of a StopTask without one (DATA-4
// KillSignal default).
const defaultStopSignal = "SIGINT"

// WaitTask returns a channel that receives the task's exit result once
// (at once if it has exited) and is then closed; if ctx ends first, or
// the driver closes, it is closed without a value. It starts no
// goroutine: the exit delivers, and ctx's end is hooked with
// context.AfterFunc, unhooked at the exit.
func (d *Driver) WaitTask(ctx context.Context, taskID string) (<-chan *drivers.ExitResult, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, err := d.lookup(taskID)
	if err != nil {
		err = fmt.Errorf(fmtWait, taskID, err)
		d.emit(OpWait, taskID, errDetail("", err))
		return nil, err
	}
	d.emit(OpWait, taskID, "ok")
	ch := make(chan *drivers.ExitResult, 1)
	if t.exited {
		ch <- t.result.Copy()
		close(ch)
		return ch, nil
	}
	w := &waiter{ch: ch}
	t.waiters = append(t.waiters, w)
	w.stop = context.AfterFunc(ctx, func() { d.cancelWait(t, w) })
	return ch, nil
}

// StopTask delivers signal (empty: SIGINT) and force-kills the task at
// timeout unless it has exited by then (package doc); it returns once the
// task has exited, at once if it already had, or ErrClosed if the driver
// closes first. Faults is consulted first: its Err fails the call before
// any signal, its Hang makes the task ignore the signal.
func (d *Driver) StopTask(taskID string, timeout time.Duration, signal string) error {
	if signal == "" {
		signal = defaultStopSignal
	}
	var fault StopFault
	if d.faults != nil {
		fault = d.faults.StopTask(taskID, timeout, signal)
	}
	detail := fmt.Sprintf("signal=%s timeout=%s", signal, timeout)

	d.mu.Lock()
	t, err := d.lookup(taskID)
	var canon string
	var num int
	if err == nil {
		canon, num, err = drivers.ParseSignal(signal)
	}
	if err == nil && fault.Err != nil {
		err = fault.Err
	}
	if err != nil {
		err = fmt.Errorf(fmtStop, taskID, err)
		d.emit(OpStop, taskID, errDetail(detail, err))
		d.mu.Unlock()
		return err
	}
	d.emit(OpStop, taskID, detail)
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
	done := t.done
	d.mu.Unlock()

	select {
	case <-done:
		return nil
	case <-d.closedCh:
		return fmt.Errorf(fmtStop, taskID, ErrClosed)
	}
}

// SignalTask delivers signal to a running task (package doc; no force
// kill). signal_error, if configured, is returned unchanged instead. A
// task that has exited: drivers.ErrTaskExited.
func (d *Driver) SignalTask(taskID, signal string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	detail := "signal=" + signal
	t, err := d.lookup(taskID)
	var canon string
	var num int
	if err == nil {
		canon, num, err = drivers.ParseSignal(signal)
	}
	if err == nil && t.exited {
		err = drivers.ErrTaskExited
	}
	if err != nil {
		err = fmt.Errorf(fmtSignal, taskID, err)
		d.emit(OpSignal, taskID, errDetail(detail, err))
		return err
	}
	if t.spec.SignalError != "" {
		err := errors.New(t.spec.SignalError)
		d.emit(OpSignal, taskID, errDetail(detail, err))
		return err
	}
	d.emit(OpSignal, taskID, detail)
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
	t, err := d.lookup(taskID)
	if err == nil && !t.exited && !force {
		err = drivers.ErrTaskRunning
	}
	if err != nil {
		err = fmt.Errorf(fmtDestroy, taskID, err)
		d.emit(OpDestroy, taskID, errDetail(detail, err))
		return err
	}
	d.emit(OpDestroy, taskID, detail)
	if !t.exited {
		d.exit(t, killed())
	}
	delete(d.tasks, taskID)
	return nil
}
