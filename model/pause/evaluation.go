package pause

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
)

// Evaluation is what the machine needs of one schedule evaluation
// (SCHED-8) at the instant of an input. Callers build it from
// schedule.Evaluate with FromResult; the machine never evaluates itself.
type Evaluation struct {
	// Inside reports that the instant is inside a window.
	Inside bool
	// WindowEnd is the end of the current merged window (inside only);
	// zero if it never closes.
	WindowEnd time.Time
	// NextStart is the next window start; zero if none (SCHED-9).
	NextStart time.Time
	// Err is the evaluation error, if any (PAUSE-2, PAUSE-9).
	Err error
}

// FromResult adapts schedule.Evaluate's return values.
func FromResult(r schedule.Result, err error) Evaluation {
	return Evaluation{Inside: r.Inside, WindowEnd: r.WindowEnd, NextStart: r.NextStart, Err: err}
}

// Boundary is the instant tracking re-evaluates at (PAUSE-3): WindowEnd
// inside, NextStart outside; zero means no timer.
func (e Evaluation) Boundary() time.Time {
	if e.Inside {
		return e.WindowEnd
	}
	return e.NextStart
}

// noFutureStart reports SCHED-9's condition: outside with no next start,
// so the task stays scheduled_pause for good.
func (e Evaluation) noFutureStart() bool { return !e.Inside && e.NextStart.IsZero() }

// ScheduleKey identifies a task's schedule block for the machine: "" for
// an unscheduled task (nil), a distinct non-empty key for every distinct
// schedule, a nil Cron included (it counts as set, SCHED-1). Two schedules
// with equal keys are the same schedule (PAUSE-7, SCHED-9).
func ScheduleKey(s *schedule.Schedule) string {
	if s == nil {
		return ""
	}
	if s.Cron == nil {
		return "cron:<nil>"
	}
	return fmt.Sprintf("cron:%q %q %q", s.Cron.Start, s.Cron.End, s.Cron.Timezone)
}
