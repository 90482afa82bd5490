package pause

import (
	"errors"
	"fmt"
)

// HookName is the task hook that owns the pause gate (AR-5); it prefixes
// the Task hook failed message of PAUSE-9.
const HookName = "pause"

// MsgNoFutureStart is the Task hook message of SCHED-9, verbatim.
const MsgNoFutureStart = "Schedule has no future start time; task will remain paused"

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

// hookFailedMessage is PAUSE-9's Task hook failed Message: `pause: <err>`.
func hookFailedMessage(err error) string { return HookName + ": " + err.Error() }
