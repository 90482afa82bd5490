package rawexec

import (
	"context"
	"fmt"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// WaitTask returns the task's exit channel (package drivers' contract
// step 2; tasktable.Exit.Wait): closed without a value if ctx ends first
// or the driver closes. It starts no goroutine.
func (d *Driver) WaitTask(ctx context.Context, taskID string) (<-chan *drivers.ExitResult, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, err := d.tasks.Lookup(taskID)
	if err != nil {
		return nil, fmt.Errorf("wait task %q: %w", taskID, err)
	}
	d.trace.Emit(OpWait, taskID, "ok")
	return t.exit.Wait(ctx, &d.mu), nil
}

// StopTask sends signal (empty: SIGINT) to the task's whole process
// group and, unless the task has exited by then, SIGKILLs the group once
// timeout has passed on the clock (at once if timeout ≤ 0). It returns
// once the task has exited (at once if it already had), or ErrClosed if
// the driver closes first. A recovered task's exit is seen at the next
// poll.
func (d *Driver) StopTask(taskID string, timeout time.Duration, signal string) error {
	if signal == "" {
		signal = drivers.DefaultStopSignal
	}
	d.mu.Lock()
	t, err := d.tasks.Lookup(taskID)
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
		return fmt.Errorf("stop task %q: %w", taskID, err)
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
		d.trace.Emit(OpStop, taskID, fmt.Sprintf("signal=%s timeout=%s", canon, timeout))
		if num != drivers.SIGKILL && timeout <= 0 {
			d.forceKill(t)
		}
	}
	done := t.exit.Done()
	d.mu.Unlock()
	if timer != nil {
		defer timer.Stop()
	}
	if err := d.tasks.Await(done); err != nil {
		return fmt.Errorf("stop task %q: %w", taskID, err)
	}
	return nil
}

// SignalTask sends signal to the task's whole process group. A task that
// has exited: drivers.ErrTaskExited.
func (d *Driver) SignalTask(taskID, signal string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, err := d.tasks.Lookup(taskID)
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
		return fmt.Errorf("signal task %q: %w", taskID, err)
	}
	d.trace.Emit(OpSignal, taskID, "signal="+canon)
	return nil
}

// DestroyTask forgets a task. A running task is refused with
// drivers.ErrTaskRunning unless force, which SIGKILLs its process group
// and waits for the exit (delivered to waiters) first.
func (d *Driver) DestroyTask(taskID string, force bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, err := d.tasks.Lookup(taskID)
	if err == nil && t.running() && !force {
		err = drivers.ErrTaskRunning
	}
	if err == nil && t.running() {
		err = d.signal(t, "SIGKILL", drivers.SIGKILL)
	}
	if err != nil {
		return fmt.Errorf("destroy task %q: %w", taskID, err)
	}
	if t.running() {
		d.mu.Unlock()
		_ = d.tasks.Await(t.exit.Done()) // closed or not, checked below
		d.mu.Lock()
		if d.tasks.Closed() {
			return fmt.Errorf("destroy task %q: %w", taskID, ErrClosed)
		}
	}
	if cur, ok := d.tasks.Get(taskID); ok && cur == t {
		d.tasks.Delete(taskID)
	}
	d.trace.Emit(OpDestroy, taskID, fmt.Sprintf("force=%t", force))
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
	return fmt.Errorf("send %s to process group %d: %w", canon, t.state.PGID, err)
}

// forceKill SIGKILLs a task's process group unless it has exited, with
// the lock held.
func (d *Driver) forceKill(t *task) {
	if d.tasks.Closed() || !t.running() {
		return
	}
	_ = d.signal(t, "SIGKILL", drivers.SIGKILL) // best effort: nothing else to do
	d.trace.Emit(OpForceKill, t.id, fmt.Sprintf("pgid=%d", t.state.PGID))
}
