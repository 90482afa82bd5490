// Package interfaces is the contract between a runner and everything around
// it: what a runner implements and what it is given. The simulator and the
// conformance suite know runners only through it, and a runner written in
// another module implements it by importing this package, plugins/drivers
// (the task driver contract) and model/ only: both are leaves (they import
// the standard library, model/, github.com/benbjohnson/clock and
// go-metrics; a test holds them to it).
//
// What a runner implements:
//
//   - AllocRunner (SPEC AR-1), built by an AllocRunnerFactory from a Config
//     (AR-2, AR-3);
//   - optionally Client, the node client (pull, sync loop, restore), built
//     by a ClientFactory from ClientOptions; impl/client is the reference one;
//   - the alloc and task hook interfaces (AR-4, AR-5), which are how the
//     reference runner is put together; other runners need not use them.
//
// Hook resources (HOOKRES) have no interface here: how a runner keeps them
// is its own. A runner whose store has SetCSIMounts and GetCSIMounts (as
// impl/hookres does) checks it with the store suite from its own test:
// hookrestest.Run(t, myStoreConstructor) (package impl/hookres/hookrestest).
//
// A runner under test is a Factory that names both halves:
// impl/reference.WithAllocRunner pairs an alloc runner with the reference
// node client, and reference.Factory is the complete reference runner.
//
// What a runner is given (the ports): Clock, Rand, Logger, Metrics,
// StateDB (STATE-1), AllocDirFactory (ADIR), DriverManager
// (plugins/drivers), CSIManager (HOOKRES-2), RPCClient, StateUpdater
// (SYNC-1), ServersContactedCh, PrevAllocWatcher and PrevAllocMigrator.
// Under simulation every one of them is the world's: the driver, the CSI
// plugin, the state DB and the RPC transport are held by the world at a
// gate and released one call at a time in an order drawn from the seed, so
// any of these calls may take virtual time and return in any order.
//
// # Rules for a runner under simulation
//
// The simulator runs a runner inside a testing/synctest bubble on a
// virtual clock and settles the world after every event: it waits until
// every goroutine of the run is durably blocked, then acts. A seed then
// reproduces a run byte for byte (DET-4), if the runner keeps these rules:
//
//  1. Time only from the injected Clock (Config.Clock, ClientOptions.Clock;
//     DET-1): Now, Timer, AfterFunc, Ticker. Never time.Now, time.Since,
//     time.Sleep, time.After, time.NewTimer/NewTicker, context.WithTimeout
//     or go-metrics' MeasureSince: inside the bubble they read synctest's
//     own clock (it starts at 2000-01-01), not the world's. Build deadlines
//     from a clock Timer plus context.WithCancel. Never arm a Ticker of a
//     non-positive period. Every time a runner writes (TaskEvent.Time,
//     StartedAt, FinishedAt, LastRestart) is the Clock's Now at that moment.
//  2. Randomness only from the injected Rand (Config.Rand,
//     ClientOptions.Rand; DET-1). Derive child sources in a fixed order
//     (alloc ID order), never from math/rand's globals or crypto/rand.
//  3. I/O only through the ports above (DET-1): no environment variables,
//     host name or host time zone (Config.ClientConfig.LocalZone is the
//     zone of schedules without one).
//  4. What may block, and on what (DET-3). A goroutine may wait on the
//     Clock, on a channel or select over channels made inside the run, on
//     sync.Cond, on a sync.WaitGroup whose Add ran inside the run, and
//     inside an injected call (these are what synctest calls durably
//     blocked). It must never wait for a sync.Mutex or
//     sync.RWMutex that another goroutine holds across an injected call:
//     a goroutine waiting for a mutex is not durably blocked for synctest,
//     so the world never settles and the run stops with a stall diagnosis.
//     A mutex that only guards memory (no injected call, no channel
//     operation while held) is fine. A lock held across an injected call
//     is a channel of capacity one (see the example).
//  5. StateUpdater.AllocStateUpdated never blocks and is the only way a
//     runner reports a computed alloc (SYNC-1): the world observes runners
//     there, so a Client MUST build every alloc runner with the
//     ClientOptions.AllocRunnerFactory it is given.
//  6. Observable order is sorted (DET-2): tasks by name, allocs by ID,
//     volumes by alias, hooks in registration order. Never range over a
//     map into events, task states, RPC arguments or state DB writes.
//  7. Results do not depend on interleaving (DET-3): event lists, states,
//     RPC contents, DB writes per key and metric values are the same
//     whichever goroutine runs first within one instant.
//  8. Every goroutine has an owner that stops it: after Client.Shutdown
//     returns, no goroutine of the client or its runners is left (the
//     world counts them and reports a leak).
//
// The simulator reports a broken rule with the runner's name, the rule and
// the seed instead of hanging or passing: a stall watchdog outside the
// bubble (rule 4) prints the bubble's goroutines, those waiting in
// sync.(*Mutex).Lock first; a task event or state stamped with a time that
// is not the world's virtual now is a DET-1 violation (rule 1); two runs of
// one seed whose traces differ are reported with the first differing
// record (rules 2, 6, 7); leaked goroutines are reported after Shutdown
// (rule 8).
//
// # The alloc pull
//
// A Client pulls as Nomad's does (model/structs/rpc.go has the shapes):
//
//  1. Node.GetClientAllocs(NodeClientAllocsRequest{NodeID, MinQueryIndex})
//     blocks until the node's alloc index exceeds MinQueryIndex (or 5
//     minutes passed) and replies NodeClientAllocsIndexResponse: Index
//     and, for every alloc placed on the node, its AllocModifyIndex by
//     ID. The client's own Node.UpdateAlloc calls do not move it.
//  2. Alloc.GetAllocs(AllocsGetRequest{AllocIDs}) replies the allocs
//     (AllocsGetResponse, jobs and task states included). A client asks
//     only for what it needs: allocs it has no runner for, and those whose
//     AllocModifyIndex moved past the one its runner holds.
//  3. An alloc that left the map is no longer placed on the node: its
//     runner is destroyed.
//
// Both calls cross the simulated network like every RPC (latency,
// failure, partition) and are traced. Node.GetClientAllocs called with
// the reply type of old, NodeClientAllocsResponse (every alloc, on every
// wake), fails with structs.MsgGetClientAllocsReplyChanged.
//
// # Example
//
// A runner that must hold a lock across a state DB write uses a channel:
//
//	// stateLock serialises persisting; it may be held across StateDB calls.
//	type stateLock chan struct{}
//
//	func newStateLock() stateLock { return make(stateLock, 1) }
//	func (l stateLock) Lock()     { l <- struct{}{} }
//	func (l stateLock) Unlock()   { <-l }
//
//	func (r *runner) persist() error {
//		r.persistLock.Lock() // a channel: durably blocked while waiting
//		defer r.persistLock.Unlock()
//		r.mu.Lock() // a sync.Mutex: only for the copy, never across the call
//		alloc := r.alloc.Copy()
//		r.mu.Unlock()
//		return r.cfg.StateDB.PutAllocation(alloc)
//	}
//
// and is checked from its own module's test:
//
//	func TestConformance(t *testing.T) {
//		f := reference.WithAllocRunner("myrunner", myrunner.NewAllocRunner)
//		// run it in the simulator (sim.Run) or the conformance suite
//	}
//
// impl/minimal is a complete small runner written by these rules.
package interfaces
