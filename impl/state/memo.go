package state

import (
	"encoding/json"
	"sync"

	"github.com/allocsim/allocsim/model/structs"
)

// allocMemo spares the encoding of an unchanged alloc. A client persists
// every alloc every 60 s (STATE-2) although an alloc rarely changes
// between two snapshots, and encoding it (task states with their events,
// the job) is most of the cost of the write. The write itself still
// happens, fault hook and all: only the bytes are reused.
//
// For each alloc ID it keeps the last bytes encoded and the alloc decoded
// from them, and only when that decoded alloc is reflect.DeepEqual to the
// alloc that was encoded. A later alloc DeepEqual to the decoded one
// therefore encodes to the same bytes (encoding/json's output is a
// function of the value: same fields, maps in sorted key order), so those
// bytes are reused. The decoded alloc is the memo's own memory: nothing a
// caller holds can change it. An alloc that does not survive a round trip
// unchanged (say, a time with a zone, which comes back as another
// *time.Location) is marked, and its ID is not memoised again until its
// bucket is deleted, so it does not pay the decode at every write.
type allocMemo struct {
	mu      sync.Mutex
	entries map[string]memoEntry
}

type memoEntry struct {
	alloc *structs.Allocation // nil: this ID is not memoised
	enc   []byte              // shared with the store: never modified
}

// encode returns the JSON encoding of a, reusing the memoised bytes when
// a equals the memoised alloc.
func (m *allocMemo) encode(a *structs.Allocation) ([]byte, error) {
	m.mu.Lock()
	e, seen := m.entries[a.ID]
	m.mu.Unlock()
	if e.alloc != nil && same(a, e.alloc) {
		return e.enc, nil
	}
	enc, err := json.Marshal(a)
	if err != nil || (seen && e.alloc == nil) {
		return enc, err
	}
	var back *structs.Allocation
	if json.Unmarshal(enc, &back) != nil || !same(a, back) {
		back = nil
	}
	m.mu.Lock()
	if m.entries == nil {
		m.entries = map[string]memoEntry{}
	}
	m.entries[a.ID] = memoEntry{alloc: back, enc: enc}
	m.mu.Unlock()
	return enc, nil
}

// forget drops an alloc's entry (its bucket was deleted).
func (m *allocMemo) forget(allocID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, allocID)
}
