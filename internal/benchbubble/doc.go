// Package benchbubble runs a simulation inside a testing/synctest bubble
// from a benchmark. synctest.Test needs a *testing.T, which a benchmark
// does not have; testing.RunTests (the exported entry point go test itself
// uses) provides one. The simulator's benchmarks (sim, sim/cluster) share
// it.
package benchbubble
