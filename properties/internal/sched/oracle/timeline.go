// Package oracle is the suite's oracle for one scheduled task over a
// run: the stored pause state (PAUSE-1, PAUSE-2) and whether the task
// should run at every instant, from model/schedule's windows (SCHED-5,
// SCHED-6), the scenario's override calls and schedule updates; and the
// instants where that changes. It restates no rule: inside/outside is
// schedule.Evaluate, merged windows are schedule.NextWindows.
package oracle

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// Oracle is the expected pause state of task Task of job Job.
type Oracle struct {
	Job, Task string
	// Arrival is when the task first reaches the pause gate (its job's
	// registration: the suite's scenarios have no prestart delays).
	Arrival time.Time
	// Loc is the client's local zone (SCHED-4).
	Loc *time.Location
	// End is the run's end.
	End time.Time

	scheds    []schedAt
	overrides []schedAt // State only
	// compiled holds each schedule's compilation (a cron parse), made at
	// its first use: Stored evaluates the schedule in effect at every
	// instant it is asked about.
	compiled map[*schedule.Schedule]compiledSched
}

type compiledSched struct {
	c   *schedule.Compiled
	err error
}

// compile is schedule.Compile(s, o.Loc), once per schedule: what
// schedule.Evaluate and schedule.NextWindows compile before each answer.
func (o *Oracle) compile(s *schedule.Schedule) (*schedule.Compiled, error) {
	c, ok := o.compiled[s]
	if !ok {
		c.c, c.err = schedule.Compile(s, o.Loc)
		if o.compiled == nil {
			o.compiled = map[*schedule.Schedule]compiledSched{}
		}
		o.compiled[s] = c
	}
	return c.c, c.err
}

// evaluate is schedule.Evaluate(s, t, o.Loc).
func (o *Oracle) evaluate(s *schedule.Schedule, t time.Time) (schedule.Result, error) {
	c, err := o.compile(s)
	if err != nil {
		return schedule.Result{}, err
	}
	return c.Evaluate(t), nil
}

type schedAt struct {
	At    time.Time
	Sched *schedule.Schedule
	State structs.TaskScheduleState
}

// New reads the oracle of job/task off sc: the job's first registration,
// its schedule, update_schedule calls and pause/run/resume calls.
func New(sc scenario.Scenario, job, task string) *Oracle {
	o := &Oracle{Job: job, Task: task, Loc: time.UTC, End: sc.End()}
	if sc.LocalZone != "" {
		if loc, err := schedule.Location(sc.LocalZone); err == nil {
			o.Loc = loc
		}
	}
	for _, j := range sc.Jobs {
		if j.Job == nil || j.Job.ID != job || !o.Arrival.IsZero() {
			continue
		}
		o.Arrival = sc.Start.Add(j.At.D())
		for _, tg := range j.Job.TaskGroups {
			if t := tg.LookupTask(task); t != nil {
				o.scheds = append(o.scheds, schedAt{At: o.Arrival, Sched: t.Schedule})
			}
		}
	}
	for _, c := range sc.Calls {
		at := sc.Start.Add(c.At.D())
		switch {
		case c.Op == scenario.OpUpdateSchedule && c.Job == job && c.Task == task:
			o.scheds = append(o.scheds, schedAt{At: at, Sched: c.Schedule})
		case c.Op.ScheduleState() != "" && c.Task == task && len(c.Alloc) > len(job) && c.Alloc[:len(job)+1] == job+".":
			o.overrides = append(o.overrides, schedAt{At: at, State: c.Op.ScheduleState()})
		}
	}
	return o
}

// Schedule is the task's schedule in effect at t.
func (o *Oracle) Schedule(t time.Time) *schedule.Schedule {
	var s *schedule.Schedule
	for _, x := range o.scheds {
		if !x.At.After(t) {
			s = x.Sched
		}
	}
	return s
}

// Stored is the stored pause state at t (after that instant's calls).
func (o *Oracle) Stored(t time.Time) structs.TaskScheduleState {
	// The requests that stored a state by t: none while the task has no
	// schedule (`has no schedule`), no failed schedule_resume (PAUSE-2:
	// the state kept); a schedule removal since the last one clears it
	// (PAUSE-7: removing the schedule sets "").
	st := structs.TaskScheduleStateScheduleResume
	var stAt time.Time
	for _, x := range o.overrides {
		if x.At.After(t) || o.Schedule(x.At) == nil {
			continue
		}
		if x.State != structs.TaskScheduleStateScheduleResume || o.ResumeError(x.At) == nil {
			st, stAt = x.State, x.At
		}
	}
	for _, x := range o.scheds {
		if x.Sched == nil && !x.At.After(t) && x.At.After(stAt) {
			st = structs.TaskScheduleStateScheduleResume
		}
	}
	if st == structs.TaskScheduleStateForcePause || st == structs.TaskScheduleStateForceRun {
		return st
	}
	s := o.Schedule(t)
	if s == nil {
		return structs.TaskScheduleStateRun
	}
	r, err := o.evaluate(s, t)
	if err != nil || !r.Inside {
		return structs.TaskScheduleStateSchedulePause
	}
	return structs.TaskScheduleStateRun
}

// ResumeError is the error of a schedule_resume at t: the evaluation
// error of the schedule then in effect, which the request returns,
// keeping the stored state (PAUSE-2); nil for none.
func (o *Oracle) ResumeError(t time.Time) error {
	s := o.Schedule(t)
	if s == nil {
		return nil
	}
	_, err := o.evaluate(s, t)
	return err
}

// Run reports whether the task should run at t.
func (o *Oracle) Run(t time.Time) bool { return !o.Stored(t).Paused() }

// Change is one instant where the expected effective state changes.
type Change struct {
	At     time.Time
	Run    bool
	Stored structs.TaskScheduleState
}

// Changes lists the instants in [Arrival, End) where Run changes, the
// task being not running (and not paused) before its arrival; the first
// is at Arrival when the task arrives paused or inside.
func (o *Oracle) Changes() []Change {
	pts := []time.Time{o.Arrival}
	for _, x := range o.overrides {
		pts = append(pts, x.At)
	}
	for i, x := range o.scheds {
		pts = append(pts, x.At)
		if x.Sched == nil {
			continue
		}
		to := o.End
		if i+1 < len(o.scheds) {
			to = o.scheds[i+1].At
		}
		c, err := o.compile(x.Sched)
		if err != nil {
			continue
		}
		ws := c.NextWindows(x.At, 64) // schedule.NextWindows
		for _, w := range ws {
			pts = append(pts, w.Start)
			if !w.End.IsZero() {
				pts = append(pts, w.End)
			}
			if !w.Start.Before(to) {
				break
			}
		}
	}
	slices.SortFunc(pts, func(a, b time.Time) int { return a.Compare(b) })
	pts = slices.CompactFunc(pts, func(a, b time.Time) bool { return a.Equal(b) })
	var out []Change
	prev, paused := false, false
	for _, p := range pts {
		if p.Before(o.Arrival) || !p.Before(o.End) {
			continue
		}
		st := o.Stored(p)
		run := !st.Paused()
		first := p.Equal(o.Arrival)
		if run != prev || (first && st.Paused() != paused) {
			out = append(out, Change{At: p, Run: run, Stored: st})
		}
		prev, paused = run, st.Paused()
	}
	return out
}

// Event is a task event as the trace records it.
type Event struct {
	Type, Display, Message string
	Details                map[string]string
}

// EventOf decodes a task_event record.
func EventOf(r trace.Record) Event {
	var d struct {
		Display string            `json:"display"`
		Message string            `json:"message"`
		Details map[string]string `json:"details"`
	}
	_ = json.Unmarshal(r.Data, &d)
	return Event{Type: r.Msg, Display: d.Display, Message: d.Message, Details: d.Details}
}

// APIResult decodes an api record's result.
func APIResult(r trace.Record) (state, errMsg string) {
	var d struct {
		State string `json:"state"`
		Error string `json:"error"`
	}
	_ = json.Unmarshal(r.Data, &d)
	return d.State, d.Error
}
