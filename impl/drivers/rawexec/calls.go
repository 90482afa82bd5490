package rawexec

import (
	"context"
	"fmt"
	"time"

	"github.com/allocsim/allocsim/impl/drivers"
	"github.com/benbjohnson/clock"
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
		return nil, fmt.Errorf(fmtWait, taskID, err)
	}
	d.emit(OpWait, taskID, "ok")
	return d.addWaiter(ctx, t), nil
}

// StopTask sends signal (empty: SIGINT) to the task's whole process
// group and, unless the task has exited by then, SIGKILLs the group once
// timeout has passed on the clock (at once if timeout ≤ 0). It returns
// once the task has exited (at once if it already had), or ErrClosed if
// the driver closes first. A recovered task's exit is seen at the next
// poll.
func (d *Driver) StopTask(taskID string, timeout time.Duration, signal string) error {
	if signal == "" {
		signal = defaultStopSignal
	}
	d.mu.Lock()
	t, err := d.lookup(taskID)
	var canon string
	var num int
	if err == nil {
		canon, num, err = drivers.ParseSignal(signal)
	}
	if err == nil && t.running() {
		err = d.signal(t, canon, num)
	}
	if err != nil {
		d.mu.Unlock()
		return fmt.Errorf(fmtStop, taskID, err)
	}
	var timer *clock.Timer
	if t.running() {
		// The force kill is armed before the event is traced, so an
		// observer that advances the clock on the event cannot miss it.
		if num != drivers.SIGKILL && timeout > 0 {
			timer = d.clock.AfterFunc(timeout, func() {
				d.mu.Lock()
				defer d.mu.Unlock()
				d.forceKill(t)
			})
		}
		d.emit(OpStop, taskID, fmt.Sprintf("signal=%s timeout=%s", canon, timeout))
		if num != drivers.SIGKILL && timeout <= 0 {
			d.forceKill(t)
		}
	}
	done := t.done
	d.mu.Unlock()
	if timer != nil {
		defer timer.Stop()
	}
	select {
	case <-done:
		return nil
	case <-d.closedCh:
		return fmt.Errorf(fmtStop, taskID, ErrClosed)
	}
}

// SignalTask sends signal to the task's whole process group. A task that
// has exited: drivers.ErrTaskExited.
func (d *Driver) SignalTask(taskID, signal string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, err := d.lookup(taskID)
	var canon string
	var num int
	if err == nil {
		canon, num, err = drivers.ParseSignal(signal)
	}
	if err == nil && !t.running() {
		err = drivers.ErrTaskExited
	}
	if err == nil {
		err = d.signal(t, canon, num)
	}
	if err == nil && !t.running() {
		err = drivers.ErrTaskExited // a recovered task found gone
	}
	if err != nil {
		return fmt.Errorf(fmtSignal, taskID, err)
	}
	d.emit(OpSignal, taskID, "signal="+canon)
	return nil
}

// DestroyTask forgets a task. A running task is refused with
// drivers.ErrTaskRunning unless force, which SIGKILLs its process group
// and waits for the exit (delivered to waiters) first.
func (d *Driver) DestroyTask(taskID string, force bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, err := d.lookup(taskID)
	if err == nil && t.running() && !force {
		err = drivers.ErrTaskRunning
	}
	if err == nil && t.running() {
		err = d.signal(t, "SIGKILL", drivers.SIGKILL)
	}
	if err != nil {
		return fmt.Errorf(fmtDestroy, taskID, err)
	}
	if t.running() {
		d.mu.Unlock()
		select {
		case <-t.done:
		case <-d.closedCh:
		}
		d.mu.Lock()
		if d.closed {
			return fmt.Errorf(fmtDestroy, taskID, ErrClosed)
		}
	}
	if d.tasks[taskID] == t {
		delete(d.tasks, taskID)
	}
	d.emit(OpDestroy, taskID, fmt.Sprintf("force=%t", force))
	return nil
}

// signal sends a signal to a running task's process group, with the lock
// held. A group that no longer exists is not an error: a recovered
// task's exit is reported at once (a started task's reaper reports its
// own).
func (d *Driver) signal(t *task, canon string, num int) error {
	err := signalGroup(t.state.PGID, num)
	if err == nil {
		return nil
	}
	if isGone(err) {
		if t.cmd == nil {
			d.exit(t, &drivers.ExitResult{Err: ErrExitUnknown})
		}
		return nil
	}
	return fmt.Errorf(fmtSignalGroup, canon, t.state.PGID, err)
}

// forceKill SIGKILLs a task's process group unless it has exited, with
// the lock held.
func (d *Driver) forceKill(t *task) {
	if d.closed || !t.running() {
		return
	}
	_ = d.signal(t, "SIGKILL", drivers.SIGKILL) // best effort: nothing else to do
	d.emit(OpForceKill, t.id, fmt.Sprintf("pgid=%d", t.state.PGID))
}
