package mock

import (
	"time"

	"github.com/allocsim/allocsim/impl/drivers/internal/tasktable"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// task is one started or recovered task. All fields are guarded by the
// driver's lock.
type task struct {
	id        string
	spec      taskSpec
	startedAt time.Time

	// The planned exit: at most one, with at most one timer. gen
	// invalidates the callbacks of replaced or stopped timers.
	planned    bool
	planAt     time.Time
	planResult *drivers.ExitResult
	timer      *clock.Timer
	gen        uint64

	// exit is how the task ended, and its WaitTask and StopTask callers.
	exit *tasktable.Exit
}

func newTask(id string, spec taskSpec, startedAt time.Time) *task {
	return &task{id: id, spec: spec, startedAt: startedAt, exit: tasktable.NewExit()}
}

// planExit plans the task to exit at `at` with res, unless an exit is
// already planned at or before `at` (earliest wins; ties keep the older
// plan). A plan due now runs inline, never through a timer.
func (d *Driver) planExit(t *task, at time.Time, res *drivers.ExitResult) {
	if t.exit.Exited() || (t.planned && !at.Before(t.planAt)) {
		return
	}
	t.stopTimer()
	t.planned, t.planAt, t.planResult = true, at, res
	delay := at.Sub(d.clock.Now())
	if delay <= 0 {
		d.exit(t, res)
		return
	}
	gen := t.gen
	t.timer = d.clock.AfterFunc(delay, func() { d.fire(t, gen) })
}

// fire runs a planned exit whose timer went off, unless the plan changed.
func (d *Driver) fire(t *task, gen uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks.Closed() || t.exit.Exited() || t.gen != gen {
		return
	}
	t.timer = nil
	d.exit(t, t.planResult)
}

// exit ends the task with res: traces it, then releases StopTask callers
// and delivers res to every waiter.
func (d *Driver) exit(t *task, res *drivers.ExitResult) {
	t.stopTimer()
	d.trace.Emit(OpExit, t.id, tasktable.ExitDetail(res))
	t.exit.Deliver(res)
}

// stopTimer stops the pending timer, if any, and invalidates its callback.
func (t *task) stopTimer() {
	t.gen++
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
}

// Abandon drops the task without an exit (Driver.Close).
func (t *task) Abandon() {
	t.stopTimer()
	t.exit.Abandon()
}

// killed is the result of a force kill.
func killed() *drivers.ExitResult { return &drivers.ExitResult{Signal: drivers.SIGKILL} }
