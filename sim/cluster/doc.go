// Package cluster runs many simulated clients against one simulated
// server and measures their client-to-server allocation sync (SPEC
// SYNC-1..SYNC-5): what sim.World does for one client under faults,
// cluster does for N clients without faults, for studies and benchmarks
// of sync traffic (project issue 13).
//
// A Cluster is N clients of the runner under test (each built with the
// Factory's NewClient and NewAllocRunner, with its own node ID, in-memory
// state DB, in-memory alloc dir file system, mock driver and connection
// through sim/transport) and one sim/server.Server, all on one
// sim/vclock.Clock. It lives inside a testing/synctest bubble, like a
// World, and advances the same way, one instant at a time:
//
//  1. settle: synctest.Wait until every goroutine of the bubble is
//     durably blocked;
//  2. move the clock to the next due timer and fire every timer due then,
//     with synctest.Wait between two fires (vclock.Clock.SetBarrier);
//  3. repeat until the target instant; the caller's operations (Place,
//     Apply) run between two advances, on its goroutine, while the
//     cluster is settled: Run applies a churn's operations due at an
//     instant after the timers of that instant.
//
// Nothing is held or injected: there are no faults and no gate; every
// client RPC takes Config.RPCLatency to reach the server, and its reply
// returns at once (for Node.UpdateAlloc, after the server's 50 ms commit
// window).
//
// The run is a deterministic function of the seed (TestDeterminism):
// timers that fall due at one instant fire one at a time with a barrier
// between, so goroutines racing within an instant only ever race on
// order-free state (the sync buffer is a map; batches are sorted), and
// the Result sorts what they race to record (one instant's pushes).
//
// What it observes (observe.go), per client:
//
//  1. every push of an alloc's computed state (the StateUpdater the
//     client hands its runners, wrapped through the AllocRunnerFactory as
//     sim.World does): a ClientStatus different from the alloc's previous
//     one (the server's "pending" before the first push) is a Change,
//     Urgent or not by SYNC-2 against the acknowledged ClientStatus;
//  2. every Node.UpdateAlloc: when it started, when the server received
//     it (a wrapper of the server's RPC entry point), when it returned,
//     how many allocs it carried and whether one was Urgent against the
//     acknowledged state (what the client's calls that returned without
//     error carried);
//  3. a Change is seen by the server when a call that started after it
//     was pushed, carrying its alloc, is received: the sync buffer keeps
//     the newest state per alloc (SYNC-1), so that call carries the
//     change or a newer state.
//
// Run(cfg, churn) is the whole of a run: New, the churn's operations
// (placements, job updates and stops drawn from the seed, Churn.Plan),
// Close, and the Result.
package cluster
