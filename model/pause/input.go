package pause

import (
	"errors"
	"fmt"

	"github.com/allocsim/allocsim/model/structs"
)

// Kind is the kind of an input to the machine.
type Kind int

// Input kinds.
const (
	// KindRequest is SetTaskPauseState (PAUSE-2): State is force_pause,
	// force_run or schedule_resume; Eval is the evaluation at the request
	// instant (used for schedule_resume only).
	KindRequest Kind = iota + 1
	// KindArrive: the TR reached the gate (PAUSE-3). The first arrival
	// starts tracking; Eval is the evaluation at that instant (used when
	// the stored state is not an override).
	KindArrive
	// KindBoundary: the tracking timer fired; Eval is the evaluation at
	// the boundary (PAUSE-3). Ignored when tracking is not active.
	KindBoundary
	// KindScheduleChange: an update changed the schedule block (PAUSE-7).
	// Schedule is the new ScheduleKey ("" = removed); Eval is the new
	// schedule's evaluation at the update instant.
	KindScheduleChange
	// KindRestore: the TR restored its task state (PAUSE-10). State is the
	// restored Paused value; Live reports a recovered live handle, in which
	// case Eval is the evaluation at the restore instant.
	KindRestore
	// KindExited: the driver reported the task's exit (PAUSE-5).
	KindExited
	// KindFinished: the TR's loop finished for good (PAUSE-2: later
	// requests are stored without effect).
	KindFinished
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindRequest:
		return "request"
	case KindArrive:
		return "arrive"
	case KindBoundary:
		return "boundary"
	case KindScheduleChange:
		return "schedule-change"
	case KindRestore:
		return "restore"
	case KindExited:
		return "exited"
	case KindFinished:
		return "finished"
	default:
		return "unknown"
	}
}

// Input is one thing that happens to a task's pause state.
type Input struct {
	Kind     Kind
	State    structs.TaskScheduleState
	Schedule string
	Eval     Evaluation
	// Live reports that the TR holds a live driver handle at the instant
	// of the input (the task runs, or is being stopped).
	Live bool
}

// OnRequest is a SetTaskPauseState request (PAUSE-2).
func OnRequest(s structs.TaskScheduleState, ev Evaluation, live bool) Input {
	return Input{Kind: KindRequest, State: s, Eval: ev, Live: live}
}

// OnArrive is the TR reaching the gate (PAUSE-3); no handle is live there.
func OnArrive(ev Evaluation) Input { return Input{Kind: KindArrive, Eval: ev} }

// OnBoundary is the tracking timer firing (PAUSE-3).
func OnBoundary(ev Evaluation, live bool) Input {
	return Input{Kind: KindBoundary, Eval: ev, Live: live}
}

// OnScheduleChange is an update adopting schedule key (PAUSE-7).
func OnScheduleChange(key string, ev Evaluation, live bool) Input {
	return Input{Kind: KindScheduleChange, Schedule: key, Eval: ev, Live: live}
}

// OnRestore is a restored task state (PAUSE-10).
func OnRestore(s structs.TaskScheduleState, ev Evaluation, live bool) Input {
	return Input{Kind: KindRestore, State: s, Eval: ev, Live: live}
}

// OnExited is the driver reporting the task's exit.
func OnExited() Input { return Input{Kind: KindExited} }

// OnFinished is the TR's loop finishing for good.
func OnFinished() Input { return Input{Kind: KindFinished} }

// MsgInvalidState rejects a request that is none of force_pause, force_run
// and schedule_resume (PAUSE-1, API-2's wording).
const MsgInvalidState = "Not a valid task schedule state"

// ErrInvalidState is returned for a request with an unknown state.
var ErrInvalidState = errors.New(MsgInvalidState)

// NoScheduleError is PAUSE-2's error for a request on an unscheduled task:
// `task "<name>" has no schedule`.
func NoScheduleError(task string) error {
	return fmt.Errorf("task %q has no schedule", task)
}
