package main

import "regexp"

// A Benchmark is one benchmark the report runs, in a process of its own.
type Benchmark struct {
	// Pkg is the package's directory relative to the module root,
	// slash-separated: "sim".
	Pkg string
	// Name is the benchmark function: "BenchmarkDay50x3".
	Name string
	// What says what it measures, for the README's table.
	What string
	// Sim marks a simulator benchmark: it reports events/run,
	// virtual-s/s and ns/event, and is compared with BenchmarkFloor.
	Sim bool
}

// floorName is the benchmark every simulator benchmark is divided by.
const floorName = "BenchmarkFloor"

// floorInStepName is Floor's loop with the bubble kept in step: the
// least a world's event costs since issue 22, beside the Ticking target.
const floorInStepName = "BenchmarkFloorInStep"

// Benchmarks are the benchmarks of project issues 13 and 25, in the README's
// order; the first is the floor.
var Benchmarks = []Benchmark{
	{Pkg: "sim", Name: floorName, Sim: true,
		What: "the bare clock and barrier loop: a 200 ms ticker, 150 idle timers, synctest.Wait between advances, one virtual day (432,000 events), no runner"},
	{Pkg: "sim", Name: floorInStepName, Sim: true,
		What: "Floor with the bubble's own clock kept in step, as every world keeps it since issue 22: a bubble sleep and a second synctest.Wait before each advance"},
	{Pkg: "sim", Name: "BenchmarkDay50x3", Sim: true,
		What: "reference runner: 1 client, 50 allocs × 3 scheduled tasks, 24 virtual h, trace discarded"},
	{Pkg: "sim", Name: "BenchmarkDay50x3Ticking", Sim: true,
		What: "the same day with reference.Ticking: the sync loop ticks every 200 ms and never parks, as a foreign runner's would"},
	{Pkg: "sim", Name: "BenchmarkDay50x3Minimal", Sim: true,
		What: "the same day with the minimal runner (client traffic only)"},
	{Pkg: "sim", Name: "BenchmarkHour1000", Sim: true,
		What: "reference runner: 1 client, 1,000 allocs × 1 scheduled task (window 00:10-00:40), 1 virtual h, trace discarded"},
	{Pkg: "sim", Name: "BenchmarkReplaySeed", Sim: true,
		What: "one generated replay-test scenario (seed 7, faults on, a few virtual min), reference runner, trace kept"},
	{Pkg: "sim/cluster", Name: "BenchmarkClients100x50", Sim: true,
		What: "100 clients × 50 allocs, 10 virtual min"},
	{Pkg: "sim/cluster", Name: "BenchmarkClients1000x50", Sim: true,
		What: "1,000 clients × 50 allocs, 10 virtual min: the cost of more clients"},
	{Pkg: "sim/cluster", Name: "BenchmarkClients100x500", Sim: true,
		What: "100 clients × 500 allocs, 10 virtual min: the cost of more allocs per client"},
	{Pkg: "linearizability", Name: "BenchmarkPorcupine10k",
		What: "porcupine's check of a linearizable 10,000-operation hook-resources history, 5 concurrent clients"},
}

// selectBenchmarks returns the benchmarks of all whose name only matches
// (nil: all), in order, and whether the floor was added because a
// selected simulator benchmark needs it for its ratios.
func selectBenchmarks(all []Benchmark, only *regexp.Regexp) (sel []Benchmark, floorAdded bool) {
	needFloor, haveFloor := false, false
	for _, b := range all {
		if only != nil && !only.MatchString(b.Name) {
			continue
		}
		sel = append(sel, b)
		needFloor = needFloor || b.Sim
		haveFloor = haveFloor || b.Name == floorName
	}
	if !needFloor || haveFloor {
		return sel, false
	}
	for _, b := range all {
		if b.Name == floorName {
			return append([]Benchmark{b}, sel...), true
		}
	}
	return sel, false
}
