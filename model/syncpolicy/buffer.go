package syncpolicy

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/allocsim/allocsim/model/structs"
)

// Classifier gives a buffered update's SYNC-2 priority against the
// acknowledged state of its alloc runner, and whether a runner exists. The
// update is the buffer's own copy: read it, do not keep or mutate it. When
// hasRunner is false the priority is ignored: the entry is included and
// never urgent (SYNC-3).
type Classifier func(update *structs.Allocation) (p Priority, hasRunner bool)

// Class is a precomputed classification for ClassifyMap.
type Class struct {
	Priority  Priority
	HasRunner bool
}

// ClassifyMap is a Classifier over classifications precomputed by alloc ID;
// an ID missing from m has no runner.
func ClassifyMap(m map[string]Class) Classifier {
	return func(update *structs.Allocation) (Priority, bool) {
		c, ok := m[update.ID]
		return c.Priority, ok && c.HasRunner
	}
}

// Action is what the sync loop does after a tick (SYNC-3).
type Action int

// Tick outcomes.
const (
	// Hold: no RPC, buffer untouched, next tick after TickInterval.
	Hold Action = iota
	// Send: one Node.UpdateAlloc with the batch, then Failed or Succeeded.
	Send
	// Rephase: the buffer held only None entries and was cleared; no RPC;
	// re-phase the ticker (next tick TickInterval from now).
	Rephase
)

// String returns "hold", "send" or "rephase".
func (a Action) String() string {
	switch a {
	case Hold:
		return "hold"
	case Send:
		return "send"
	case Rephase:
		return "rephase"
	default:
		return fmt.Sprintf("action(%d)", int(a))
	}
}

// Reason names the SYNC-3 step that decided a tick.
type Reason int

// Tick reasons, in the order SYNC-3 checks them.
const (
	// ReasonEmpty: the buffer was empty (Hold).
	ReasonEmpty Reason = iota
	// ReasonNotContacted: servers not yet contacted (Hold).
	ReasonNotContacted
	// ReasonNotDue: n mod 5 ≠ 0 and nothing Urgent (Hold).
	ReasonNotDue
	// ReasonUrgent: n mod 5 ≠ 0 but an entry was Urgent (Send).
	ReasonUrgent
	// ReasonDue: n mod 5 = 0 (Send or Rephase).
	ReasonDue
)

// String returns a short description for traces.
func (r Reason) String() string {
	switch r {
	case ReasonEmpty:
		return "buffer empty"
	case ReasonNotContacted:
		return "servers not contacted"
	case ReasonNotDue:
		return "not a full-sync tick and nothing urgent"
	case ReasonUrgent:
		return "urgent update"
	case ReasonDue:
		return "full-sync tick"
	default:
		return fmt.Sprintf("reason(%d)", int(r))
	}
}

// TickInput is what the loop knows at a tick.
type TickInput struct {
	// ServersContacted: ServersContactedCh is closed (SYNC-3).
	ServersContacted bool
	// Classify classifies each buffered entry; nil treats every entry as
	// having no runner (included, never urgent).
	Classify Classifier
}

// TickResult is a tick's decision.
type TickResult struct {
	Action Action
	Reason Reason
	// N is the tick counter after this tick's increment.
	N uint64
	// Batch is non-empty exactly when Action is Send.
	Batch Batch
}

// Buffer is the client-wide pending-updates buffer with the sync loop's
// tick counter (SYNC-1, SYNC-3). The zero value is an empty buffer with
// n = 0. A Buffer is not safe for concurrent use: the client serialises
// calls with its own lock, held only for the call, never across an RPC.
// Tick calls the Classifier synchronously, so a caller that holds a lock
// around Tick must not let the Classifier take a lock that a producer holds
// while it calls Add.
type Buffer struct {
	entries map[string]pending
	// taken holds, by alloc ID, the update a Tick took last: an Add of an
	// alloc with no update buffered shares with it what did not change
	// (a runner pushes its alloc again after a batch carried it, most
	// task states unchanged). Nothing changes them: a batch hands them
	// out to be read only (Peek, Delivered). Forget drops an alloc's.
	taken map[string]*structs.Allocation
	seq   uint64 // last insertion sequence number handed out
	n     uint64 // tick counter
}

// Add stores the stripped copy of alloc under its ID, replacing any older
// update of that alloc (SYNC-1: newest wins, no priority stored). A nil
// alloc is ignored.
func (b *Buffer) Add(alloc *structs.Allocation) {
	if alloc == nil {
		return
	}
	if b.entries == nil {
		b.entries = make(map[string]pending)
	}
	b.seq++
	// The buffer never changes an update it holds (Peek), so the new one
	// shares what is unchanged with the one it replaces, or else with the
	// alloc's update a Tick took last.
	prev, ok := b.entries[alloc.ID]
	if !ok {
		prev.alloc = b.taken[alloc.ID]
	}
	b.entries[alloc.ID] = pending{alloc: alloc.StrippedReusing(prev.alloc), seq: b.seq}
}

// Forget drops what the buffer keeps of allocID's last taken update (its
// runner is gone); a buffered update of it stays.
func (b *Buffer) Forget(allocID string) { delete(b.taken, allocID) }

// Len is the number of buffered updates.
func (b *Buffer) Len() int { return len(b.entries) }

// N is the tick counter.
func (b *Buffer) N() uint64 { return b.n }

// Get returns a deep copy of the buffered update for allocID.
func (b *Buffer) Get(allocID string) (*structs.Allocation, bool) {
	p, ok := b.entries[allocID]
	if !ok {
		return nil, false
	}
	return p.alloc.Stripped(), true
}

// Peek returns the buffered update for allocID itself, not a copy. The
// buffer never changes an update it holds (Add replaces it, Tick and
// Failed move it), so it may be read after the caller's lock is released;
// nothing may change it.
func (b *Buffer) Peek(allocID string) (*structs.Allocation, bool) {
	p, ok := b.entries[allocID]
	return p.alloc, ok
}

// Tick applies one SYNC-3 tick:
//
//  1. n++;
//  2. buffer empty → Hold (ReasonEmpty); servers not contacted → Hold
//     (ReasonNotContacted);
//  3. classify every entry, in alloc ID order (no runner → included,
//     never urgent);
//  4. n mod 5 ≠ 0 and nothing Urgent → Hold, buffer untouched
//     (ReasonNotDue);
//  5. take and clear the buffer, dropping None entries;
//  6. empty batch → Rephase; else Send the batch sorted by alloc ID
//     (ReasonUrgent, or ReasonDue on a 5th tick).
func (b *Buffer) Tick(in TickInput) TickResult {
	b.n++
	res := TickResult{Action: Hold, N: b.n}
	switch {
	case len(b.entries) == 0:
		res.Reason = ReasonEmpty
		return res
	case !in.ServersContacted:
		res.Reason = ReasonNotContacted
		return res
	}
	// Classify in alloc ID order so that a classifier's calls never
	// reveal map order (DET-2); the batch is then already sorted.
	classified := make([]batched, 0, len(b.entries))
	for _, p := range b.entries {
		classified = append(classified, batched{pending: p, prio: Typical})
	}
	slices.SortFunc(classified, func(x, y batched) int { return cmp.Compare(x.alloc.ID, y.alloc.ID) })
	urgent := false
	for i := range classified {
		e := &classified[i]
		if in.Classify != nil {
			prio, runner := in.Classify(e.alloc)
			if runner {
				e.prio, e.runner = prio, true
			}
		}
		urgent = urgent || e.prio == Urgent
	}
	due := b.n%FullSyncEvery == 0
	if !due && !urgent {
		res.Reason = ReasonNotDue
		return res
	}
	res.Reason = ReasonUrgent
	if due {
		res.Reason = ReasonDue
	}
	clear(b.entries)
	if b.taken == nil {
		b.taken = make(map[string]*structs.Allocation, len(classified))
	}
	for _, e := range classified {
		b.taken[e.alloc.ID] = e.alloc
	}
	batch := classified[:0]
	for _, e := range classified {
		if e.prio != None {
			batch = append(batch, e)
		}
	}
	if len(batch) == 0 {
		res.Action = Rephase
		return res
	}
	res.Action, res.Batch = Send, Batch{entries: batch}
	return res
}

// Failed reports that the RPC carrying batch failed (SYNC-3): each entry is
// re-inserted unless an update for its alloc newer than the entry (added
// after the batch was taken) is buffered; n is kept. The caller waits
// RetryDelay before the next tick.
func (b *Buffer) Failed(batch Batch) {
	if len(batch.entries) > 0 && b.entries == nil {
		b.entries = make(map[string]pending, len(batch.entries))
	}
	for _, e := range batch.entries {
		if cur, ok := b.entries[e.alloc.ID]; ok && cur.seq > e.seq {
			continue
		}
		b.entries[e.alloc.ID] = e.pending
	}
}

// Succeeded reports that the RPC succeeded (SYNC-3): n = 0. The caller
// acknowledges the entries whose runner exists and ticks again
// TickInterval after the reply.
func (b *Buffer) Succeeded() { b.n = 0 }
