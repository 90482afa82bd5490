package syncpolicy

import "github.com/allocsim/allocsim/model/structs"

// Entry is one update of a batch as the tick classified it.
type Entry struct {
	// Alloc is a deep copy of the buffered stripped alloc (SYNC-1).
	Alloc *structs.Allocation
	// Priority is the SYNC-2 priority the tick used: Typical or Urgent
	// (None entries never enter a batch; an entry without a runner is
	// Typical, SYNC-3).
	Priority Priority
	// HasRunner reports whether an alloc runner existed at the tick; on
	// success only those entries are acknowledged (SYNC-3).
	HasRunner bool
}

// pending is one buffered update: the stripped alloc and the insertion
// sequence number that orders it against later updates of the same alloc.
type pending struct {
	alloc *structs.Allocation
	seq   uint64
}

// batched is a pending update with its tick-time classification.
type batched struct {
	pending
	prio   Priority
	runner bool
}

// Batch is what one tick took from the buffer, sorted by alloc ID (DET-2,
// SYNC-3). Its zero value is the empty batch. The buffered allocs it holds
// are never handed out: Allocs and Entries return copies, so a transport may
// keep or mutate what it sends and a later Failed still re-inserts the
// states that were taken.
type Batch struct {
	entries []batched
}

// Len is the number of updates in the batch.
func (b Batch) Len() int { return len(b.entries) }

// Allocs returns deep copies of the batch's stripped allocs, sorted by
// alloc ID: the Alloc field of the AllocUpdateRequest (SYNC-3).
func (b Batch) Allocs() []*structs.Allocation {
	out := make([]*structs.Allocation, len(b.entries))
	for i, e := range b.entries {
		out[i] = e.alloc.Stripped()
	}
	return out
}

// Peek returns the batch's own stripped allocs, sorted by alloc ID, not
// copies: read them only, and only until the batch is Failed (which
// re-inserts them into the buffer, where nothing changes them) or
// Delivered (which hands them over). Allocs is the copying form.
func (b Batch) Peek() []*structs.Allocation {
	out := make([]*structs.Allocation, len(b.entries))
	for i, e := range b.entries {
		out[i] = e.alloc
	}
	return out
}

// Entries returns the batch's updates with their classification, sorted by
// alloc ID; each Alloc is a deep copy.
func (b Batch) Entries() []Entry {
	out := make([]Entry, len(b.entries))
	for i, e := range b.entries {
		out[i] = Entry{Alloc: e.alloc.Stripped(), Priority: e.prio, HasRunner: e.runner}
	}
	return out
}

// Delivered returns the batch's updates with their classification, sorted
// by alloc ID, for the acknowledgements after Succeeded: each Alloc is the
// batch's own, handed over without a copy, for the caller to keep and
// read, never to change: the buffer's later updates of the same allocs
// share memory with them (Buffer.Add shares with what the last Tick
// took). Call it once, after Succeeded, and use the batch no further (no
// Failed, Allocs or Entries): Entries is the copying form. Acknowledging
// with it spared a third of the task state copies of
// BenchmarkClients100x50.
func (b Batch) Delivered() []Entry {
	out := make([]Entry, len(b.entries))
	for i, e := range b.entries {
		out[i] = Entry{Alloc: e.alloc, Priority: e.prio, HasRunner: e.runner}
	}
	return out
}

// Urgent reports whether any entry is Urgent: the batch was not held back
// by the 5th-tick rule (SYNC-5.1).
func (b Batch) Urgent() bool {
	for _, e := range b.entries {
		if e.prio == Urgent {
			return true
		}
	}
	return false
}
