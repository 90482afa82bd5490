// Package syncpolicy holds the rules of client-to-server allocation sync
// (SPEC §9) as pure values: update priority, the pending-updates buffer and
// its tick rule, the retry backoff, and the server's validation of a
// Node.UpdateAlloc request. It has no goroutines, no clock reads and no I/O;
// the client's sync loop owns the ticker, the RPC and the random source and
// feeds their outcomes in.
//
// The sync contract, as the client drives a Buffer:
//
//  1. Every AllocStateUpdated(alloc) calls Buffer.Add: the stripped alloc
//     is stored by alloc ID, newest wins, no priority stored (SYNC-1).
//  2. Every TickInterval (200 ms) the loop calls Buffer.Tick with whether the
//     servers were contacted and a Classifier giving each entry's priority
//     against its acknowledged state (UpdatePriority, SYNC-2).
//  3. Tick increments the counter n. It holds when the buffer is empty or
//     the servers were not contacted; it holds, buffer untouched, when n is
//     not a multiple of FullSyncEvery (5) and nothing is Urgent; otherwise it
//     takes and clears the buffer, dropping None entries, and answers
//     Rephase for an empty batch or Send with the batch sorted by alloc ID
//     (SYNC-3).
//  4. After Send the loop makes one Node.UpdateAlloc RPC and reports it:
//     Buffer.Failed(batch) re-inserts each entry unless a newer update for
//     its alloc arrived meanwhile, n kept, next tick after RetryDelay(u);
//     Buffer.Succeeded() sets n = 0, next tick TickInterval after the reply.
//     Exactly one batch is in flight: the loop reports it before the next
//     Tick.
//
// The server side (SYNC-4) is ValidateUpdateAlloc, whose messages are the
// Msg constants beside it, and the CommitWindow batching constant.
package syncpolicy
