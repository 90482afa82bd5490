package sched

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// The situations of the package's properties are counted by checkers of
// their own, run after the property's (Both), that read the scenario,
// the oracle and the trace and never violate.

// InsideBySchedule reports whether o's schedule alone (no override) has
// the task inside at t (an unscheduled task always is).
func InsideBySchedule(o *oracle.Oracle, t time.Time) bool {
	s := o.Schedule(t)
	if s == nil {
		return true
	}
	r, err := schedule.Evaluate(s, t, o.Loc)
	return err == nil && r.Inside
}

// Reaching is a checker that only counts situations: reach is called at
// every settled instant.
func Reaching(reach func(v *prop.View)) prop.Checker { return prop.Checks{OnSettled: reach} }

// atOrPast reports whether the run is at or past t (never for a zero t).
func atOrPast(v *prop.View, t time.Time) bool { return !t.IsZero() && !v.Now().Before(t) }

// workTask is the scheduled task of sc, or nil.
func workTask(sc scenario.Scenario) *structs.Task {
	for _, j := range sc.Jobs {
		for _, tg := range j.Job.TaskGroups {
			if t := tg.LookupTask(taskName); t != nil {
				return t
			}
		}
	}
	return nil
}

// cronOf is the scheduled task's cron block, or nil.
func cronOf(sc scenario.Scenario) *schedule.Cron {
	if t := workTask(sc); t != nil && t.Schedule != nil {
		return t.Schedule.Cron
	}
	return nil
}

// zoneSituations name the zone a schedule reads its fields in (SCHED-4).
var zoneSituations = []prop.Situation{
	{Name: "zone-local", Doc: "Timezone Local: the client's injected zone"},
	{Name: "zone-named", Doc: "a named IANA zone, read whatever the client's zone"},
}

func reachZone(v *prop.View, c *schedule.Cron) {
	if c == nil {
		return
	}
	if c.Timezone == "" || c.Timezone == "Local" {
		v.Reach("zone-local")
	} else {
		v.Reach("zone-named")
	}
}

// zoneOf is the location the schedule's fields are read in.
func zoneOf(sc scenario.Scenario, o *oracle.Oracle) *time.Location {
	if c := cronOf(sc); c != nil {
		if loc, err := schedule.LoadZone(c.Timezone, o.Loc); err == nil {
			return loc
		}
	}
	return o.Loc
}

// wallField reads "m h" (the first two fields of a cron expression) as
// numbers; ok is false for anything but two plain numbers.
func wallField(expr string) (m, h int, ok bool) {
	f := strings.Fields(expr)
	if len(f) < 2 {
		return 0, 0, false
	}
	m, err1 := strconv.Atoi(f[0])
	h, err2 := strconv.Atoi(f[1])
	return m, h, err1 == nil && err2 == nil
}

// changeReach calls reach once for each oracle change the run passed,
// with whether an override call made it.
type changeReach struct {
	o       *oracle.Oracle
	changes []oracle.Change
	calls   map[time.Time]scenario.Op
	next    int
}

func newChangeReach(sc scenario.Scenario) *changeReach {
	o := oracle.New(sc, jobID, taskName)
	c := &changeReach{o: o, changes: o.Changes(), calls: map[time.Time]scenario.Op{}}
	for _, call := range sc.Calls {
		if call.Task == taskName && call.Op.ScheduleState() != "" {
			c.calls[sc.Start.Add(call.At.D()).UTC()] = call.Op
		}
	}
	return c
}

func (c *changeReach) each(v *prop.View, reach func(ch oracle.Change, call scenario.Op)) {
	for ; c.next < len(c.changes) && atOrPast(v, c.changes[c.next].At); c.next++ {
		ch := c.changes[c.next]
		reach(ch, c.calls[ch.At.UTC()])
	}
}

// insideSituations: SCHED-5 windows and PAUSE-3 tracking with overrides.
var insideSituations = append([]prop.Situation{
	{Name: "arrive-inside", Doc: "the task first reaches the gate inside a window: starts at once"},
	{Name: "arrive-outside", Doc: "the task first reaches the gate outside its windows: waits"},
	{Name: "window-opens", Doc: "a window opens during the run: the task starts at its start"},
	{Name: "window-ends", Doc: "a window ends during the run: the task stops at its end"},
	{Name: "several-windows", Doc: "more than one window opens in the run (hourly starts over an hour range)"},
	{Name: "force-run-outside", Doc: "force_run outside the window: the task starts"},
	{Name: "force-pause-inside", Doc: "force_pause inside the window: the task stops"},
	{Name: "resume-drops-override", Doc: "schedule_resume drops an override: back to the schedule"},
}, zoneSituations...)

func reachInside(sc scenario.Scenario) prop.Checker {
	c := newChangeReach(sc)
	opens := 0
	return Reaching(func(v *prop.View) {
		reachZone(v, cronOf(sc))
		c.each(v, func(ch oracle.Change, call scenario.Op) {
			switch {
			case ch.At.Equal(c.o.Arrival) && ch.Run:
				v.Reach("arrive-inside")
				opens++
			case ch.At.Equal(c.o.Arrival):
				v.Reach("arrive-outside")
			case ch.Run && ch.Stored == structs.TaskScheduleStateForceRun && !InsideBySchedule(c.o, ch.At):
				v.Reach("force-run-outside")
			case !ch.Run && ch.Stored == structs.TaskScheduleStateForcePause && InsideBySchedule(c.o, ch.At):
				v.Reach("force-pause-inside")
			case call != "":
			case ch.Run:
				v.Reach("window-opens")
				opens++
			default:
				v.Reach("window-ends")
			}
			if call == scenario.OpResume {
				v.Reach("resume-drops-override")
			}
			if opens > 1 {
				v.Reach("several-windows")
			}
		})
	})
}

// startSituations: SCHED-5's start instant (SCHED-10: Nomad calls it
// outside).
var startSituations = append([]prop.Situation{
	{Name: "window-opens-in-run", Doc: "the task reaches the gate before its window and the window opens during the run"},
	{Name: "window-ends-in-run", Doc: "the window closes during the run"},
	{Name: "window-outlasts-run", Doc: "the window is still open at the run's end"},
}, zoneSituations...)

func reachStart(sc scenario.Scenario) prop.Checker {
	c := newChangeReach(sc)
	opened := false
	return Reaching(func(v *prop.View) {
		reachZone(v, cronOf(sc))
		c.each(v, func(ch oracle.Change, _ scenario.Op) {
			switch {
			case ch.Run && ch.At.After(c.o.Arrival):
				v.Reach("window-opens-in-run")
				opened = true
			case !ch.Run && opened:
				v.Reach("window-ends-in-run")
			}
		})
		if opened && c.next == len(c.changes) && len(c.changes) > 0 && c.changes[len(c.changes)-1].Run {
			v.Reach("window-outlasts-run")
		}
	})
}

// overnightSituations: SCHED-5's overnight windows and end == start.
var overnightSituations = append([]prop.Situation{
	{Name: "crosses-midnight", Doc: "a window opening late in the evening closes after midnight, on the next local day"},
	{Name: "closes-same-day", Doc: "a late-evening window that closes before midnight"},
	{Name: "end-equals-start", Doc: "end time of day equal to the start's: a 24 h window, inside once opened"},
	{Name: "crosses-month-end", Doc: "an overnight window opening on a month's last day (#23329)"},
}, zoneSituations...)

func reachOvernight(sc scenario.Scenario) prop.Checker {
	c := newChangeReach(sc)
	loc := zoneOf(sc, c.o)
	var open time.Time
	cron := cronOf(sc)
	equal := false
	if cron != nil {
		m, h, ok1 := wallField(cron.Start)
		em, eh, ok2 := wallField(cron.End)
		equal = ok1 && ok2 && m == em && h == eh
	}
	return Reaching(func(v *prop.View) {
		reachZone(v, cron)
		if equal && atOrPast(v, c.o.Arrival) {
			// The previous day's 24 h window holds the arrival and ends
			// where the day's opens: the task runs throughout.
			v.Reach("end-equals-start")
		}
		c.each(v, func(ch oracle.Change, _ scenario.Op) {
			if ch.Run && ch.At.After(c.o.Arrival) {
				open = ch.At
				if l := open.In(loc); l.AddDate(0, 0, 1).Day() == 1 {
					v.Reach("crosses-month-end")
				}
				return
			}
			if open.IsZero() || ch.Run {
				return
			}
			if a, b := open.In(loc), ch.At.In(loc); a.YearDay() != b.YearDay() {
				v.Reach("crosses-midnight")
			} else {
				v.Reach("closes-same-day")
			}
		})
	})
}

// severalSituations: SCHED-5's several daily starts.
var severalSituations = append([]prop.Situation{
	{Name: "merged-starts", Doc: "several starts before one end: one window from the first start, no restart at the later ones"},
	{Name: "start-at-end", Doc: "a start at the instant the window ends: the next window starts right there, no stop"},
	{Name: "start-after-end", Doc: "a start after the day's end: a window running past it, to the next day's end"},
	{Name: "hour-range", Doc: "starts at the same minute of two hours, the end between them"},
}, zoneSituations...)

func reachSeveral(sc scenario.Scenario) prop.Checker {
	c := newChangeReach(sc)
	cron := cronOf(sc)
	var open time.Time
	// Minutes after the first start at which each situation is there.
	at := map[string]int{}
	if cron != nil {
		sf, ef := strings.Fields(cron.Start), strings.Fields(cron.End)
		if len(sf) >= 2 && len(ef) >= 2 {
			end, _ := strconv.Atoi(ef[0])
			if lo, hi, ok := strings.Cut(sf[0], "-"); ok { // minutes a-b of one hour
				a, _ := strconv.Atoi(lo)
				b, _ := strconv.Atoi(hi)
				if end-a >= 2 && b > a {
					at["merged-starts"] = 1
				}
				if end >= a && end <= b {
					at["start-at-end"] = end - a
				}
				if b > end {
					at["start-after-end"] = end - a + 1
				}
			} else if strings.Contains(sf[1], "-") { // one minute of hours h and h+1
				at["hour-range"], at["start-after-end"] = 60, 60
			}
		}
	}
	return Reaching(func(v *prop.View) {
		reachZone(v, cron)
		c.each(v, func(ch oracle.Change, _ scenario.Op) {
			if ch.Run && open.IsZero() {
				open = ch.At
			}
		})
		for name, mins := range at {
			if !open.IsZero() && atOrPast(v, open.Add(time.Duration(mins)*time.Minute)) {
				v.Reach(name)
			}
		}
	})
}

// dstSituations: SCHED-6's mapping of gap and overlap wall times.
var dstSituations = []prop.Situation{
	{Name: "start-in-gap", Doc: "the start's wall time is skipped by a spring-forward gap: shifted forward by the gap"},
	{Name: "end-in-gap", Doc: "the end's wall time is in a spring-forward gap"},
	{Name: "start-in-overlap", Doc: "the start's wall time occurs twice: the first occurrence only"},
	{Name: "end-in-overlap", Doc: "the end's wall time occurs twice: the first occurrence only"},
	{Name: "start-shifted-past-end", Doc: "a gap start shifted past the same day's end: opens after it, closes the next day"},
	{Name: "window-across-transition", Doc: "a window opening before the transition and closing after it"},
	{Name: "start-latency", Doc: "the driver takes time to start the task (start latency)"},
	{Name: "thirty-minute-dst", Doc: "a 30-minute DST shift (Lord Howe)"},
	{Name: "half-hour-offset", Doc: "a zone whose offsets are not whole hours"},
	{Name: "midnight-transition", Doc: "a transition at local midnight"},
}

// dstPlace is where a cron wall time falls against transition tr: in
// its gap, in its overlap, before or after.
func dstPlace(tr transition, expr string) (wall time.Time, gap, overlap, ok bool) {
	m, h, ok := wallField(expr)
	if !ok {
		return time.Time{}, false, false, false
	}
	delta := time.Duration(tr.After-tr.Before) * time.Second
	if delta < 0 {
		delta = -delta
	}
	wb := naive(tr.At, tr.Before)
	n := time.Date(wb.Year(), wb.Month(), wb.Day(), h, m, 0, 0, time.UTC)
	for _, c := range []time.Time{n.Add(-24 * time.Hour), n.Add(24 * time.Hour)} {
		if c.Sub(wb).Abs() < n.Sub(wb).Abs() {
			n = c
		}
	}
	if tr.Gap() {
		return n, !n.Before(wb) && n.Before(wb.Add(delta)), false, true
	}
	return n, false, !n.Before(wb.Add(-delta)) && n.Before(wb), true
}

func reachDST(sc scenario.Scenario) prop.Checker {
	o := oracle.New(sc, jobID, taskName)
	loc := zoneOf(sc, o)
	cron := cronOf(sc)
	trs := transitions(loc, sc.Start, sc.End())
	var names []string
	if cron != nil && len(trs) > 0 {
		tr := trs[0]
		delta := time.Duration(tr.After-tr.Before) * time.Second
		wb := naive(tr.At, tr.Before)
		sw, sg, so, ok1 := dstPlace(tr, cron.Start)
		ew, eg, eo, ok2 := dstPlace(tr, cron.End)
		// The wall times the transition skips or repeats: [lo, hi).
		lo, hi := wb, wb.Add(delta)
		if !tr.Gap() {
			lo, hi = wb.Add(delta), wb // delta < 0 at a fall-back
		}
		for _, x := range []struct {
			on   bool
			name string
		}{
			{sg, "start-in-gap"}, {eg, "end-in-gap"}, {so, "start-in-overlap"}, {eo, "end-in-overlap"},
			{ok1 && ok2 && sg && !ew.Before(wb.Add(delta)) && ew.Sub(wb.Add(delta)) < sw.Sub(wb), "start-shifted-past-end"},
			{ok1 && ok2 && sw.Before(lo) && !ew.Before(hi) && ew.Sub(sw) < 12*time.Hour, "window-across-transition"},
			{latencyOf(sc) > 0, "start-latency"},
			{delta.Abs() == 30*time.Minute, "thirty-minute-dst"},
			{tr.Before%3600 != 0 || tr.After%3600 != 0, "half-hour-offset"},
			{wb.Hour() == 0 && wb.Minute() == 0 || wb.Add(-delta.Abs()).Hour() == 0 && wb.Add(-delta.Abs()).Minute() == 0, "midnight-transition"},
		} {
			if x.on {
				names = append(names, x.name)
			}
		}
	}
	return Reaching(func(v *prop.View) {
		if len(trs) == 0 || !atOrPast(v, trs[0].At) {
			return
		}
		for _, n := range names {
			v.Reach(n)
		}
	})
}

// shortDaySituations: SCHED-6 on a 23-hour (or 23.5-hour) day.
var shortDaySituations = append([]prop.Situation{
	{Name: "open-after-gap", Doc: "a daily window opens on the spring-forward day, after the gap"},
	{Name: "thirty-minute-dst", Doc: "a 30-minute DST shift (Lord Howe): a 23.5-hour day"},
	{Name: "half-hour-offset", Doc: "a zone whose offsets are not whole hours"},
}, zoneSituations...)

func reachShortDay(sc scenario.Scenario) prop.Checker {
	c := newChangeReach(sc)
	loc := zoneOf(sc, c.o)
	var names []string
	day := sc.Start.Add(-24 * time.Hour)
	if trs := transitions(loc, day, sc.End()); len(trs) > 0 {
		tr := trs[len(trs)-1]
		if tr.Gap() {
			names = append(names, "open-after-gap")
		}
		if d := tr.After - tr.Before; d == 1800 || d == -1800 {
			names = append(names, "thirty-minute-dst")
		}
		if tr.Before%3600 != 0 || tr.After%3600 != 0 {
			names = append(names, "half-hour-offset")
		}
	}
	return Reaching(func(v *prop.View) {
		reachZone(v, cronOf(sc))
		c.each(v, func(ch oracle.Change, _ scenario.Op) {
			if ch.Run {
				for _, n := range names {
					v.Reach(n)
				}
			}
		})
	})
}

// noFutureSituations: SCHED-9.
var noFutureSituations = []prop.Situation{
	{Name: "impossible-date", Doc: "a start on a date that never exists (30 February, 31 April)"},
	{Name: "past-year", Doc: "a start in a year already past (years exhausted)"},
	{Name: "empty-range", Doc: "a start whose range matches nothing (FRI-MON)"},
	{Name: "message-after-pausing", Doc: "the no-future-start hook message, after the first Pausing"},
	{Name: "force-run-overrides", Doc: "force_run still starts the task"},
	{Name: "force-pause-overrides", Doc: "force_pause still stored (the task stays paused)"},
	{Name: "resume-stays-paused", Doc: "schedule_resume goes back to scheduled_pause, no second message"},
	{Name: "detected-while-paused", Doc: "a schedule without future start adopted while already paused: the message on detection"},
	{Name: "message-per-schedule", Doc: "a second distinct schedule without future start: a message of its own"},
}

func reachNoFuture(sc scenario.Scenario) prop.Checker {
	var names []string
	if cron := cronOf(sc); cron != nil {
		f := strings.Fields(cron.Start)
		switch {
		case len(f) >= 6 && f[5] != "*":
			names = append(names, "past-year")
		case len(f) >= 5 && strings.Contains(f[4], "-"):
			names = append(names, "empty-range")
		default:
			names = append(names, "impossible-date")
		}
	}
	calls := map[scenario.Op]time.Time{}
	for _, c := range sc.Calls {
		if c.Task == taskName && calls[c.Op].IsZero() {
			calls[c.Op] = sc.Start.Add(c.At.D())
		}
	}
	var updated time.Time // the first schedule update
	msgs := 0
	for _, c := range sc.Calls {
		if c.Op == scenario.OpUpdateSchedule && updated.IsZero() {
			updated = sc.Start.Add(c.At.D())
		}
	}
	return Reaching(func(v *prop.View) {
		for _, n := range names {
			v.Reach(n)
		}
		for op, name := range map[scenario.Op]string{scenario.OpRun: "force-run-overrides", scenario.OpPause: "force-pause-overrides",
			scenario.OpResume: "resume-stays-paused"} {
			if atOrPast(v, calls[op]) {
				v.Reach(name)
			}
		}
		for _, r := range v.New {
			if r.Kind == trace.KindTaskEvent && r.Task == taskName && r.Msg == structs.TaskHookMessage {
				v.Reach("message-after-pausing")
				if msgs++; msgs > 1 {
					v.Reach("message-per-schedule")
				}
				if !updated.IsZero() && !r.At.Before(updated) {
					v.Reach("detected-while-paused")
				}
			}
		}
	})
}

// ceSituations: SCHED-1 admission under ce (and SCHED-2's ce rule).
var ceSituations = []prop.Situation{
	{Name: "schedule-with-cron", Doc: "a task schedule with a cron block: the ce message"},
	{Name: "schedule-without-cron", Doc: "a Schedule with null Cron counts as set: the ce message"},
	{Name: "unscheduled-sibling", Doc: "an unscheduled task beside the scheduled one: still one error"},
	{Name: "several-scheduled-tasks", Doc: "several scheduled tasks in the job: one error per job"},
	{Name: "unscheduled-job-accepted", Doc: "under ce a job without any schedule: accepted, nothing else differs"},
}

func reachCE(sc scenario.Scenario) prop.Checker {
	return Reaching(func(v *prop.View) {
		for _, r := range v.New {
			if r.Kind != trace.KindJob || r.Op != "register" {
				continue
			}
			var d struct{ Job string }
			_ = json.Unmarshal(r.Data, &d)
			for _, j := range sc.Jobs {
				if j.Job == nil || j.Job.ID != d.Job {
					continue
				}
				scheduled, plain, noCron := 0, 0, false
				for _, tg := range j.Job.TaskGroups {
					for _, t := range tg.Tasks {
						switch {
						case t.Schedule == nil:
							plain++
						case t.Schedule.Cron == nil:
							scheduled++
							noCron = true
						default:
							scheduled++
						}
					}
				}
				switch {
				case scheduled == 0:
					v.Reach("unscheduled-job-accepted")
				case noCron:
					v.Reach("schedule-without-cron")
				default:
					v.Reach("schedule-with-cron")
				}
				if scheduled > 0 && plain > 0 {
					v.Reach("unscheduled-sibling")
				}
				if scheduled > 1 {
					v.Reach("several-scheduled-tasks")
				}
			}
		}
	})
}
