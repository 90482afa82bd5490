package mock

import (
	"time"

	"github.com/allocsim/allocsim/impl/drivers"
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

	exited bool
	result *drivers.ExitResult
	// done is closed when the task exits (StopTask waits on it).
	done    chan struct{}
	waiters []*waiter
}

// waiter is one WaitTask channel still waiting for the exit.
type waiter struct {
	ch chan *drivers.ExitResult
	// stop unregisters the context hook.
	stop func() bool
}

func newTask(id string, spec taskSpec, startedAt time.Time) *task {
	return &task{id: id, spec: spec, startedAt: startedAt, done: make(chan struct{})}
}

// planExit plans the task to exit at `at` with res, unless an exit is
// already planned at or before `at` (earliest wins; ties keep the older
// plan). A plan due now runs inline, never through a timer.
func (d *Driver) planExit(t *task, at time.Time, res *drivers.ExitResult) {
	if t.exited || (t.planned && !at.Before(t.planAt)) {
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
	if d.closed || t.exited || t.gen != gen {
		return
	}
	t.timer = nil
	d.exit(t, t.planResult)
}

// exit ends the task with res: traces it, releases StopTask callers and
// delivers res to every waiter.
func (d *Driver) exit(t *task, res *drivers.ExitResult) {
	t.stopTimer()
	t.exited, t.result = true, res
	d.emit(OpExit, t.id, exitDetail(res))
	close(t.done)
	for _, w := range t.waiters {
		w.stop()
		w.ch <- res.Copy()
		close(w.ch)
	}
	t.waiters = nil
}

// stopTimer stops the pending timer, if any, and invalidates its callback.
func (t *task) stopTimer() {
	t.gen++
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
}

// abandon drops the task without an exit (Driver.Close).
func (t *task) abandon() {
	t.stopTimer()
	for _, w := range t.waiters {
		w.stop()
		close(w.ch)
	}
	t.waiters = nil
}

// cancelWait closes a waiter's channel without a result when its context
// ends first.
func (d *Driver) cancelWait(t *task, w *waiter) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, e := range t.waiters {
		if e == w {
			t.waiters = append(t.waiters[:i], t.waiters[i+1:]...)
			close(w.ch)
			return
		}
	}
}

// killed is the result of a force kill.
func killed() *drivers.ExitResult { return &drivers.ExitResult{Signal: drivers.SIGKILL} }
