package taskrunner

import (
	"context"
	"time"

	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
)

// pauseHost is the part of the runner the pause gate needs.
type pauseHost interface {
	now() time.Time
	afterFunc(d time.Duration, f func()) *clock.Timer
	// liveRun is the task's live driver run, nil if none. Called with the
	// gate's lock held.
	liveRun() *driverRun
	// commitPause stores the pause state and appends events as one
	// persisted change, without notifying.
	commitPause(stored structs.TaskScheduleState, events []*structs.TaskEvent)
	notify()
	// requestPauseStop stops run as a pause stop (PAUSE-5), asynchronously.
	requestPauseStop(run *driverRun)
}

// maxInlineBoundaries bounds the boundaries a single input handles inline
// when the next one is already due (a timer is never armed for zero or a
// negative duration, DESIGN "Determinism").
const maxInlineBoundaries = 16

// pauseGate is the task's pause gate and schedule tracking (PAUSE-3..10):
// the runner-side shell of model/pause's Machine. It owns the one tracking
// timer, wakes a runner waiting in the gate, and turns the machine's
// outputs into events, stored states and pause stops.
type pauseGate struct {
	host  pauseHost
	local *time.Location
	// policy: Evaluate, when set, replaces the compiled evaluation; PauseStep.
	policy Policies

	// mu is a chanLock: a step persists the task state (commitPause)
	// with it held.
	mu         chanLock
	m          pause.Machine
	sched      *schedule.Schedule
	compiled   *schedule.Compiled
	compileErr error
	committed  structs.TaskScheduleState // the Paused value last given to the host
	timer      *clock.Timer
	timerGen   uint64        // invalidates the callbacks of replaced timers
	changed    chan struct{} // closed and replaced after every step
	failure    error         // PAUSE-9's unrecoverable start error, sticky
	failEvents []pause.Event // PAUSE-9's events held until the stopped task's exit
	shut       bool
}

// pausePost is what a step leaves to do once the gate's lock is released.
type pausePost struct {
	notify bool
	stop   *driverRun
}

func (p pausePost) do(h pauseHost) {
	if p.notify {
		h.notify()
	}
	if p.stop != nil {
		h.requestPauseStop(p.stop)
	}
}

// newPauseGate returns the gate of task with schedule s (nil: unscheduled),
// reading empty and "Local" zones as local (SCHED-4; nil: UTC), deciding
// by p's Evaluate and PauseStep.
func newPauseGate(host pauseHost, task string, s *schedule.Schedule, local *time.Location, p Policies) *pauseGate {
	g := &pauseGate{host: host, local: local, policy: p, mu: newChanLock(), changed: make(chan struct{})}
	g.setScheduleLocked(s)
	g.m = pause.New(task, pause.ScheduleKey(s))
	return g
}

func (g *pauseGate) setScheduleLocked(s *schedule.Schedule) {
	g.sched, g.compiled, g.compileErr = s, nil, nil
	if s != nil {
		g.compiled, g.compileErr = schedule.Compile(s, g.local)
	}
}

// evaluateLocked evaluates the current schedule at the clock's instant
// (SCHED-8); an unscheduled task evaluates to the zero Evaluation.
func (g *pauseGate) evaluateLocked() pause.Evaluation {
	switch {
	case g.sched == nil:
		return pause.Evaluation{}
	case g.policy.Evaluate != nil:
		return pause.FromResult(g.policy.Evaluate(g.sched, g.host.now(), g.local))
	case g.compileErr != nil:
		return pause.Evaluation{Err: g.compileErr}
	}
	return pause.FromResult(g.compiled.Evaluate(g.host.now()), nil)
}

// stepLocked feeds in to the machine and applies its output: the stored
// state and events go to the host, a stop to post, the timer is re-armed,
// and waiters are woken. A boundary already due is handled inline.
func (g *pauseGate) stepLocked(in pause.Input, run *driverRun, post *pausePost) error {
	for range maxInlineBoundaries {
		next, out := g.policy.PauseStep(g.m, in)
		if out.Err != nil {
			return out.Err
		}
		g.m = next
		events := out.Events
		if out.Failed != nil {
			g.failure = out.Failed
			if out.Stop { // PAUSE-9: Task hook failed follows the exit
				g.failEvents, events = append(g.failEvents, events...), nil
			}
		}
		if stored := g.m.Stored(); stored != g.committed || len(events) > 0 {
			g.committed = stored
			g.host.commitPause(stored, taskEvents(events, g.host.now()))
			post.notify = true
		}
		if out.Stop && run != nil {
			post.stop = run
		}
		close(g.changed)
		g.changed = make(chan struct{})
		if !g.applyTimerLocked(out.Timer) {
			return nil
		}
		in = pause.OnBoundary(g.evaluateLocked(), run != nil)
	}
	return nil
}

// applyTimerLocked acts on a timer action (PAUSE-3) and reports a boundary
// that is already due, which the caller handles inline.
func (g *pauseGate) applyTimerLocked(a pause.TimerAction) (dueNow bool) {
	if !a.Set {
		return false
	}
	g.timerGen++
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	if a.At.IsZero() || g.shut {
		return false
	}
	d := a.At.Sub(g.host.now())
	if d <= 0 {
		return true
	}
	gen := g.timerGen
	g.timer = g.host.afterFunc(d, func() { g.boundary(gen) })
	return false
}

func taskEvents(evs []pause.Event, at time.Time) []*structs.TaskEvent {
	out := make([]*structs.TaskEvent, len(evs))
	for i, e := range evs {
		out[i] = e.TaskEvent(at)
	}
	return out
}

// pass is the gate in the run loop (PAUSE-3): the first arrival starts
// tracking; it returns once the gate is open, calling enter with the lock
// held so that no pause decision falls between the open gate and the
// driver run enter registers. It returns ctx's error on kill or shutdown
// and PAUSE-9's failure when the schedule cannot be evaluated.
func (g *pauseGate) pass(ctx context.Context, enter func()) error {
	var post pausePost
	g.mu.Lock()
	if !g.m.Arrived() {
		_ = g.stepLocked(pause.OnArrive(g.evaluateLocked()), nil, &post)
	}
	for {
		var err error
		switch {
		case g.failure != nil:
			err = g.failure
		case ctx.Err() != nil:
			err = ctx.Err()
		case g.m.GateOpen():
			enter()
		default:
			ch := g.changed
			g.mu.Unlock()
			post.do(g.host)
			post = pausePost{}
			select {
			case <-ch:
			case <-ctx.Done():
			}
			g.mu.Lock()
			continue
		}
		g.mu.Unlock()
		post.do(g.host)
		return err
	}
}

// failed returns PAUSE-9's failure, if any.
func (g *pauseGate) failed() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.failure
}

// exited records the live run's exit (PAUSE-5): clear runs with the lock
// held to drop the run. It returns whether the exit is pause-induced, the
// events held for after the exit and the PAUSE-9 failure.
func (g *pauseGate) exited(clear func()) (pauseInduced bool, held []pause.Event, failure error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	next, out := g.policy.PauseStep(g.m, pause.OnExited())
	g.m = next
	clear()
	held, g.failEvents = g.failEvents, nil
	return out.PauseInduced, held, g.failure
}

// set is SetTaskPauseState (PAUSE-2): stored before it returns; a stop or
// a start follows asynchronously.
func (g *pauseGate) set(s structs.TaskScheduleState) error {
	var post pausePost
	g.mu.Lock()
	var ev pause.Evaluation
	if s == structs.TaskScheduleStateScheduleResume {
		ev = g.evaluateLocked()
	}
	run := g.host.liveRun()
	err := g.stepLocked(pause.OnRequest(s, ev, run != nil), run, &post)
	g.mu.Unlock()
	post.do(g.host)
	return err
}

// get is GetTaskPauseState (PAUSE-2): the stored state.
func (g *pauseGate) get() structs.TaskScheduleState {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.Stored()
}

// boundary is the tracking timer firing (PAUSE-3).
func (g *pauseGate) boundary(gen uint64) {
	var post pausePost
	g.mu.Lock()
	if g.shut || gen != g.timerGen {
		g.mu.Unlock()
		return
	}
	g.timer = nil
	run := g.host.liveRun()
	_ = g.stepLocked(pause.OnBoundary(g.evaluateLocked(), run != nil), run, &post)
	g.mu.Unlock()
	post.do(g.host)
}

// scheduleChanged adopts an updated schedule block (PAUSE-7).
func (g *pauseGate) scheduleChanged(s *schedule.Schedule) {
	var post pausePost
	g.mu.Lock()
	key := pause.ScheduleKey(s)
	if key == g.m.Schedule() || g.shut {
		g.mu.Unlock()
		return
	}
	g.setScheduleLocked(s)
	run := g.host.liveRun()
	_ = g.stepLocked(pause.OnScheduleChange(key, g.evaluateLocked(), run != nil), run, &post)
	g.mu.Unlock()
	post.do(g.host)
}

// restore seeds the machine from a restored Paused value (PAUSE-10); run
// is the recovered live run, if any, which is pause-stopped when paused.
func (g *pauseGate) restore(stored structs.TaskScheduleState, run *driverRun) {
	var post pausePost
	g.mu.Lock()
	g.committed = stored
	var ev pause.Evaluation
	if run != nil {
		ev = g.evaluateLocked()
	}
	_ = g.stepLocked(pause.OnRestore(stored, ev, run != nil), run, &post)
	g.mu.Unlock()
	post.do(g.host)
}

// revive re-arms the gate for a dead task that is restarted: tracking
// starts again at its next arrival.
func (g *pauseGate) revive() {
	var post pausePost
	g.mu.Lock()
	g.failure, g.failEvents = nil, nil
	_ = g.stepLocked(pause.OnRestore(g.m.Stored(), pause.Evaluation{}, false), nil, &post)
	g.mu.Unlock()
	post.do(g.host)
}

// finish ends tracking: the loop finished (PAUSE-2: later requests are
// stored, without effect).
func (g *pauseGate) finish() {
	var post pausePost
	g.mu.Lock()
	if !g.m.Done() {
		_ = g.stepLocked(pause.OnFinished(), nil, &post)
	}
	g.mu.Unlock()
	post.do(g.host)
}

// shutdown stops the timer for good; the machine is left as it is.
func (g *pauseGate) shutdown() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.shut = true
	g.timerGen++
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
}
