// Package allocrunner is the reference alloc runner of SPEC §7: it runs
// one allocation with its alloc hooks (alloc_dir,
// await_previous_allocations, migrate_disk, csi_hook) and one task runner
// per task, aggregates task states into the alloc's client status, applies
// the AR-9 kill rules and lifecycle start order, and handles server
// updates, Destroy and Shutdown. NewAllocRunner is an
// interfaces.AllocRunnerFactory.
//
// Construction (NewAllocRunner, AR-2): the alloc dir is built from the
// factory (not yet on storage), then the one hook resources object
// (HOOKRES-1), the alloc hooks, the prerun and task-prestart telemetry
// handlers (TELEM-2: base labels plus the alloc's namespace; TELEM-5
// disables both), the alloc is persisted (STATE-2 "on add"), and one task
// runner per task is built in task-name order, each with a rand source
// derived from Config.Rand in that order (DET-1, DET-2) and its own start
// gate.
//
// Run (AR-1, AR-4):
//
//  1. start the task state handler and the update handler; push the
//     initial state;
//  2. if the alloc should run (not server- or client-terminal, computed
//     status not complete/failed/lost), run the prerun hooks in order, each
//     timed on the injected clock and emitted once (TELEM-3); the first
//     error aborts with `pre-run hook "<name>" failed: <err>` and every
//     task runner is marked failed and killed with Setup Failure
//     (`failed to setup alloc: <err>`), unless a kill or shutdown caused it;
//  3. unless shutting down, launch every task runner's Run; after a
//     successful (or unneeded) setup the start gates open as AR-9 allows:
//     prestart tasks at once, main tasks once prestart non-sidecars
//     completed successfully and prestart sidecars started, poststart once
//     main tasks started, poststop once main tasks are dead; an alloc that
//     is server-terminal at this point is killed at once;
//  4. wait for every task runner, stop the handlers (the task state
//     handler makes a last pass), then, unless shutting down, run the
//     postrun hooks (all of them, errors aggregated); close WaitCh.
//
// Task state handler: every task runner StateUpdated call wakes it
// (coalesced). A pass reads all task states in name order, applies the
// kill rules (a kill rule appends its event to the live tasks and starts
// the kill procedure; once every non-poststop task is dead the
// all-tasks-finished step runs the kill procedure, which runs the prekill
// hooks and releases dead task runners from their alloc restart wait),
// opens start gates, computes ClientStatus and ClientDescription with
// model/status (a SetClientStatus override wins) and hands the computed
// alloc to StateUpdater.AllocStateUpdated and the listeners, holding no
// runner lock. The automatic kills happen at most once, only after a
// successful setup and never after another kill or during shutdown.
//
// Kill procedure (AR-9): prekill hooks, the leader synchronously, the
// other non-sidecar non-poststop tasks concurrently, then the sidecars;
// each unfinished task gets Killing with its capped KillTimeout; poststop
// tasks are untouched unless the setup never completed. Kill procedures
// are serialised, and each cancels a prerun in progress. A kill procedure
// (and a Shutdown) reaches the task runners only once Run has started
// every one of them, so a Kill always waits for the task's run (DET-4).
//
// Updates (AR-10) go through a queue of one handled by one goroutine:
// store, update hooks if not terminal, every task runner's Update, and
// the kill procedure if the alloc newly became server-terminal.
//
// Destroy and Shutdown return at once and finish in a goroutine, closing
// DestroyCh/ShutdownCh when done (see their documentation). Time comes only
// from Config.Clock, which arms no timers here; every goroutine ends with
// Run, Destroy or Shutdown.
package allocrunner
