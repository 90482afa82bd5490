// Package faults is the simulator's fault model: fault classes as data,
// the printable and parseable fault plan of a run, swarm-style drawing of
// a plan from a seed, and the Injector that turns a plan into decisions at
// the world's injection points (the mock driver's Faults hook, the state
// DB's FaultHook, the RPC transport, the CSI plugin).
//
// A plan is a list of faults, one per line:
//
//	driver_start_failure rate=0.2 recoverable=true
//	rpc_partition at=5m0s for=30s
//	client_crash at=12m0s for=5s
//
// Per-call classes (rate=...) fire at each call with probability rate,
// until the optional until= offset (faults heal then, SYNC-5.3); timed
// classes (at=...) fire once at that offset from the run's start. Each
// class says which scenarios it applies to (Class.Applies), so sweeps skip
// what cannot happen.
//
// Drawing is swarm testing (FoundationDB BUGGIFY, TigerBeetle VOPR): the
// seed first decides which applicable classes are switched on for the
// run, then their parameters and instants. Per-call decisions are not
// drawn ahead: the Injector derives each from the run seed, the class, the
// call's key (task ID, RPC method, state DB path) and the call's ordinal
// for that key (seeds.Decision), so they do not depend on which goroutine
// called first.
package faults
