// Package server is the simulated Nomad server of a run: it registers
// jobs and places their allocations on the client node, serves the
// client's blocking alloc pulls, receives the client's alloc updates
// (SYNC-4) and forwards pause, signal and restart requests to the node
// (API-7).
// It runs on the world's virtual clock and is safe for concurrent use.
//
// Node.UpdateAlloc (SYNC-4), in order:
//
//  1. the request is checked with model/syncpolicy.ValidateUpdateAlloc
//     (at least one alloc, a node ID, a known node allowed to update,
//     no evals); a failure is returned at once and nothing is stored;
//  2. each alloc gets ModifyTime = now and the request joins the pending
//     batch; the first request of a batch arms one CommitWindow (50 ms)
//     clock timer;
//  3. when it fires, the whole batch is committed as one log entry (one
//     index, its encoded size counted: the "Raft traffic" figure of
//     Stats), every known alloc of it takes the client's fields, its
//     history records the state with the virtual receive time (unless
//     Config.DiscardHistory), terminal
//     updates create at most one eval per (namespace, job), and every
//     caller of the batch returns that index.
//
// The alloc pull is Nomad's two calls (model/structs/rpc.go).
// Node.GetClientAllocs is a blocking query: it returns the node's alloc
// index and an index map (alloc ID → AllocModifyIndex of every alloc
// placed on the node) once that index exceeds MinQueryIndex, or the
// current map after MaxQueryTime. The node's alloc index is the log index
// of the last server-side change to one of its allocs (placement, job
// update, stop: what moves AllocModifyIndex); the client's own updates
// move the log index but not this one, so they do not wake its pull; the
// caller's context (the transport cancels it when the connection closes)
// ends it early, so no wait outlives its client. A call whose reply is
// the old NodeClientAllocsResponse (every alloc) fails with
// structs.MsgGetClientAllocsReplyChanged. Alloc.GetAllocs returns the
// requested allocs, at once (one server: its state always holds what a
// map listed).
//
// Jobs: RegisterJob places Count allocs per group on the placement node
// (the first registered node in ID order) with IDs drawn from the
// server's seeded source. Re-registering a job whose only change is task
// Schedule blocks updates its allocs in place (same alloc, higher
// AllocModifyIndex, PAUSE-7); any other change stops the old allocs and
// places new ones, as does re-registering a job DeregisterJob stopped.
// StopJob sets every alloc of the job to desired stop.
//
// Parameterized jobs (Nomad's dispatch): registering one places nothing.
// DispatchJob checks a dispatch against it (validateDispatch, Nomad's texts),
// then registers and places the child job
// `<parent>/dispatch-<unix seconds>-<8 hex>` (the clock's time, hex from
// the server's source) with the dispatch meta merged over the parent's.
//
// Records for Nomad's HTTP API (records.go, of impl/agent/records' types;
// project issue 14), kept beside the data above and never traced, so runs
// that do not use them trace exactly as before:
//
//  1. job records: each registered job's version (0 first; +1 for a
//     registration that changes it or restarts it after a stop; +1 for a
//     stop), submit time, create/modify indexes and Stop flag;
//     DeregisterJob stops a job (and with purge removes its record);
//  2. alloc records: the evaluation that placed each alloc and the stamp
//     of its job version (a job purged and registered again is a new
//     incarnation: JobAllocs without all lists only the current one's);
//  3. evaluations: RegisterJobEval, DispatchJobEval, DeregisterJob and
//     StopAlloc record one each (`job-register`, `job-deregister`,
//     `alloc-stop`) with an ID their caller draws, and every SYNC-4 eval
//     gets a record too; all are complete when created (no scheduler
//     queue);
//  4. node descriptions: name, datacenter, pool, class and drivers
//     (DescribeNode; defaults `node-<8 ID characters>`, `dc1`,
//     `default`).
//
// StopAlloc sets one alloc to desired stop, as a job stop does, and places
// no replacement.
package server
