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
// from them, and only when that decoded alloc compares same
// (structs.Allocation.SameJSON, typed, without reflection) to the alloc
// that was encoded. A later alloc that compares same to the decoded one
// therefore encodes to the same bytes (SameJSON is true only for values
// encoding/json encodes alike), so those bytes are reused. The decoded
// alloc is the memo's own memory: nothing a caller holds can change it.
// An alloc that does not survive a round trip unchanged (say, a time with
// a zone, which comes back as another *time.Location) is marked, and its
// ID is not memoised again until its bucket is deleted, so it does not pay
// the decode at every write.
//
// It also keeps the caller's pointer whose encoding the bytes are (src):
// a caller that promises an alloc unchanged since it last put that very
// pointer (PutUnchangedAllocation) gets the bytes back without any
// comparison. The pointer is only read when the caller also promised
// never to change it (PutFrozenAllocation): then it is the decoded alloc's
// stand-in, compared as the decoded one would be, and nothing is decoded.
type allocMemo struct {
	mu      sync.Mutex
	entries map[string]memoEntry
}

type memoEntry struct {
	alloc *structs.Allocation // nil: this ID is not memoised
	enc   []byte              // shared with the store: never modified
	src   *structs.Allocation // the caller's alloc enc encodes
}

// encode returns the JSON encoding of a, reusing the memoised bytes when
// a equals the memoised alloc, or, with unchanged, when a is the pointer
// they were last encoded from (the caller promises it did not change).
func (m *allocMemo) encode(a *structs.Allocation, unchanged bool) ([]byte, error) {
	return m.encodeAs(a, unchanged, false)
}

// encodeFrozen is encode of an alloc its caller will never change: when
// it must be encoded, it is kept as the memo's alloc itself (SameJSON to
// a is what the bytes encode either way), with no decode.
func (m *allocMemo) encodeFrozen(a *structs.Allocation) ([]byte, error) {
	return m.encodeAs(a, false, true)
}

func (m *allocMemo) encodeAs(a *structs.Allocation, unchanged, frozen bool) ([]byte, error) {
	m.mu.Lock()
	e, seen := m.entries[a.ID]
	m.mu.Unlock()
	switch {
	case unchanged && seen && e.src == a:
		return e.enc, nil
	case e.alloc != nil && a.SameJSON(e.alloc):
		m.record(a.ID, memoEntry{alloc: e.alloc, enc: e.enc, src: a})
		return e.enc, nil
	}
	enc, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	if frozen {
		m.record(a.ID, memoEntry{alloc: a, enc: enc, src: a})
		return enc, nil
	}
	var back *structs.Allocation
	if !seen || e.alloc != nil { // a marked ID is not decoded again
		if json.Unmarshal(enc, &back) != nil || !a.SameJSON(back) {
			back = nil
		}
	}
	m.record(a.ID, memoEntry{alloc: back, enc: enc, src: a})
	return enc, nil
}

func (m *allocMemo) record(allocID string, e memoEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil {
		m.entries = map[string]memoEntry{}
	}
	m.entries[allocID] = e
}

// forget drops an alloc's entry (its bucket was deleted).
func (m *allocMemo) forget(allocID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, allocID)
}
