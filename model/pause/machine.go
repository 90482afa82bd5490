package pause

import (
	"fmt"
	"slices"

	"github.com/allocsim/allocsim/model/structs"
)

// Machine is one task's pause state (SPEC §4) as a plain value. Step
// returns the next value and leaves the receiver unchanged, so a Machine
// can be copied, compared and replayed freely.
type Machine struct {
	task     string
	schedule string                    // ScheduleKey; "" = unscheduled
	stored   structs.TaskScheduleState // TaskState.Paused (PAUSE-1)
	paused   bool                      // effective state the events follow (PAUSE-4)
	arrived  bool                      // the TR reached the gate: effects and tracking are on (PAUSE-3)
	done     bool                      // loop finished for good, or PAUSE-9
	stopping bool                      // a pause stop is in flight (PAUSE-5)
	noticed  []string                  // schedules already given the SCHED-9 notice
}

// New returns the machine of task whose schedule has key scheduleKey
// (ScheduleKey): stored "", not paused, not yet at the gate.
func New(task, scheduleKey string) Machine {
	return Machine{task: task, schedule: scheduleKey}
}

// Stored is the stored state (TaskState.Paused, GetTaskPauseState); never
// schedule_resume (PAUSE-1).
func (m Machine) Stored() structs.TaskScheduleState { return m.stored }

// Paused is the effective paused state the events follow (PAUSE-4).
func (m Machine) Paused() bool { return m.paused }

// Schedule is the current schedule key.
func (m Machine) Schedule() string { return m.schedule }

// Arrived reports that the TR reached the gate at least once.
func (m Machine) Arrived() bool { return m.arrived }

// Done reports that the loop finished for good or the hook failed.
func (m Machine) Done() bool { return m.done }

// Stopping reports a pause stop whose exit has not been seen yet.
func (m Machine) Stopping() bool { return m.stopping }

// Tracking reports whether schedule tracking is active (PAUSE-3): after
// the first arrival, while scheduled, not overridden and not done.
func (m Machine) Tracking() bool {
	return m.active() && m.schedule != "" && !m.stored.Override()
}

// GateOpen reports whether a TR in the gate may pass (PAUSE-3).
func (m Machine) GateOpen() bool { return m.active() && !m.paused }

// active: stored-state changes have effects (events, stops, timers).
func (m Machine) active() bool { return m.arrived && !m.done }

// Step applies one input and returns the next machine and what the runner
// must do.
func (m Machine) Step(in Input) (Machine, Output) {
	var out Output
	switch in.Kind {
	case KindRequest:
		m.request(in, &out)
	case KindArrive:
		m.arrive(in, &out)
	case KindBoundary:
		if m.Tracking() { // else a stale timer: ignore
			m.evaluate(in.Eval, in.Live, &out)
		}
	case KindScheduleChange:
		m.changeSchedule(in, &out)
	case KindRestore:
		m.restore(in, &out)
	case KindExited:
		out.PauseInduced = m.stopping
		m.stopping = false
	case KindFinished:
		m.finish(&out)
	}
	out.GateOpen, out.Tracking = m.GateOpen(), m.Tracking()
	return m, out
}

// request is PAUSE-2: overrides are stored as given and suspend tracking;
// schedule_resume evaluates and stores "" or scheduled_pause, resuming
// tracking; an evaluation error is returned with the state kept.
func (m *Machine) request(in Input, out *Output) {
	if m.schedule == "" {
		out.Err = NoScheduleError(m.task)
		return
	}
	switch in.State {
	case structs.TaskScheduleStateForcePause, structs.TaskScheduleStateForceRun:
		wasTracking := m.Tracking()
		m.store(in.State, in.Live, out)
		if wasTracking {
			out.Timer = TimerAction{Set: true}
		}
	case structs.TaskScheduleStateScheduleResume:
		if in.Eval.Err != nil {
			out.Err = in.Eval.Err
			return
		}
		m.apply(in.Eval, in.Live, out)
	default:
		out.Err = ErrInvalidState
	}
}

// arrive is PAUSE-3/PAUSE-4: the first arrival turns effects on and starts
// tracking, emitting only a change of the effective state (so no Running
// when first arriving inside); later arrivals change nothing.
func (m *Machine) arrive(in Input, out *Output) {
	if m.arrived || m.done {
		return
	}
	m.arrived = true
	if !m.Tracking() { // unscheduled or overridden: follow the stored state
		m.follow(false, out)
		return
	}
	m.evaluate(in.Eval, false, out)
}

// changeSchedule is PAUSE-7: removal stores ""; a new schedule is
// re-evaluated at once when tracking (an unscheduled task that passed the
// gate starts tracking), else adopted at the first arrival or the next
// schedule_resume.
func (m *Machine) changeSchedule(in Input, out *Output) {
	if in.Schedule == m.schedule {
		return
	}
	wasTracking := m.Tracking()
	m.schedule = in.Schedule
	if m.schedule == "" {
		m.store(structs.TaskScheduleStateRun, in.Live, out)
		if wasTracking {
			out.Timer = TimerAction{Set: true}
		}
		return
	}
	if m.Tracking() {
		m.evaluate(in.Eval, in.Live, out)
	}
}

// restore is PAUSE-10: the restored state seeds the effective one; an
// override is kept, other states are re-evaluated at the gate. A recovered
// live task has passed the gate already: tracking resumes at once, and if
// the task is paused it is pause-stopped.
func (m *Machine) restore(in Input, out *Output) {
	s := in.State
	switch {
	case m.schedule == "", !validStored(s):
		s = structs.TaskScheduleStateRun
	}
	m.stored, m.paused = s, s.Paused()
	m.arrived, m.done, m.stopping = false, false, false
	if !in.Live {
		return
	}
	m.arrived = true
	if m.Tracking() {
		m.evaluate(in.Eval, true, out)
	}
	if m.paused && !m.done && !m.stopping {
		out.Stop, m.stopping = true, true
	}
}

// finish ends the machine (PAUSE-2: later requests are stored, without
// effect).
func (m *Machine) finish(out *Output) {
	if m.Tracking() {
		out.Timer = TimerAction{Set: true}
	}
	m.done, m.stopping = true, false
}

// evaluate applies a runtime evaluation (gate, timer, update, restore),
// failing the hook on an error (PAUSE-9).
func (m *Machine) evaluate(ev Evaluation, live bool, out *Output) {
	if ev.Err != nil {
		m.fail(ev.Err, live, out)
		return
	}
	m.apply(ev, live, out)
}

// apply stores the evaluation's state, re-arms the tracking timer and
// gives SCHED-9's notice once per distinct schedule.
func (m *Machine) apply(ev Evaluation, live bool, out *Output) {
	s := structs.TaskScheduleStateSchedulePause
	if ev.Inside {
		s = structs.TaskScheduleStateRun
	}
	m.store(s, live, out)
	if !m.Tracking() {
		return // before the first arrival or after the end: stored only
	}
	out.Timer = TimerAction{Set: true, At: ev.Boundary()}
	if ev.noFutureStart() && !slices.Contains(m.noticed, m.schedule) {
		m.noticed = append(slices.Clip(m.noticed), m.schedule)
		out.Events = append(out.Events, eventNoFutureStart)
	}
}

// fail is PAUSE-9: stop a live task (no Pausing, no Restarting), append
// Task hook failed, report an unrecoverable start error; the machine is
// done and tracking stops. The stored state is kept.
func (m *Machine) fail(err error, live bool, out *Output) {
	if m.Tracking() {
		out.Timer = TimerAction{Set: true}
	}
	out.Stop = live && !m.stopping
	out.Events = append(out.Events, hookFailedEvent(err))
	out.Failed = fmt.Errorf("%s: %w", HookName, err)
	m.done, m.stopping = true, false
}

// store sets the stored state; once effects are on, the effective state
// follows it.
func (m *Machine) store(s structs.TaskScheduleState, live bool, out *Output) {
	m.stored = s
	if m.active() {
		m.follow(live, out)
	}
}

// follow is PAUSE-4/PAUSE-5: crossing the paused line appends Pausing or
// Running per the stored state; becoming paused with a live handle stops
// the task unless a pause stop is already in flight. Moves that stay on
// one side (force_pause <-> scheduled_pause, force_run <-> "") append
// nothing.
func (m *Machine) follow(live bool, out *Output) {
	p := m.stored.Paused()
	if p == m.paused {
		return
	}
	m.paused = p
	out.Events = append(out.Events, transitionEvent(m.stored))
	if p && live && !m.stopping {
		out.Stop, m.stopping = true, true
	}
}

// validStored reports a state that may be stored (PAUSE-1).
func validStored(s structs.TaskScheduleState) bool {
	switch s {
	case structs.TaskScheduleStateRun, structs.TaskScheduleStateSchedulePause,
		structs.TaskScheduleStateForceRun, structs.TaskScheduleStateForcePause:
		return true
	}
	return false
}
