package pause

import (
	"errors"
	"fmt"
)

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
