// Package mutexheld is a foreign runner shape for the conformance suite's
// own tests: an alloc runner that keeps its memory and its state DB in
// step by persisting under its one sync.Mutex.
//
// Run takes the mutex, marks the alloc running, starts a goroutine that
// announces the new state (it takes the same mutex to copy the alloc,
// then calls AllocStateUpdated), and writes the alloc to the state DB
// (Config.StateDB.PutAllocation) before it lets the mutex go. Under the
// simulator that write is an injected call the world holds at its gate
// (sim.HoldStateDB, part of sim.DefaultHold), so the announcing goroutine
// waits for a sync.Mutex held across a held call (interfaces rule 4): it
// is not durably blocked, and the world never settles.
//
// Verdict the suite must give, under the client-communication profile on
// the reference node client: fails with a DET-3 stall verdict (the world
// did not settle) naming the runner and the seed, with the bubble's
// goroutines: the one waiting in sync.(*Mutex).Lock from
// (*Runner).announce first, and the one holding the mutex inside
// (*Runner).Run's state DB write.
package mutexheld
