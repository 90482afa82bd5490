package schedule

import "time"

// Profile is the client configuration profile of SPEC SCOPE-2.
type Profile string

const (
	// ProfileEnt supports task schedules.
	ProfileEnt Profile = "ent"
	// ProfileCE rejects any job with a task schedule.
	ProfileCE Profile = "ce"
)

// Schedule is a task's schedule block (SPEC DATA-4). A nil *Schedule means
// the task is unscheduled; a non-nil Schedule with a nil Cron counts as set.
type Schedule struct {
	Cron *Cron `json:"Cron"`
}

// Cron is the cron block of a task schedule (SPEC SCHED-3, SCHED-4).
type Cron struct {
	Start    string `json:"Start"`
	End      string `json:"End"`
	Timezone string `json:"Timezone"`
}

// Result is what Evaluate reports at one instant (SPEC SCHED-8). Zero
// time.Time values mean "none"; the others are in the schedule's zone
// (compare them with Equal).
//
// Inside: WindowStart and WindowEnd bound the merged window holding the
// instant (WindowEnd zero: it never closes), NextStart is the first start
// at or after WindowEnd. Outside: both window fields are zero and NextStart
// is the first start after the instant. NextEnd closes the window NextStart
// opens.
type Result struct {
	Inside      bool
	WindowStart time.Time
	WindowEnd   time.Time
	NextStart   time.Time
	NextEnd     time.Time
}

// Window is one merged window [Start, End); a zero End never closes.
type Window struct {
	Start time.Time
	End   time.Time
}

// Evaluate is SPEC SCHED-8: whether at is inside a window of s read in its
// zone, the current merged window, and the next one. local is the client's
// local zone for Timezone "" or "Local" (SCHED-4; nil means UTC). Errors are
// those of Compile. To evaluate one schedule many times, Compile it once.
func Evaluate(s *Schedule, at time.Time, local *time.Location) (Result, error) {
	c, err := Compile(s, local)
	if err != nil {
		return Result{}, err
	}
	return c.Evaluate(at), nil
}

// NextWindows lists the next n merged windows at or after at (SCHED-8): if
// at is inside a window, the first is the merged window holding it
// (WindowStart..WindowEnd of Evaluate), and each further one is the merged
// window opened by the first start at or after the previous one's end. The
// list is shorter than n when no start follows, and ends with a zero End
// when a window never closes. Errors are those of Compile.
func NextWindows(s *Schedule, at time.Time, local *time.Location, n int) ([]Window, error) {
	c, err := Compile(s, local)
	if err != nil {
		return nil, err
	}
	return c.NextWindows(at, n), nil
}
