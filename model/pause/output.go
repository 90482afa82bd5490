package pause

import (
	"time"

	"github.com/allocsim/allocsim/model/structs"
)

// Event is a task event the runner appends (PAUSE-4, PAUSE-9, SCHED-9).
type Event struct {
	Type           string
	DisplayMessage string
	Message        string
}

// TaskEvent builds the event at instant at, setting Message (with its
// Details entry, DATA-7) and the explicit DisplayMessage when present.
func (e Event) TaskEvent(at time.Time) *structs.TaskEvent {
	ev := structs.NewTaskEvent(e.Type, at)
	if e.Message != "" {
		ev.SetMessage(e.Message)
	}
	if e.DisplayMessage != "" {
		ev.SetDisplayMessage(e.DisplayMessage)
	}
	return ev
}

// HookName is the task hook that owns the pause gate (AR-5); it prefixes
// the Task hook failed message of PAUSE-9.
const HookName = "pause"

// MsgNoFutureStart is the Task hook message of SCHED-9, verbatim.
const MsgNoFutureStart = "Schedule has no future start time; task will remain paused"

// Events of the machine.
var (
	eventPausingSchedule = Event{Type: structs.TaskPausing, DisplayMessage: structs.DisplayPausingSchedule}
	eventPausingOverride = Event{Type: structs.TaskPausing, DisplayMessage: structs.DisplayPausingOverride}
	eventRunningSchedule = Event{Type: structs.TaskRunning, DisplayMessage: structs.DisplayRunningSchedule}
	eventRunningOverride = Event{Type: structs.TaskRunning, DisplayMessage: structs.DisplayRunningOverride}
	eventNoFutureStart   = Event{Type: structs.TaskHookMessage, DisplayMessage: MsgNoFutureStart, Message: MsgNoFutureStart}
)

// transitionEvent is PAUSE-4's event for entering stored state s across
// the paused/not-paused line.
func transitionEvent(s structs.TaskScheduleState) Event {
	switch s {
	case structs.TaskScheduleStateSchedulePause:
		return eventPausingSchedule
	case structs.TaskScheduleStateForcePause:
		return eventPausingOverride
	case structs.TaskScheduleStateForceRun:
		return eventRunningOverride
	default:
		return eventRunningSchedule
	}
}

// hookFailedEvent is PAUSE-9's event, Message `pause: <err>`.
func hookFailedEvent(err error) Event {
	msg := HookName + ": " + err.Error()
	return Event{Type: structs.TaskHookFailed, DisplayMessage: msg, Message: msg}
}

// TimerAction tells the runner what to do with its one tracking timer
// (PAUSE-3). Set false: leave it as it is. Set true: cancel it, then arm
// one at At unless At is zero.
type TimerAction struct {
	Set bool
	At  time.Time
}

// Output is what one input makes the runner do, in this order: stop the
// live task (Stop), append Events in order, act on Timer, then report
// Failed / Err.
type Output struct {
	// Events to append, in order: Pausing or Running (PAUSE-4), then the
	// SCHED-9 notice; or PAUSE-9's Task hook failed, appended after the
	// stop completed.
	Events []Event
	// Stop: the task's live driver handle must be stopped as a pause stop
	// (PAUSE-5: kill signal and capped timeout, prekill hooks, no Killing
	// event) or, with Failed, as PAUSE-9's stop. Only set when the input
	// said Live and no pause stop is already in flight.
	Stop bool
	// GateOpen: a TR in the gate may pass to driver start (PAUSE-3).
	GateOpen bool
	// Tracking: schedule tracking is active after the input (PAUSE-3).
	Tracking bool
	// Timer is the tracking timer action (PAUSE-3).
	Timer TimerAction
	// PauseInduced (Exited only): the exit is pause-induced, for the
	// restart tracker (PAUSE-5, PAUSE-6).
	PauseInduced bool
	// Failed is PAUSE-9's unrecoverable start error; the machine is done.
	Failed error
	// Err rejects a request (PAUSE-2); nothing changed.
	Err error
}
