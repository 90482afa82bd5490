package pausing

import (
	"fmt"
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

func sortCalls(cs []scenario.Call) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].At < cs[j-1].At; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}
