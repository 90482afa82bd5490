package pausing

import (
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

const (
	work = "work"
	side = "side"
)

// Properties lists the package's properties in suite order.
func Properties() []prop.Property {
	return []prop.Property{apiStates, eventsExact, stopAtWindowEnd, noAttempt, scheduleChange, restoreOverrides, signals, evalError}
}

// windowed draws a scheduled task whose windows open and close within a
// run of mins minutes, with up to calls override calls.
func windowed(d *prop.Drawer, mins, calls int) sched.Spec {
	local, tz, loc := sched.DrawZones(d, sched.Zones)
	start := sched.DrawDay(d, true).Add(d.Duration("start", 0, 24*time.Hour-time.Minute, time.Minute))
	open := start.Add(time.Duration(d.IntRange("opens min", 1, mins/2)) * time.Minute).In(loc)
	m, h := open.Minute(), open.Hour()
	shut := open.Add(time.Duration(d.IntRange("window min", 1, mins/2-1)) * time.Minute)
	cfg := map[string]any{}
	if ms := d.IntRange("kill after ms", 0, 2000); ms > 0 {
		cfg["kill_after"] = (time.Duration(ms) * time.Millisecond).String()
	}
	return sched.Spec{Start: start, Duration: time.Duration(mins) * time.Minute, LocalZone: local,
		Cron:   &schedule.Cron{Start: fmt.Sprintf("%d %d * * * *", m, h), End: fmt.Sprintf("%d %d", shut.Minute(), shut.Hour()), Timezone: tz},
		Config: cfg, Calls: sched.Calls(d, calls, 1, mins)}
}

// eventsExact: PAUSE-4 against the oracle's changes.
var eventsExact = prop.Property{
	ID:    "PAUSE-4/events-exact",
	Specs: []string{"PAUSE-4", "PAUSE-3"},
	Doc:   "Pausing and Running events appear exactly at the effective paused/not-paused changes, with their DisplayMessages, and never otherwise",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		s := windowed(d, d.IntRange("run min", 10, 40), 4)
		s.Side = d.Bool("side")
		// One run in three starts inside the first window (no Running
		// before the first Started); one in three turns the task not
		// paused again 2 s into a pause stop whose exit takes 4 s.
		if w, ok := firstWindow(s); ok && d.IntRange("arrive inside", 0, 2) == 0 {
			s.Start = w.Start.Add(time.Duration(d.IntRange("arrive inside min", 0, int(w.End.Sub(w.Start)/time.Minute)-1)) * time.Minute)
		}
		if d.IntRange("resume in stop", 0, 2) == 0 {
			drawResumeInStop(d, &s)
		}
		return s.Build()
	},
	Situations: eventSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		o := oracle.New(sc, "sj", work)
		er := newEventReach(sc, o)
		type want struct {
			at           time.Time
			typ, display string
		}
		var exp []want
		for _, c := range o.Changes() {
			switch {
			case c.Run && c.At.Equal(o.Arrival):
				// arriving inside: no Running before the first Started
			case c.Run && c.Stored == structs.TaskScheduleStateForceRun:
				exp = append(exp, want{c.At, structs.TaskRunning, structs.DisplayRunningOverride})
			case c.Run:
				exp = append(exp, want{c.At, structs.TaskRunning, structs.DisplayRunningSchedule})
			case c.Stored == structs.TaskScheduleStateForcePause:
				exp = append(exp, want{c.At, structs.TaskPausing, structs.DisplayPausingOverride})
			default:
				exp = append(exp, want{c.At, structs.TaskPausing, structs.DisplayPausingSchedule})
			}
		}
		next := 0
		return prop.Checks{OnSettled: func(v *prop.View) {
			er.settled(v)
			for _, r := range v.New {
				if r.Kind != trace.KindTaskEvent || r.Task != work || (r.Msg != structs.TaskPausing && r.Msg != structs.TaskRunning) {
					continue
				}
				ev := oracle.EventOf(r)
				got := ev.Type + " " + fmt.Sprintf("%q", ev.Display)
				if next >= len(exp) {
					v.Violatef(r.Alloc, work, "pause event", got, "none (no effective change)")
					return
				}
				w := exp[next]
				if ev.Type != w.typ || ev.Display != w.display || !r.At.Equal(w.at) {
					v.Violatef(r.Alloc, work, "pause event", got+" @"+prop.When(r.At, nil), w.typ+" "+fmt.Sprintf("%q", w.display)+" @"+prop.When(w.at, nil))
					return
				}
				next++
			}
			if next < len(exp) && v.Now().After(exp[next].at) {
				w := exp[next]
				v.Violate(prop.Violation{At: w.at, Task: work, What: "pause event", Got: "none", Want: w.typ + " " + fmt.Sprintf("%q", w.display)})
			}
		}, OnFinal: func(v *prop.View) {
			if next < len(exp) && exp[next].at.Before(v.Now()) {
				w := exp[next]
				v.Violate(prop.Violation{At: w.at, Task: work, What: "pause event", Got: "none", Want: w.typ + " " + fmt.Sprintf("%q", w.display)})
			}
		}}
	},
}

// apiStates: PAUSE-2 through the API.
var apiStates = prop.Property{
	ID:    "PAUSE-2/api-state-machine",
	Specs: []string{"PAUSE-2", "PAUSE-1", "API-2"},
	Doc:   "pause/run/resume store the requested state, get_pause returns the stored state, an unknown task is `Task not found` and Set on an unscheduled task is `task \"<name>\" has no schedule`",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		s := windowed(d, d.IntRange("run min", 10, 30), 4)
		s.Side = true
		mins := int(s.Duration / time.Minute)
		for i := 0; i < d.IntRange("gets", 1, 5); i++ {
			at := scenario.Duration(time.Duration(d.IntRange("get at min", 0, mins-1))*time.Minute + 40*time.Second)
			task := prop.Pick(d, "get task", []string{work, work, side, "nope"})
			op := scenario.OpGetPause
			if task != work {
				op = prop.Pick(d, "get op", []scenario.Op{scenario.OpGetPause, scenario.OpPause, scenario.OpRun, scenario.OpResume})
			}
			s.Calls = append(s.Calls, scenario.Call{At: at, Op: op, Alloc: sched.AllocName, Task: task})
		}
		drawResumeError(d, &s, mins)
		drawAfterLoop(d, &s, mins)
		sc := s.Build()
		sortCalls(sc.Calls)
		return sc
	},
	Situations: apiSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		o := oracle.New(sc, "sj", work)
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, r := range v.New {
				if r.Kind != trace.KindAPI {
					continue
				}
				reachAPI(v, o, r)
				state, e := oracle.APIResult(r)
				var want, got string
				switch {
				case r.Task == "nope":
					got, want = e, "Task not found"
				case r.Task == side && r.Op == string(scenario.OpGetPause):
					got, want = fmt.Sprintf("%q %q", state, e), `"" ""`
				case r.Task == side:
					got, want = e, fmt.Sprintf("task %q has no schedule", side)
				case r.Op == string(scenario.OpGetPause):
					got, want = fmt.Sprintf("%q %q", state, e), fmt.Sprintf("%q %q", o.Stored(r.At), "")
				case r.Op == string(scenario.OpResume) && o.ResumeError(r.At) != nil:
					got, want = e, o.ResumeError(r.At).Error()
				default:
					got, want = e, ""
				}
				if got != want {
					v.Violatef(r.Alloc, r.Task, r.Op+" result", got, want)
					return
				}
			}
		}}
	},
}

// firstWindow is the first window of s's schedule from its start.
func firstWindow(s sched.Spec) (schedule.Window, bool) {
	if s.Cron == nil {
		return schedule.Window{}, false
	}
	local := time.UTC
	if s.LocalZone != "" {
		if loc, err := schedule.Location(s.LocalZone); err == nil {
			local = loc
		}
	}
	ws, err := schedule.NextWindows(&schedule.Schedule{Cron: s.Cron}, s.Start, local, 1)
	if err != nil || len(ws) == 0 || ws[0].End.IsZero() || ws[0].End.Sub(ws[0].Start) < time.Minute {
		return schedule.Window{}, false
	}
	return ws[0], true
}

// drawResumeInStop makes the task's stops take 4 s (kill_after, under
// its 5 s kill timeout) and, at second 45 of a minute the task runs in,
// force_pauses it and 2 s later force_runs it: the state turns not
// paused before the pause stop's exit is seen (PAUSE-5: the gate then
// passes silently).
func drawResumeInStop(d *prop.Drawer, s *sched.Spec) {
	o := oracle.New(s.Build(), "sj", work)
	var mins []int
	for m := 0; m < int(s.Duration/time.Minute); m++ {
		if t := s.Start.Add(time.Duration(m)*time.Minute + 40*time.Second); o.Run(t) && o.Run(t.Add(10*time.Second)) {
			mins = append(mins, m)
		}
	}
	if len(mins) == 0 {
		return
	}
	m := time.Duration(prop.Pick(d, "resume in stop min", mins)) * time.Minute
	s.Config["kill_after"] = "4s"
	s.Calls = append(s.Calls,
		scenario.Call{At: scenario.Duration(m + 45*time.Second), Op: scenario.OpPause, Alloc: sched.AllocName, Task: work},
		scenario.Call{At: scenario.Duration(m + 47*time.Second), Op: scenario.OpRun, Alloc: sched.AllocName, Task: work})
	sortCalls(s.Calls)
}

// brokenZone is a Timezone that passes SCHED-2's validation and fails
// every evaluation (SCHED-8: invalid timezone in schedule).
const brokenZone = "Mars/Olympus"

// drawResumeError, on one run in four, makes a schedule_resume fail
// (PAUSE-2: the evaluation error returned, the state kept): an override
// at second 50 of a minute m, an in-place update to a schedule whose
// evaluation fails a minute later (adopted at the next resume, PAUSE-7),
// a schedule_resume a minute after that and a get. The override calls
// drawn after m are dropped, so that the schedule is never tracked once
// it is broken (PAUSE-9 would fail the task).
func drawResumeError(d *prop.Drawer, s *sched.Spec, mins int) {
	if mins < 4 || d.IntRange("resume error", 0, 3) > 0 {
		return
	}
	m := d.IntRange("resume error min", 0, mins-4)
	at := func(min, sec int) scenario.Duration {
		return scenario.Duration(time.Duration(min)*time.Minute + time.Duration(sec)*time.Second)
	}
	s.Calls = slices.DeleteFunc(s.Calls, func(c scenario.Call) bool {
		return c.Task == work && c.Op.ScheduleState() != "" && c.At >= at(m, 50)
	})
	broken := *s.Cron
	broken.Timezone = brokenZone
	s.Calls = append(s.Calls,
		scenario.Call{At: at(m, 50), Op: prop.Pick(d, "resume error override", []scenario.Op{scenario.OpPause, scenario.OpRun}), Alloc: sched.AllocName, Task: work},
		scenario.Call{At: at(m+1, 50), Op: scenario.OpUpdateSchedule, Job: "sj", Task: work, Schedule: &schedule.Schedule{Cron: &broken}},
		scenario.Call{At: at(m+2, 50), Op: scenario.OpResume, Alloc: sched.AllocName, Task: work},
		scenario.Call{At: at(m+2, 55), Op: scenario.OpGetPause, Alloc: sched.AllocName, Task: work})
}

// drawAfterLoop, on one run in four, stops the job at second 5 of the
// run's last minute and makes a request of each task after its loop
// finished for good (PAUSE-2: stored, without effect), within that
// minute, so that no window boundary passes after the stop (tracking
// ends with the loop).
func drawAfterLoop(d *prop.Drawer, s *sched.Spec, mins int) {
	if d.IntRange("after loop", 0, 3) > 0 {
		return
	}
	last := time.Duration(mins-1) * time.Minute
	s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(last + 5*time.Second), Op: scenario.OpStopJob, Job: "sj"})
	for i, task := range []string{work, side} {
		s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(last + time.Duration(45+i)*time.Second),
			Op:    prop.Pick(d, "after loop op", []scenario.Op{scenario.OpGetPause, scenario.OpPause, scenario.OpRun, scenario.OpResume}),
			Alloc: sched.AllocName, Task: task})
	}
}

func sortCalls(cs []scenario.Call) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].At < cs[j-1].At; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}
