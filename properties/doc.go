// Package properties is the conformance suite: SPEC.md as properties
// checked over simulated runs of any runner that implements the contract
// (impl/interfaces, plugins/drivers). It is used the way
// testing/fstest.TestFS is:
//
//	func TestConform(t *testing.T) {
//		properties.Run(t, myrunner.Factory)
//	}
//
// Run runs one subtest per property, named by its SPEC ID
// ("SCHED-5/inside-windows-only"); Check returns the same results as a
// Report without failing anything (the suite's own mutant tests use it).
//
// Each property draws scenarios from seeds (jobs, schedules and zones, a
// fault plan, API calls, crash points, how long to run), runs each in the
// simulator inside a testing/synctest bubble, checks the trace and what
// the runner pushed against model/ at every settled instant, heals the
// faults and checks what should then happen (liveness), and shrinks the
// first failing scenario. A failure prints the SPEC ID, the violation as
// "<alloc>/<task> @<virtual time (local time)>: <what> = <got>, want
// <want>", the seed, the shrunk scenario, the last trace records and the
// command that replays it; the seed is also a test attribute (t.Attr,
// seen by go test -json) and the traces are written under
// t.ArtifactDir(), with porcupine's HTML visualization when a history
// check (package linearizability: hook resources, the server's view of
// each alloc) found no linearization. One property failing never stops
// the others.
//
// Runs are reproducible because the world holds the runner's injected
// calls and releases them one at a time; that also hides data races from
// the race detector. WithFreeRunning releases the holds, so that a seed
// replayed under go test -race shows the runner's own races (not its
// verdicts: free runs are not reproducible). One property runs outside
// the simulator for that reason: DET-3/concurrent-use (package
// internal/concurrent) calls a node client and lone alloc runners from
// many goroutines on a sped-up real clock, checks that nothing panics,
// hangs or outlives Client.Shutdown, and under -race lets the detector
// judge the runner's locking; its checks are not reproducible by seed.
//
// Flags (registered on import, beside go test's): -allocsim.seed=<n>
// replays one seed, -allocsim.checks=<n> sets the checks per property,
// -allocsim.budget=<d> the real-time budget, -allocsim.artifacts=<dir>
// where failing traces go. They win over options.
//
// Runner rules: see impl/interfaces (how a runner behaves under the
// simulator) and sim (what the simulator does and reports when a runner
// hangs it).
package properties
