package rawexec

import (
	"os/exec"

	"github.com/allocsim/allocsim/impl/drivers/internal/tasktable"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// task is one started or recovered task. All fields but the immutable
// ones (id, state, cmd) are guarded by the driver's lock.
type task struct {
	id    string
	state driverState
	// cmd is the started process; nil for a recovered task, whose
	// process is not this one's child and is polled instead.
	cmd *exec.Cmd

	// exit is how the task ended, and its WaitTask, StopTask and
	// DestroyTask callers. Abandoned: the driver closed; nothing about
	// the task is reported any more.
	exit *tasktable.Exit
	// poll is a recovered task's pending exit check.
	poll *clock.Timer
}

func newTask(id string, st driverState, cmd *exec.Cmd) *task {
	return &task{id: id, state: st, cmd: cmd, exit: tasktable.NewExit()}
}

// running reports whether the task has neither exited nor been abandoned.
func (t *task) running() bool { return t.exit.Pending() }

// exit ends the task with res, with the lock held: traces it, then
// releases StopTask and DestroyTask callers and delivers res to every
// waiter.
func (d *Driver) exit(t *task, res *drivers.ExitResult) {
	if !t.running() {
		return
	}
	t.stopPoll()
	d.trace.Emit(OpExit, t.id, tasktable.ExitDetail(res))
	t.exit.Deliver(res)
}

// reap is a started task's goroutine: it waits for the process to exit,
// kills whatever the task left in its process group, reaps the process
// and reports the exit. It ends when the process exits, whether or not
// the driver has closed (Close).
func (d *Driver) reap(t *task) {
	if err := awaitExit(t.state.PID); err != nil {
		// Unexpected (the child is ours): reap without the cleanup.
		werr := t.cmd.Wait()
		d.mu.Lock()
		defer d.mu.Unlock()
		d.exit(t, exitResult(t.cmd.ProcessState, werr))
		return
	}
	// The exited main process is not reaped yet, so its pid, and so the
	// group id, cannot be reused while the group is signalled.
	d.mu.Lock()
	defer d.mu.Unlock()
	if !t.exit.Abandoned() {
		_ = signalGroup(t.state.PGID, drivers.SIGKILL) // ESRCH: nothing left
	}
	werr := t.cmd.Wait()
	d.exit(t, exitResult(t.cmd.ProcessState, werr))
}

// schedulePoll arms a recovered task's next exit check, with the lock
// held.
func (d *Driver) schedulePoll(t *task) {
	t.poll = d.clock.AfterFunc(d.pollInterval, func() { d.pollExit(t) })
}

// pollExit checks whether a recovered task's process is still alive and
// reports its exit (ErrExitUnknown) if not; else it checks again later.
// A probe that fails (it cannot tell) counts as alive.
func (d *Driver) pollExit(t *task) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks.Closed() || !t.running() {
		return
	}
	t.poll = nil
	status, _, err := probeProcess(t.state.PID, t.state.ProcStart)
	if err == nil && status != procAlive {
		d.exit(t, &drivers.ExitResult{Err: ErrExitUnknown})
		return
	}
	d.schedulePoll(t)
}

// stopPoll cancels a pending exit check.
func (t *task) stopPoll() {
	if t.poll != nil {
		t.poll.Stop()
		t.poll = nil
	}
}

// Abandon lets go of the task without an exit (Driver.Close).
func (t *task) Abandon() {
	t.stopPoll()
	t.exit.Abandon()
}
