package sched

import (
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// transition is one offset change of a zone.
type transition struct {
	At            time.Time
	Before, After int // offsets in seconds
}

// Gap reports a spring-forward transition.
func (t transition) Gap() bool { return t.After > t.Before }

// transitions lists loc's offset changes in [from, to).
func transitions(loc *time.Location, from, to time.Time) []transition {
	var out []transition
	for t := from; ; {
		_, end := t.In(loc).ZoneBounds()
		if end.IsZero() || !end.Before(to) || !end.After(t) {
			return out
		}
		_, b := end.Add(-time.Second).In(loc).Zone()
		_, a := end.In(loc).Zone()
		if a != b {
			out = append(out, transition{At: end, Before: b, After: a})
		}
		t = end
	}
}

// drawTransition draws a DST zone and one of its transitions in 2015..2024,
// spring-forward gaps twice as likely as fall-back overlaps.
func drawTransition(d *prop.Drawer) (local, tz string, loc *time.Location, tr transition) {
	local, tz, loc = DrawZones(d, DSTZones)
	year := d.IntRange("year", 2015, 2024)
	all := transitions(loc, time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(year+1, 1, 1, 0, 0, 0, 0, time.UTC))
	var gaps, overlaps []transition
	for _, t := range all {
		if t.Gap() {
			gaps = append(gaps, t)
		} else {
			overlaps = append(overlaps, t)
		}
	}
	pool := gaps
	if len(gaps) == 0 || (len(overlaps) > 0 && d.IntRange("overlap", 0, 2) == 0) {
		pool = overlaps
	}
	if len(pool) == 0 { // no DST that year: New York 2024's spring
		loc, _ = schedule.Location("America/New_York")
		local, tz = "America/New_York", "Local"
		return local, tz, loc, transitions(loc, time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC))[0]
	}
	return local, tz, loc, prop.Pick(d, "transition", pool)
}

// naive is the wall clock of t at offset off, written in UTC.
func naive(t time.Time, off int) time.Time { return t.Add(time.Duration(off) * time.Second).UTC() }

// dstTransitions: windows starting and ending in gaps and overlaps.
var dstTransitions = prop.Property{
	ID:    "SCHED-6/dst-transitions",
	Specs: []string{"SCHED-6", "SCHED-5", "SCHED-4"},
	Doc:   "near real DST transitions (gaps, overlaps, 30-minute DST, half-hour zones) with window starts and ends in them, the task starts (within the driver's configured start latency) and stops exactly at model/schedule's instants",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		local, tz, _, tr := drawTransition(d)
		delta := tr.After - tr.Before
		if delta < 0 {
			delta = -delta
		}
		wb := naive(tr.At, tr.Before) // the transition's wall clock, pre-transition offset
		special := wb                 // the first skipped (gap) or repeated (overlap) wall time
		if !tr.Gap() {
			special = wb.Add(-time.Duration(delta) * time.Second)
		}
		span := time.Duration(delta) * time.Second
		pickWall := func(label string) time.Time {
			switch d.IntRange(label+" mode", 0, 3) {
			case 0, 1: // inside the gap or overlap
				return special.Add(d.Duration(label+" in", 0, span-time.Minute, time.Minute))
			case 2: // an edge
				return special.Add(prop.Pick(d, label+" edge", []time.Duration{-time.Minute, span, span + time.Minute}))
			default:
				return special.Add(d.Duration(label+" near", -15*time.Minute, 15*time.Minute, time.Minute))
			}
		}
		sw := pickWall("start")
		ew := sw.Add(d.Duration("length", time.Minute, 30*time.Minute, time.Minute))
		if d.Bool("end special") {
			ew = pickWall("end")
		}
		cron := &schedule.Cron{Start: daily(sw.Minute(), sw.Hour()), End: at(ew.Minute(), ew.Hour()), Timezone: tz}
		cfg := killAfter(d)
		var latency time.Duration
		if d.Bool("start latency") {
			latency = d.Duration("latency ms", time.Millisecond, 2*time.Second, time.Millisecond)
			cfg["start_block_for"] = latency.String()
		}
		return Spec{Start: tr.At.Add(-span - 20*time.Minute).Truncate(time.Minute), Duration: span + 65*time.Minute,
			LocalZone: local, Cron: cron, Config: cfg}.Build()
	},
	Situations: dstSituations,
	New:        func(sc scenario.Scenario) prop.Checker { return Both(RunChecker(sc, latencyOf(sc)), reachDST(sc)) },
}

// latencyOf is the scheduled task's configured start latency.
func latencyOf(sc scenario.Scenario) time.Duration {
	for _, j := range sc.Jobs {
		for _, tg := range j.Job.TaskGroups {
			if t := tg.LookupTask(taskName); t != nil {
				if s, ok := t.Config["start_block_for"].(string); ok {
					l, _ := time.ParseDuration(s)
					return l
				}
			}
		}
	}
	return 0
}

// shortDSTDay: SCHED-10's 24 h absolute look-back on a 23-hour day.
var shortDSTDay = prop.Property{
	ID:    "SCHED-6/short-dst-day",
	Specs: []string{"SCHED-6", "SCHED-5", "SCHED-10"},
	Doc:   "on a spring-forward (short) day a daily window opening after the transition starts the task at its start, not a look-back's length later",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		local, tz, loc := DrawZones(d, []string{"America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
			"America/St_Johns", "Pacific/Chatham", "Australia/Adelaide", "America/Los_Angeles", "Pacific/Auckland"})
		year := d.IntRange("year", 2015, 2024)
		var gap transition
		for _, t := range transitions(loc, time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(year+1, 1, 1, 0, 0, 0, 0, time.UTC)) {
			if t.Gap() {
				gap = t
				break
			}
		}
		if gap.At.IsZero() { // no spring-forward that year: New York 2024's
			loc, _ = schedule.Location("America/New_York")
			local, tz = "America/New_York", "Local"
			gap = transitions(loc, time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC))[0]
		}
		after := naive(gap.At, gap.After) // wall clock just after the gap
		open := after.Add(d.Duration("open after", time.Hour, 16*time.Hour, time.Minute))
		if open.Day() != after.Day() {
			open = after.Add(time.Hour)
		}
		shut := open.Add(d.Duration("length", 30*time.Minute, 3*time.Hour, time.Minute))
		openAt := gap.At.Add(open.Sub(after))
		return Spec{Start: openAt.Add(-5 * time.Minute), Duration: 15 * time.Minute, LocalZone: local,
			Cron:   &schedule.Cron{Start: daily(open.Minute(), open.Hour()), End: at(shut.Minute(), shut.Hour()), Timezone: tz},
			Config: killAfter(d)}.Build()
	},
	Situations: shortDaySituations,
	New:        func(sc scenario.Scenario) prop.Checker { return Both(RunChecker(sc, 0), reachShortDay(sc)) },
}
