package restart

import (
	"time"

	"github.com/allocsim/allocsim/model/structs"
)

// State is the outcome of a restart decision (AR-7). Its values are the
// task event types they correspond to.
type State string

// Decision outcomes (AR-7).
const (
	// Restarting: the task goes pending and starts again after Delay.
	Restarting State = structs.TaskRestarting
	// NotRestarting: the task ends dead and failed (FailsTask).
	NotRestarting State = structs.TaskNotRestarting
	// Terminated: the task ends dead, not failed; no further event.
	Terminated State = structs.TaskTerminated
	// Killed: the task is being killed; the kill path appends its events.
	Killed State = structs.TaskKilled
)

// Decision is one AR-7 decision.
type Decision struct {
	State State
	// Delay before the restart (Restarting only).
	Delay time.Duration
	// Reason is one of the AR-7 reasons, empty for triggered and
	// pause-induced restarts and for Killed.
	Reason string
	// ConsumesAttempt reports whether the decision used a policy attempt
	// (AR-7 (4)).
	ConsumesAttempt bool
}

// Reasons of SPEC AR-7, verbatim. They become a Restarting or Not
// Restarting event's RestartReason.
const (
	ReasonNoRestartsAllowed     = "Policy allows no restarts"
	ReasonUnrecoverableError    = "Error was unrecoverable"
	ReasonWithinPolicy          = structs.ReasonWithinPolicy // "Restart within policy"
	ReasonDelay                 = "Exceeded allowed attempts, applying a delay"
	ReasonSuccessfulTermination = "Restart unnecessary as task terminated successfully"

	// ReasonExceededFailFormat is AR-7's fail-mode reason; format it with
	// FailReason.
	ReasonExceededFailFormat = `Exceeded allowed attempts %d in interval %v and mode is "fail"`
)

// FailsTask reports whether the decision fails the task (Not Restarting).
func (d Decision) FailsTask() bool { return d.State == NotRestarting }

// Event returns the task event the decision appends at instant at:
// Restarting (StartDelay, RestartReason) or Not Restarting
// (RestartReason, FailsTask); nil for Terminated and Killed, which append
// nothing themselves (AR-6).
func (d Decision) Event(at time.Time) *structs.TaskEvent {
	switch d.State {
	case Restarting:
		return structs.NewTaskEvent(structs.TaskRestarting, at).
			SetStartDelay(d.Delay).SetRestartReason(d.Reason)
	case NotRestarting:
		return structs.NewTaskEvent(structs.TaskNotRestarting, at).
			SetRestartReason(d.Reason).SetFailsTask()
	default:
		return nil
	}
}
