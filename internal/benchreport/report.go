package main

import (
	"fmt"
	"math"
	"time"
)

// Status is what became of one benchmark.
type Status int

const (
	// Ran: the process ran the benchmark and printed its results.
	Ran Status = iota
	// Skipped: the package or the benchmark does not exist in the tree
	// measured (a benchmark newer than the commit); not a failure.
	Skipped
	// Failed: the package did not build, or the benchmark failed or
	// printed no result.
	Failed
)

// String returns "ran", "skipped" or "failed".
func (s Status) String() string {
	switch s {
	case Ran:
		return "ran"
	case Skipped:
		return "skipped"
	case Failed:
		return "failed"
	default:
		return fmt.Sprintf("status(%d)", int(s))
	}
}

// A Measurement is what one benchmark's processes gave, one per -count.
type Measurement struct {
	Bench  Benchmark
	Status Status
	// Note says why it was skipped or failed.
	Note string
	// Results are its result lines, one per -count.
	Results []Result
	// Output is the processes' standard output, one after the other:
	// raw `go test -bench` output.
	Output string
	// CPU is the processes' user plus system time and Elapsed their wall
	// time, summed; MaxRSS is the largest of their peak resident sets in
	// bytes (rusage): one run's peak.
	CPU     time.Duration
	MaxRSS  int64
	Elapsed time.Duration
	// Load is the load average when the process started.
	Load Load
}

// A Run is one run of the report: what was measured, where and how.
type Run struct {
	Date   time.Time // when it started, UTC
	Commit string    // short commit of the tree measured
	// Modified is how many paths of the tree differed from Commit (git
	// status, the report's own output directory left out).
	Modified   int
	Machine    Machine
	LoadBefore Load
	LoadAfter  Load
	Count      int
	Benchtime  string
	// Note is -note: what was measured, in the measurer's words.
	Note string
	// FloorAdded: -only left the floor out and it was run for the ratios.
	FloorAdded   bool
	Measurements []Measurement
	// File is the raw output's file name, in the output directory.
	File string
	// Previous is the earlier run's file compared with (empty: none);
	// PreviousCommitted says whether git tracks it.
	Previous          string
	PreviousCommitted bool
	// PreviousLoad is the load the previous run saw, from its headers.
	PreviousLoad string
	// Benchstat is benchstat's comparison of Previous and File, or
	// BenchstatErr why there is none.
	Benchstat    string
	BenchstatErr string
}

// A Row is one benchmark's line of the README's table. Missing numbers
// are NaN.
type Row struct {
	Bench  Benchmark
	Status Status
	Note   string
	// Wall is seconds per run (sec/op), CPU the process's CPU seconds per
	// -count, Alloc bytes per run (B/op), RSS the process's peak resident
	// set in bytes.
	Wall, CPU, Alloc, RSS float64
	// Events per run, virtual seconds per wall second and nanoseconds per
	// event, as the simulator benchmarks report them.
	Events, VirtualPerWall, NsPerEvent float64
	// PerEvent is NsPerEvent divided by the floor's; Total is Wall
	// divided by the floor's Wall (its virtual day).
	PerEvent, Total float64
}

var nan = math.NaN()

// Rows computes the table of run: medians over -count, ratios to the
// floor measured in the same run.
func Rows(run Run) []Row {
	rows := make([]Row, 0, len(run.Measurements))
	for _, m := range run.Measurements {
		r := Row{Bench: m.Bench, Status: m.Status, Note: m.Note,
			Wall: nan, CPU: nan, Alloc: nan, RSS: nan, Events: nan, VirtualPerWall: nan,
			NsPerEvent: nan, PerEvent: nan, Total: nan}
		if m.Status == Ran {
			r.Wall = median(m.Results, "ns/op") / 1e9
			r.Alloc = median(m.Results, "B/op")
			r.Events = median(m.Results, "events/run")
			r.VirtualPerWall = median(m.Results, "virtual-s/s")
			r.NsPerEvent = median(m.Results, "ns/event")
			if run.Count > 0 {
				r.CPU = m.CPU.Seconds() / float64(run.Count)
			}
			if m.MaxRSS > 0 {
				r.RSS = float64(m.MaxRSS)
			}
		}
		rows = append(rows, r)
	}
	var floor *Row
	for i := range rows {
		if rows[i].Bench.Name == floorName && rows[i].Status == Ran {
			floor = &rows[i]
		}
	}
	if floor == nil {
		return rows
	}
	for i := range rows {
		if rows[i].Bench.Sim {
			rows[i].PerEvent = rows[i].NsPerEvent / floor.NsPerEvent
			rows[i].Total = rows[i].Wall / floor.Wall
		}
	}
	return rows
}

// Verdict is a target's outcome.
type Verdict int

const (
	// NotMeasured: a benchmark the target needs did not run.
	NotMeasured Verdict = iota
	// Met: the target holds.
	Met
	// Missed: it does not.
	Missed
)

// String returns "not measured", "met" or "missed".
func (v Verdict) String() string {
	switch v {
	case Met:
		return "met"
	case Missed:
		return "missed"
	default:
		return "not measured"
	}
}

// A Target is one of issue 13's goals, checked against a run's rows.
type Target struct {
	// Goal is the target as the README states it.
	Goal  string
	check func(rows map[string]Row) (Verdict, string)
}

// An Outcome is a target checked: its verdict and what was measured.
type Outcome struct {
	Goal     string
	Verdict  Verdict
	Measured string
}

const gib = 1 << 30

// Targets are issue 13's and issue 25's targets. The ratios are of the same run's floor.
// Hour1000's is of total time against the floor's virtual day, as
// Day50x3's: a reference client parks its sync ticker when it has nothing
// to send, so those runs have few events, and per event they compare
// with nothing; Day50x3Ticking, which never parks, is the per-event one.
var Targets = []Target{
	{Goal: "Day50x3 ≤ 2× Floor, total time (the same virtual day)", check: func(rows map[string]Row) (Verdict, string) {
		return ratioAtMost(rows, "BenchmarkDay50x3", 2, false)
	}},
	{Goal: "Day50x3Ticking ≤ 3× Floor, per event", check: func(rows map[string]Row) (Verdict, string) {
		v, s := ratioAtMost(rows, "BenchmarkDay50x3Ticking", 3, true)
		return v, s + againstInStep(rows, "BenchmarkDay50x3Ticking", v)
	}},
	{Goal: "Hour1000 ≤ 10× Floor (total time, against Floor's virtual day) and peak RSS < 1 GiB", check: func(rows map[string]Row) (Verdict, string) {
		return withRSS(rows, "BenchmarkHour1000", gib, func() (Verdict, string) {
			return ratioAtMost(rows, "BenchmarkHour1000", 10, false)
		})
	}},
	{Goal: "Clients100x50 ≤ 20× Floor, total time (issue 25)", check: func(rows map[string]Row) (Verdict, string) {
		return ratioAtMost(rows, "BenchmarkClients100x50", 20, false)
	}},
	{Goal: "Clients1000x50 ≤ 200× Floor (total time) and peak RSS < 8 GiB (issue 25)", check: func(rows map[string]Row) (Verdict, string) {
		return withRSS(rows, "BenchmarkClients1000x50", 8*gib, func() (Verdict, string) {
			return ratioAtMost(rows, "BenchmarkClients1000x50", 200, false)
		})
	}},
	{Goal: "Clients100x500 reported (issue 25)", check: func(rows map[string]Row) (Verdict, string) {
		r, ok := rows["BenchmarkClients100x500"]
		switch {
		case !ok:
			return NotMeasured, "not selected"
		case r.Status == Ran:
			return Met, "ran in " + fmtSeconds(r.Wall) + ", " + fmtRatio(r.Total) + " Floor, peak RSS " + fmtBytes(r.RSS)
		case r.Status == Failed:
			return Missed, "failed: " + r.Note
		default:
			return NotMeasured, "skipped: " + r.Note
		}
	}},
}

// withRSS is ratio's verdict, missed too when name's peak RSS reaches
// limit.
func withRSS(rows map[string]Row, name string, limit float64, ratio func() (Verdict, string)) (Verdict, string) {
	v, s := ratio()
	if v == NotMeasured {
		return v, s
	}
	r := rows[name]
	if math.IsNaN(r.RSS) {
		return NotMeasured, s + "; peak RSS not measured"
	}
	s += "; peak RSS " + fmtBytes(r.RSS)
	if r.RSS >= limit {
		v = Missed
	}
	return v, s
}

// ratioAtMost checks name's ratio to the floor (per event, or of total
// time) against limit.
func ratioAtMost(rows map[string]Row, name string, limit float64, perEvent bool) (Verdict, string) {
	r, ok := rows[name]
	f, fok := rows[floorName]
	switch {
	case !ok || r.Status != Ran:
		return NotMeasured, short(name) + " did not run"
	case !fok || f.Status != Ran:
		return NotMeasured, "Floor did not run"
	}
	ratio, a, b := r.Total, fmtSeconds(r.Wall), fmtSeconds(f.Wall)
	if perEvent {
		ratio, a, b = r.PerEvent, fmtNanos(r.NsPerEvent)+"/event", fmtNanos(f.NsPerEvent)+"/event"
	}
	if math.IsNaN(ratio) {
		return NotMeasured, short(name) + " or Floor reported no time per event"
	}
	s := fmt.Sprintf("%s ÷ %s = %s", a, b, fmtRatio(ratio))
	if ratio <= limit {
		return Met, s
	}
	return Missed, s
}

// againstInStep is what the per-event verdict v of name leaves out: since
// issue 22 every world keeps the bubble's own clock in step, which Floor
// does not, so the same ratio against FloorInStep follows ("" when either
// did not run or v was not measured).
func againstInStep(rows map[string]Row, name string, v Verdict) string {
	r, ok := rows[name]
	f, fok := rows[floorInStepName]
	if v == NotMeasured || !ok || !fok || f.Status != Ran || math.IsNaN(f.NsPerEvent) || f.NsPerEvent <= 0 {
		return ""
	}
	return fmt.Sprintf("; against FloorInStep's %s/event (%s Floor): %s", fmtNanos(f.NsPerEvent), fmtRatio(f.PerEvent), fmtRatio(r.NsPerEvent/f.NsPerEvent))
}

// CheckTargets checks every target against rows.
func CheckTargets(targets []Target, rows []Row) []Outcome {
	byName := make(map[string]Row, len(rows))
	for _, r := range rows {
		byName[r.Bench.Name] = r
	}
	out := make([]Outcome, 0, len(targets))
	for _, t := range targets {
		v, s := t.check(byName)
		out = append(out, Outcome{Goal: t.Goal, Verdict: v, Measured: s})
	}
	return out
}
