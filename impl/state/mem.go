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
	keys  memBucket
	tasks map[string]memBucket
}

// memBucket is one bucket's values by key.
type memBucket map[string]memVal

// memVal is a stored value. own: v is flat and the store's copy of a
// borrowed put, shared with nothing, so a later borrowed put of the key
// may overwrite it in place; other values were taken over from the DB
// (an alloc's bytes are shared with its memo, a rope references the
// task states put frozen) and are never changed.
type memVal struct {
	v   value
	own bool
}

// set stores val under key: taken over, or, borrowed (flat), copied into
// the memory of the value it replaces when that is the store's own and
// large enough, else into new memory. Writing in place spares the
// allocation of most task state and local state writes (each at most a
// little longer than the one before) and the garbage of the value
// replaced.
func (bkt memBucket) set(key string, val value, borrowed bool) {
	if !borrowed {
		bkt[key] = memVal{v: val}
		return
	}
	old := bkt[key]
	if old.own && cap(old.v.flat) >= len(val.flat) {
		bkt[key] = memVal{v: flatValue(append(old.v.flat[:0], val.flat...)), own: true}
		return
	}
	bkt[key] = memVal{v: flatValue(bytes.Clone(val.flat)), own: true} // no spare room: the store stays as small as the values
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

func (m *memBackend) put(allocID, task, key string, val value, borrowed bool) error {
	return m.locked(func(allocs map[string]*memAlloc) error {
		a := allocs[allocID]
		if a == nil {
			a = &memAlloc{keys: memBucket{}, tasks: map[string]memBucket{}}
			allocs[allocID] = a
		}
		if task == "" {
			a.keys.set(key, val, borrowed)
			return nil
		}
		t := a.tasks[task]
		if t == nil {
			t = memBucket{}
			a.tasks[task] = t
		}
		t.set(key, val, borrowed)
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
			out[i] = src[k].v.clone()
		}
		return nil
	})
	return out, err
}

func (m *memBackend) allocEntries() ([]rawAlloc, error) {
	var out []rawAlloc
	err := m.locked(func(allocs map[string]*memAlloc) error {
		for id, a := range allocs { // the DB sorts
			out = append(out, rawAlloc{id: id, val: a.keys[KeyAlloc].v.clone()})
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
