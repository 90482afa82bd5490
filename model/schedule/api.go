package schedule

import (
	"errors"
	"time"
)

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
// time.Time values mean "none".
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

var errNotImplemented = errors.New("not implemented")

// Validate is SPEC SCHED-2. (contract stub: replaced by the implementation)
func Validate(s *Schedule, p Profile) error { return errNotImplemented }

// Evaluate is SPEC SCHED-8. (contract stub: replaced by the implementation)
func Evaluate(s *Schedule, at time.Time, local *time.Location) (Result, error) {
	return Result{}, errNotImplemented
}

// NextWindows lists the next n merged windows after at (SPEC SCHED-8).
// (contract stub: replaced by the implementation)
func NextWindows(s *Schedule, at time.Time, local *time.Location, n int) ([]Window, error) {
	return nil, errNotImplemented
}
