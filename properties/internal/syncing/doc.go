// Package syncing holds the suite's client-to-server allocation sync
// properties (SPEC §9, SYNC-1..SYNC-5): what the server receives of each
// alloc, and when (Properties), and how the client's sync loop sends it:
// urgent states on the first tick, typical ones batched, nothing before
// the servers were contacted, nothing already acknowledged, and runners
// never blocked on it (Timing). The timing properties read the world's
// sync log (sim.World.SyncCalls, FirstContact, BlockedPushes) and judge
// priorities with model/syncpolicy.
package syncing
