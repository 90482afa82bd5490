// Package rejected is a foreign runner shape for the conformance suite's
// own tests: an alloc runner whose pushes the server rejects.
//
// The runner is examples/noderunner's, except for what it pushes: rather
// than a copy of its alloc, it builds a small status update for
// AllocStateUpdated (the alloc ID and the client-computed fields, which
// is what the client-to-server update is about) and so leaves the node
// ID out. The reference client buffers the pushed alloc as it is
// (Allocation.Stripped keeps the pushed NodeID), and sends it in
// Node.UpdateAlloc; the server validates the request with the node ID of
// its first alloc (model/syncpolicy.ValidateUpdateAlloc, SYNC-4) and
// rejects every such call with "missing node ID". Nothing the runner
// reports ever reaches the server; the client retries for good.
//
// Verdict the suite must give, under the client-communication profile on
// the reference node client: fails with a SYNC-4 verdict: the server
// rejected the client's Node.UpdateAlloc calls, the first with
// "missing node ID", because what the runner pushed had no NodeID.
package rejected
