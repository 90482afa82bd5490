package state

import (
	"bytes"
	"sync"
)

// MemConfig configures NewMemDB. The zero value injects no faults.
type MemConfig struct {
	// FaultHook, if non-nil, is consulted before every write (STATE-1).
	FaultHook FaultHook
	// BatchHook, if non-nil, runs when a Batch begins.
	BatchHook BatchHook
}

// NewMemDB returns an empty in-memory state DB with the semantics of the
// bbolt one: it keeps the encoded bytes, so copies and decode errors behave
// the same. Reopen hands the same data to a new handle, which is how the
// simulator models a client restart; it has no schema version.
func NewMemDB(cfg MemConfig) *DB {
	data := &memData{allocs: map[string]*memAlloc{}}
	return newDB(&memBackend{data: data}, cfg.FaultHook, cfg.BatchHook)
}

// memData is the storage shared by every handle of one memory DB.
type memData struct {
	mu     sync.Mutex
	allocs map[string]*memAlloc
}

// memAlloc is one alloc bucket: alloc-level keys and task buckets.
type memAlloc struct {
	keys  map[string][]byte
	tasks map[string]map[string][]byte
}

// memBackend is one handle on a memData; closed is guarded by data.mu.
type memBackend struct {
	data   *memData
	closed bool
}

func (m *memBackend) name() string { return "memdb" }

func (m *memBackend) isClosed() bool {
	m.data.mu.Lock()
	defer m.data.mu.Unlock()
	return m.closed
}

// locked runs fn under the data lock unless the handle is closed.
func (m *memBackend) locked(fn func(allocs map[string]*memAlloc) error) error {
	m.data.mu.Lock()
	defer m.data.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	return fn(m.data.allocs)
}

func (m *memBackend) put(allocID, task, key string, val []byte) error {
	return m.locked(func(allocs map[string]*memAlloc) error {
		a := allocs[allocID]
		if a == nil {
			a = &memAlloc{keys: map[string][]byte{}, tasks: map[string]map[string][]byte{}}
			allocs[allocID] = a
		}
		if task == "" {
			a.keys[key] = val
			return nil
		}
		t := a.tasks[task]
		if t == nil {
			t = map[string][]byte{}
			a.tasks[task] = t
		}
		t[key] = val
		return nil
	})
}

func (m *memBackend) get(allocID, task string, keys ...string) ([][]byte, error) {
	out := make([][]byte, len(keys))
	err := m.locked(func(allocs map[string]*memAlloc) error {
		a := allocs[allocID]
		if a == nil {
			return nil
		}
		src := a.keys
		if task != "" {
			src = a.tasks[task] // nil map reads as missing
		}
		for i, k := range keys {
			out[i] = bytes.Clone(src[k])
		}
		return nil
	})
	return out, err
}

func (m *memBackend) allocEntries() ([]rawAlloc, error) {
	var out []rawAlloc
	err := m.locked(func(allocs map[string]*memAlloc) error {
		for id, a := range allocs { // the DB sorts
			out = append(out, rawAlloc{id: id, val: bytes.Clone(a.keys[KeyAlloc])})
		}
		return nil
	})
	return out, err
}

func (m *memBackend) deleteTask(allocID, task string) error {
	return m.locked(func(allocs map[string]*memAlloc) error {
		if a := allocs[allocID]; a != nil {
			delete(a.tasks, task)
		}
		return nil
	})
}

func (m *memBackend) deleteAlloc(allocID string) error {
	return m.locked(func(allocs map[string]*memAlloc) error {
		delete(allocs, allocID)
		return nil
	})
}

func (m *memBackend) close() error {
	m.data.mu.Lock()
	defer m.data.mu.Unlock()
	m.closed = true
	return nil
}

func (m *memBackend) reopen() (backend, error) {
	_ = m.close() // never fails
	return &memBackend{data: m.data}, nil
}
