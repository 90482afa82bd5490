package taskrunner

import (
	"time"

	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/restart"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

// Policies are the SPEC decisions the task runner takes from model/, each
// a function of plain inputs that a mutant of impl/mutants may replace by
// a wrong one. A nil field is model/'s rule (named after it): the zero
// value is the reference task runner.
type Policies struct {
	Evaluate    ScheduleEvaluator                                                             // SCHED-8: model/schedule's, compiled once per schedule
	PauseStep   func(m pause.Machine, in pause.Input) (pause.Machine, pause.Output)           // PAUSE-2..10, SCHED-9: pause.Machine.Step
	AppendEvent func(ts *structs.TaskState, ev *structs.TaskEvent)                            // DATA-6, DATA-8: (*structs.TaskState).AppendEvent
	Restart     func(t *restart.Tracker, now time.Time, draw func() float64) restart.Decision // AR-7, draw the jitter's: (*restart.Tracker).GetState
	// PauseStopEvent is the event a pause stop appends before its kill
	// signal, RecoveredEvent the one a recovered handle's run appends:
	// none (PAUSE-5: no Killing; STATE-4: no second Started).
	PauseStopEvent func(task *structs.Task, maxKillTimeout time.Duration, at time.Time) *structs.TaskEvent
	RecoveredEvent func(at time.Time) *structs.TaskEvent
}

// ScheduleEvaluator evaluates schedule s at instant at, reading empty and
// "Local" zones as local (the signature of model/schedule.Evaluate).
type ScheduleEvaluator func(s *schedule.Schedule, at time.Time, local *time.Location) (schedule.Result, error)

// withDefaults returns p with model/'s rule in every nil field but
// Evaluate (nil: the compiled evaluation).
func (p Policies) withDefaults() Policies {
	if p.PauseStep == nil {
		p.PauseStep = pause.Machine.Step
	}
	if p.AppendEvent == nil {
		p.AppendEvent = (*structs.TaskState).AppendEvent
	}
	if p.Restart == nil {
		p.Restart = (*restart.Tracker).GetState
	}
	if p.PauseStopEvent == nil {
		p.PauseStopEvent = func(*structs.Task, time.Duration, time.Time) *structs.TaskEvent { return nil }
	}
	if p.RecoveredEvent == nil {
		p.RecoveredEvent = func(time.Time) *structs.TaskEvent { return nil }
	}
	return p
}
