// Package concurrent is the suite's check of the contract under real
// concurrency (DET-3/concurrent-use): interfaces.AllocRunner's methods are
// safe for concurrent use, and Client.Shutdown returns only once every
// goroutine of the client has ended.
//
// The simulator cannot see a missing lock: it runs a runner in a synctest
// bubble on a mock clock whose mutex every goroutine takes, which orders
// everything the race detector looks at. This property runs the runner
// outside any bubble, on a real clock (github.com/benbjohnson/clock's
// New) and ports that share no lock across runners (ports.go): a node
// client with a few allocs whose tasks exit, restart, get updated,
// stopped and removed within milliseconds, while user goroutines call the
// contract's methods at random (users.go), and the client shuts down in
// the middle of it; and lone alloc runners whose Run races Shutdown,
// Destroy and the other methods (runner.go).
//
// Without -race its verdict is what holds in every interleaving: no
// panic, every call returns (bounded waits with a diagnosis), results are
// well-formed, and once Client.Shutdown (or a runner's Shutdown and Run)
// returned no port call is in flight nor started. Under -race (the CI's
// race stage, the mutation tool's re-judge of sync mutants) the detector
// reports the data races of a runner's missing synchronisation.
//
// It is the one property that reads real time: a check takes a few tens
// of milliseconds and is not reproducible by its seed, which only draws
// the shape of the check (how many allocs, which calls).
package concurrent
