package main

import (
	"math"
	"regexp"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// ran is a measurement of name that ran, with one result of values.
func ran(name string, values ...Value) Measurement {
	b := benchmark(name)
	return Measurement{Bench: b, Status: Ran, CPU: 2 * time.Second, MaxRSS: 100 << 20,
		Results: []Result{{Name: name, Procs: 2, N: 1, Values: values}}}
}

// benchmark is the Benchmarks entry called name.
func benchmark(name string) Benchmark {
	for _, b := range Benchmarks {
		if b.Name == name {
			return b
		}
	}
	panic("no benchmark " + name)
}

// simValues are a simulator result: wall seconds, events per run.
func simValues(wall float64, events float64) []Value {
	return []Value{{wall * 1e9, "ns/op"}, {events, "events/run"}, {86400 / wall, "virtual-s/s"}, {wall * 1e9 / events, "ns/event"}, {1 << 20, "B/op"}}
}

// goodRun meets every target: Floor 1 s per 432,000 events; Day50x3 1.5 s
// (1.5×); Ticking 1.08 s per 432,000 events (1.08× per event); Hour1000 8 s
// (8×) in 512 MiB; Clients100x50 15 s (15×); Clients1000x50 150 s (150×)
// in 6 GiB; Clients100x500 ran.
func goodRun() Run {
	hour := ran("BenchmarkHour1000", simValues(8, 99)...)
	hour.MaxRSS = 512 << 20
	thousand := ran("BenchmarkClients1000x50", simValues(150, 30000)...)
	thousand.MaxRSS = 6 << 30
	return Run{Count: 1, Benchtime: "1x", Measurements: []Measurement{
		ran(floorName, simValues(1, 432000)...),
		ran("BenchmarkDay50x3", simValues(1.5, 2038)...),
		ran("BenchmarkDay50x3Ticking", simValues(1.08, 432000)...),
		hour,
		ran("BenchmarkClients100x50", simValues(15, 3000)...),
		ran("BenchmarkPorcupine10k", Value{2e8, "ns/op"}),
		thousand,
		ran("BenchmarkClients100x500", simValues(40, 30000)...),
	}}
}

func verdicts(run Run) []Verdict {
	var vs []Verdict
	for _, o := range CheckTargets(Targets, Rows(run)) {
		vs = append(vs, o.Verdict)
	}
	return vs
}

func TestRows(t *testing.T) {
	rows := Rows(goodRun())
	must.SliceLen(t, 8, rows)
	day, ticking, porc := rows[1], rows[2], rows[5]
	must.EqOp(t, 1.5, day.Total)
	must.EqOp(t, 2.0, day.CPU, must.Sprint("2 s of CPU over one count"))
	must.EqOp(t, 100.0*(1<<20), day.RSS)
	must.True(t, math.Abs(ticking.PerEvent-1.08) < 1e-9, must.Sprintf("per event %v", ticking.PerEvent))
	must.True(t, math.IsNaN(porc.PerEvent) && math.IsNaN(porc.Events), must.Sprint("porcupine is no simulator benchmark"))
}

func TestTargetsMet(t *testing.T) {
	must.Eq(t, []Verdict{Met, Met, Met, Met, Met, Met}, verdicts(goodRun()))
	out := CheckTargets(Targets, Rows(goodRun()))
	must.EqOp(t, "1.50 s ÷ 1.00 s = 1.50×", out[0].Measured)
	must.EqOp(t, "2.50 µs/event ÷ 2.31 µs/event = 1.08×", out[1].Measured)
	must.EqOp(t, "8.00 s ÷ 1.00 s = 8.00×; peak RSS 512 MiB", out[2].Measured)
	must.EqOp(t, "15.0 s ÷ 1.00 s = 15.0×", out[3].Measured)
	must.EqOp(t, "150 s ÷ 1.00 s = 150×; peak RSS 6.00 GiB", out[4].Measured)
	must.StrHasPrefix(t, "ran in 40.0 s", out[5].Measured)
}

// TestTickingAgainstInStep: with FloorInStep in the run, the Ticking
// target also states its ratio to it; the verdict stays Floor's.
func TestTickingAgainstInStep(t *testing.T) {
	run := goodRun()
	run.Measurements[2] = ran("BenchmarkDay50x3Ticking", simValues(3.5, 432000)...)
	run.Measurements = append(run.Measurements, ran(floorInStepName, simValues(2.5, 432000)...))
	out := CheckTargets(Targets, Rows(run))
	must.EqOp(t, Missed, out[1].Verdict)
	must.EqOp(t, "8.10 µs/event ÷ 2.31 µs/event = 3.50×; against FloorInStep's 5.79 µs/event (2.50× Floor): 1.40×", out[1].Measured)

	run.Measurements = run.Measurements[1:] // no floor: nothing to state
	must.EqOp(t, "Floor did not run", CheckTargets(Targets, Rows(run))[1].Measured)
}

func TestTargetsMissed(t *testing.T) {
	run := goodRun()
	run.Measurements[1] = ran("BenchmarkDay50x3", simValues(2.5, 2038)...)        // 2.5× > 2×
	run.Measurements[2] = ran("BenchmarkDay50x3Ticking", simValues(8, 432000)...) // 8× per event > 3×
	run.Measurements[3].MaxRSS = 1 << 30                                          // 8× but a full GiB
	run.Measurements[4] = ran("BenchmarkClients100x50", simValues(30, 3000)...)   // 30× > 20×
	run.Measurements[6].MaxRSS = 8 << 30                                          // 150× but 8 GiB
	run.Measurements[7] = Measurement{Bench: benchmark("BenchmarkClients100x500"), Status: Failed, Note: "exit status 1"}
	must.Eq(t, []Verdict{Missed, Missed, Missed, Missed, Missed, Missed}, verdicts(run))
	out := CheckTargets(Targets, Rows(run))
	must.EqOp(t, "2.50 s ÷ 1.00 s = 2.50×", out[0].Measured)
	must.EqOp(t, "failed: exit status 1", out[5].Measured)

	run = goodRun()
	run.Measurements[3] = ran("BenchmarkHour1000", simValues(10.5, 99)...)
	must.EqOp(t, Missed, verdicts(run)[2], must.Sprint("10.5× over 10× with little memory"))
}

func TestTargetsNotMeasured(t *testing.T) {
	run := goodRun()
	run.Measurements = run.Measurements[1:] // no floor
	must.Eq(t, []Verdict{NotMeasured, NotMeasured, NotMeasured, NotMeasured, NotMeasured, Met}, verdicts(run))
	must.EqOp(t, "Floor did not run", CheckTargets(Targets, Rows(run))[0].Measured)

	run = goodRun()
	run.Measurements[7] = Measurement{Bench: benchmark("BenchmarkClients100x500"), Status: Skipped, Note: "package ./sim/cluster does not exist in this tree"}
	must.EqOp(t, NotMeasured, verdicts(run)[5])
}

func TestSelectBenchmarks(t *testing.T) {
	names := func(bs []Benchmark) []string {
		var out []string
		for _, b := range bs {
			out = append(out, short(b.Name))
		}
		return out
	}
	all, added := selectBenchmarks(Benchmarks, nil)
	must.SliceLen(t, len(Benchmarks), all)
	must.False(t, added)

	sel, added := selectBenchmarks(Benchmarks, regexp.MustCompile("Day50x3$|Porcupine"))
	must.Eq(t, []string{"Floor", "Day50x3", "Porcupine10k"}, names(sel))
	must.True(t, added, must.Sprint("the floor is added for the ratios"))

	sel, added = selectBenchmarks(Benchmarks, regexp.MustCompile("Porcupine"))
	must.Eq(t, []string{"Porcupine10k"}, names(sel))
	must.False(t, added, must.Sprint("no simulator benchmark: no floor"))
}
