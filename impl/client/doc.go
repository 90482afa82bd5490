// Package client is the reference node client (interfaces.Client): it
// pulls the node's allocs from the servers, runs one alloc runner each
// (built through the injected AllocRunnerFactory, SPEC AR-3), syncs their
// states back with the prioritized loop of SPEC §9, restores allocs from
// the state DB at start (SPEC §10, STATE-3) and answers the servers' calls
// for its allocs (API-7).
//
// Contract, as New and Start set it up:
//
//  1. New copies the node config, builds the TELEM-2 base labels once
//     (node_id, datacenter, node_class, node_pool) and seeds two private
//     sources from ClientOptions.Rand: one derives every runner's own Rand
//     (alloc-ID order within a restore or a pull), one draws the sync
//     retry jitter. Time comes only from ClientOptions.Clock.
//  2. Start restores (STATE-3: load, drop allocs without task state, build,
//     Restore, AcknowledgeState, register all, then Run each) and starts
//     three loops, each one goroutine owned by the client.
//  3. Pull loop, Nomad's two calls: blocking Node.GetClientAllocs with
//     MinQueryIndex = the last index applied answers with an index map
//     (alloc ID → AllocModifyIndex); one Alloc.GetAllocs fetches the allocs
//     without a runner (unless reported failed, or seen client-terminal at
//     that index) and those whose index moved. The view is then diffed
//     against the live runners in alloc-ID order: left the map → Destroy
//     (in an owned goroutine), higher AllocModifyIndex → Update (Reconnect
//     for `unknown`), new → factory, PutAllocation, register, go Run. A
//     factory error buffers the stripped alloc as `failed` (SYNC-1). The
//     first successful pull closes ServersContactedCh after it is applied.
//     A failed call of either kind applies nothing and backs off 1 s,
//     doubling to 30 s, then pulls again from the same index.
//  4. Sync loop (SYNC-3): a 200 ms clock ticker; each tick classifies the
//     buffered updates with each runner's GetUpdatePriority (without the
//     buffer lock) and applies syncpolicy.Buffer.Tick. A Send is one
//     Node.UpdateAlloc with the batch sorted by alloc ID, made from the
//     loop itself, so one RPC is in flight. Success: AcknowledgeState to
//     the runners that exist, n = 0, next tick 200 ms after the reply.
//     Failure: re-insert unless newer, next tick after 5 s + uniform[0,
//     5 s). Rephase: next tick 200 ms from now.
//  5. Snapshot loop: PersistState of every runner every 60 s (STATE-2).
//  6. AllocStateUpdated (the StateUpdater of every runner) only inserts
//     into the buffer under a lock held for the insert: producers never
//     block, whatever the RPC does (SYNC-1, SYNC-5.5).
//  7. ClientRPC looks up the live runner (`Unknown allocation "<id>"`) and
//     calls its method (API-7).
//  8. Shutdown cancels the loops, waits for them, persists and shuts down
//     every runner (tasks keep running) and returns when every goroutine
//     the client started has ended.
package client
