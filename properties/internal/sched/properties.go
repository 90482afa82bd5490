package sched

import (
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// Properties lists the package's properties in suite order.
func Properties() []prop.Property {
	return []prop.Property{ceRejects, insideWindows, windowStartInstant, overnight, severalStarts,
		dstTransitions, shortDSTDay, noFutureStart}
}

// insideWindows: random windows in random zones, with overrides.
var insideWindows = prop.Property{
	ID:    "SCHED-5/inside-windows-only",
	Specs: []string{"SCHED-5", "SCHED-4", "PAUSE-3"},
	Doc:   "the driver starts a scheduled task exactly when its window (read in its zone) opens or force_run asks, stops it exactly when the window ends or force_pause asks, and never starts it otherwise",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		local, tz, loc := DrawZones(d, Zones)
		start := DrawDay(d, true).Add(d.Duration("start", 0, 24*time.Hour-time.Minute, time.Minute))
		mins := d.IntRange("run min", 30, 90)
		open := start.Add(time.Duration(d.IntRange("opens min", 0, mins-5)) * time.Minute)
		m, h := wall(open, loc)
		cron := &schedule.Cron{Start: daily(m, h), Timezone: tz}
		length := d.IntRange("window min", 1, 45)
		em, eh := wall(open.Add(time.Duration(length)*time.Minute), loc)
		cron.End = at(em, eh)
		if d.Bool("hourly") { // the same minutes every hour of a range
			em = min(m+max(length%60, 1), 59)
			if em > m {
				hours := itoa(h) + "-" + itoa(min(h+3, 23))
				cron.Start, cron.End = itoa(m)+" "+hours+" * * * *", itoa(em)+" "+hours
			}
		}
		return Spec{Start: start, Duration: time.Duration(mins) * time.Minute, LocalZone: local, Timezone: tz,
			Cron: cron, Config: killAfter(d), Side: d.Bool("side"), Calls: Calls(d, 3, 1, mins)}.Build()
	},
	Situations: insideSituations,
	New:        func(sc scenario.Scenario) prop.Checker { return Both(RunChecker(sc, 0), reachInside(sc)) },
}

// windowStartInstant: SCHED-10's "the start instant is outside".
var windowStartInstant = prop.Property{
	ID:    "SCHED-5/window-start-instant",
	Specs: []string{"SCHED-5", "SCHED-10"},
	Doc:   "a window's start instant is inside: the task starts at exactly the instant its window opens",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		local, tz, loc := DrawZones(d, Zones)
		open := DrawDay(d, false).Add(d.Duration("opens", 2*time.Hour, 20*time.Hour, time.Minute))
		m, h := wall(open, loc)
		em, eh := wall(open.Add(d.Duration("length", time.Minute, 2*time.Hour, time.Minute)), loc)
		before := d.Duration("before", time.Minute, 10*time.Minute, time.Minute)
		return Spec{Start: open.Add(-before), Duration: before + d.Duration("after", time.Minute, 5*time.Minute, time.Minute),
			LocalZone: local, Cron: &schedule.Cron{Start: daily(m, h), End: at(em, eh), Timezone: tz}, Config: killAfter(d)}.Build()
	},
	Situations: startSituations,
	New:        func(sc scenario.Scenario) prop.Checker { return Both(RunChecker(sc, 0), reachStart(sc)) },
}

// overnight: SCHED-10's overnight windows and start == end.
var overnight = prop.Property{
	ID:    "SCHED-5/overnight-windows",
	Specs: []string{"SCHED-5", "SCHED-10"},
	Doc:   "a window whose end time of day is before (or equal to) its start opens at the start and closes at the end on the next day",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		local, tz, loc := DrawZones(d, Zones)
		day := DrawDay(d, false)
		// a local late evening, as an instant
		l := day.In(loc)
		openL := time.Date(l.Year(), l.Month(), l.Day(), d.IntRange("open h", 22, 23), d.IntRange("open m", 0, 59), 0, 0, loc)
		m, h := openL.Minute(), openL.Hour()
		shut := openL.Add(d.Duration("length", time.Minute, 90*time.Minute, time.Minute))
		em, eh := wall(shut, loc)
		if d.IntRange("equal", 0, 3) == 0 {
			em, eh = m, h
			shut = openL.Add(5 * time.Minute)
		}
		return Spec{Start: openL.Add(-3 * time.Minute), Duration: shut.Sub(openL) + 6*time.Minute, LocalZone: local,
			Cron: &schedule.Cron{Start: daily(m, h), End: at(em, eh), Timezone: tz}, Config: killAfter(d)}.Build()
	},
	Situations: overnightSituations,
	New:        func(sc scenario.Scenario) prop.Checker { return Both(RunChecker(sc, 0), reachOvernight(sc)) },
}

// severalStarts: SCHED-10's "earliest start of the last 24 h".
var severalStarts = prop.Property{
	ID:    "SCHED-5/several-daily-starts",
	Specs: []string{"SCHED-5", "SCHED-10"},
	Doc:   "each of several daily starts opens a window closed by the next end: a start after the day's end keeps the task running past it",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		local, tz, loc := DrawZones(d, Zones)
		day := DrawDay(d, false).In(loc)
		h := d.IntRange("hour", 1, 22)
		a := d.IntRange("first min", 0, 40)
		c := d.IntRange("end min", a+1, a+10)
		b := d.IntRange("last min", c, min(c+10, 59))
		first := time.Date(day.Year(), day.Month(), day.Day(), h, a, 0, 0, loc)
		cron := &schedule.Cron{Start: itoa(a) + "-" + itoa(b) + " " + itoa(h) + " * * * *", End: at(c, h), Timezone: tz}
		if d.Bool("hour range") { // starts at h and h+1, the end at h+1
			cron = &schedule.Cron{Start: itoa(a) + " " + itoa(h) + "-" + itoa(h+1) + " * * * *", End: at(c, h), Timezone: tz}
			b = a + 60
		}
		return Spec{Start: first.Add(-2 * time.Minute), Duration: time.Duration(b-a+5) * time.Minute, LocalZone: local,
			Cron: cron, Config: killAfter(d)}.Build()
	},
	Situations: severalSituations,
	New:        func(sc scenario.Scenario) prop.Checker { return Both(RunChecker(sc, 0), reachSeveral(sc)) },
}

func killAfter(d *prop.Drawer) map[string]any {
	if ms := d.IntRange("kill after ms", 0, 2000); ms > 0 {
		return map[string]any{"kill_after": (time.Duration(ms) * time.Millisecond).String()}
	}
	return map[string]any{}
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
