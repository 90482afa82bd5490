// Package hookstatstest reads what hook telemetry recorded in a go-metrics
// InmemSink back as a sorted, deterministic list of Metric values, for
// tests, the simulator and the conformance properties (TELEM-1..4).
//
// The InmemSink aggregates per wall-clock interval; Read merges all
// retained intervals, so callers should use NewSink, whose interval and
// retention are long enough that nothing is pruned during a run. Tally
// aggregates emissions given one by one into the same list without a
// sink (the simulator's way).
package hookstatstest
