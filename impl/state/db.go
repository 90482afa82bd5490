package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/internal/allocjson"
	"github.com/allocsim/allocsim/model/structs"
)

// backend is a byte store with the STATE-1 layout. An empty task means an
// alloc-level key. put takes val over unless borrowed (the DB never
// changes it, so a backend may keep it as is), get returns copies of the
// whole encodings; backends return ErrClosed once closed. The DB above
// them does encoding, checks, ordering and faults, so that both stores
// behave the same.
type backend interface {
	name() string
	isClosed() bool
	// put stores val under allocID[/task-<task>]/key, creating buckets.
	// borrowed (a flat val): val is valid only until put returns (the
	// backend copies it); else the backend may keep val itself.
	put(allocID, task, key string, val value, borrowed bool) error
	// get reads keys of one bucket in one consistent read; a missing key
	// (or bucket) reads as nil.
	get(allocID, task string, keys ...string) ([][]byte, error)
	// allocEntries lists every alloc bucket with its `alloc` value (nil if
	// missing), in any order.
	allocEntries() ([]rawAlloc, error)
	deleteTask(allocID, task string) error
	deleteAlloc(allocID string) error
	close() error
	// reopen closes this handle and opens a new one on the same storage.
	reopen() (backend, error)
}

// rawAlloc is one alloc bucket as a backend lists it.
type rawAlloc struct {
	id  string
	val []byte
}

// DB implements StateDB, Reopener and RawWriter over a bbolt file
// (OpenBolt) or memory (NewMemDB).
type DB struct {
	be        backend
	hook      FaultHook
	batchHook BatchHook
	// memo spares re-encoding unchanged allocs (PutAllocation), frozen
	// the events of task states put frozen (PutFrozenTaskState); a
	// Batch's handle shares both.
	memo   *allocMemo
	frozen *frozenStates
	// inBatch: this is a Batch's handle (its writes are Write.InBatch).
	inBatch bool
}

func newDB(be backend, hook FaultHook, batchHook BatchHook) *DB {
	return &DB{be: be, hook: hook, batchHook: batchHook, memo: new(allocMemo), frozen: new(frozenStates)}
}

var (
	_ interfaces.StateDB = (*DB)(nil)
	_ Reopener           = (*DB)(nil)
	_ RawWriter          = (*DB)(nil)
)

// Name is "boltdb" or "memdb".
func (d *DB) Name() string { return d.be.name() }

// Close releases the store; it is idempotent.
func (d *DB) Close() error { return d.be.close() }

// Reopen closes d (if still open) and opens its storage again with the same
// configuration, as a client restart does.
func (d *DB) Reopen() (interfaces.StateDB, error) {
	be, err := d.be.reopen()
	if err != nil {
		return nil, fmt.Errorf("reopen %s: %w", d.be.name(), err)
	}
	db := newDB(be, d.hook, d.batchHook)
	// The encodings of task states put frozen stay theirs: the restored
	// runners' task states compare same to them (frozenTask.event).
	db.frozen = d.frozen
	return db, nil
}

// PutRaw stores value as is, without encoding or fault hook.
func (d *DB) PutRaw(allocID, taskName, key string, value []byte) error {
	path := entryPath(allocID, taskName, key)
	err := checkIDs(allocID, "", false)
	if err == nil && key == "" {
		err = fmt.Errorf("%w: key is empty", ErrInvalidArgument)
	}
	if err != nil {
		return fmt.Errorf("put raw %s: %w", path, err)
	}
	if err := d.be.put(allocID, taskName, key, flatValue(value), true); err != nil {
		return fmt.Errorf("put raw %s: %w", path, err)
	}
	return nil
}

// PutAllocation implements StateDB.
func (d *DB) PutAllocation(alloc *structs.Allocation) error {
	if alloc == nil {
		return fmt.Errorf("put alloc: %w: alloc is nil", ErrInvalidArgument)
	}
	return d.putWith(alloc.ID, "", KeyAlloc, false, func() (value, error) { return d.memo.encode(alloc, false, d.frozen) })
}

// PutUnchangedAllocation is PutAllocation of an alloc the caller promises
// it has not changed since it last passed this same pointer to
// PutAllocation or PutUnchangedAllocation: the write (fault hook and
// all) stores the bytes encoded then, without encoding or comparing the
// alloc again. An alloc the DB did not encode last for its ID is put as
// by PutAllocation. An alloc runner's 60 s snapshot of an alloc that did
// not change uses it (STATE-2).
func (d *DB) PutUnchangedAllocation(alloc *structs.Allocation) error {
	if alloc == nil {
		return fmt.Errorf("put alloc: %w: alloc is nil", ErrInvalidArgument)
	}
	return d.putWith(alloc.ID, "", KeyAlloc, false, func() (value, error) { return d.memo.encode(alloc, true, d.frozen) })
}

// PutFrozenAllocation is PutAllocation of an alloc the caller promises
// never to change after the call (nor to let anything else change it):
// the DB may keep it to compare later puts of the same ID with, instead
// of decoding what it encoded. An alloc runner's snapshot of an alloc it
// built afresh uses it (STATE-2).
func (d *DB) PutFrozenAllocation(alloc *structs.Allocation) error {
	if alloc == nil {
		return fmt.Errorf("put alloc: %w: alloc is nil", ErrInvalidArgument)
	}
	return d.putWith(alloc.ID, "", KeyAlloc, false, func() (value, error) { return d.memo.encodeFrozen(alloc, d.frozen) })
}

// GetAllAllocations implements StateDB.
func (d *DB) GetAllAllocations() ([]*structs.Allocation, map[string]error, error) {
	entries, err := d.be.allocEntries()
	if err != nil {
		return nil, nil, fmt.Errorf("list allocs: %w", err)
	}
	slices.SortFunc(entries, func(a, b rawAlloc) int { return strings.Compare(a.id, b.id) }) // DET-2
	allocs := make([]*structs.Allocation, 0, len(entries))
	errs := map[string]error{}
	for _, e := range entries {
		a, err := decodeAlloc(e)
		if err != nil {
			errs[e.id] = err
			continue
		}
		allocs = append(allocs, a)
	}
	return allocs, errs, nil
}

// GetAllocation reads alloc allocID's `alloc` entry alone, as
// GetAllAllocations lists it: nil, nil when the alloc has none, and the
// error GetAllAllocations would map to the ID when it does not decode
// (ErrCorrupt, ErrNoAllocEntry). A reader of one alloc (the simulator's
// checkers) decodes one entry instead of all of them.
func (d *DB) GetAllocation(allocID string) (*structs.Allocation, error) {
	path := entryPath(allocID, "", KeyAlloc)
	if err := checkIDs(allocID, "", false); err != nil {
		return nil, fmt.Errorf("get %s: %w", path, err)
	}
	vals, err := d.be.get(allocID, "", KeyAlloc)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", path, err)
	}
	if vals[0] == nil {
		return nil, nil
	}
	return decodeAlloc(rawAlloc{id: allocID, val: vals[0]})
}

func decodeAlloc(e rawAlloc) (*structs.Allocation, error) {
	path := entryPath(e.id, "", KeyAlloc)
	if len(e.val) == 0 {
		return nil, fmt.Errorf("alloc %s: %w", e.id, ErrNoAllocEntry)
	}
	a, err := decode[structs.Allocation](path, e.val)
	switch {
	case err != nil:
		return nil, err
	case a == nil:
		return nil, fmt.Errorf("decode %s: %w: null", path, ErrCorrupt)
	case a.ID != e.id:
		return nil, fmt.Errorf("decode %s: %w: holds alloc ID %q", path, ErrCorrupt, a.ID)
	}
	return a, nil
}

// PutAcknowledgedState implements StateDB.
func (d *DB) PutAcknowledgedState(allocID string, s *structs.AllocState) error {
	return d.putWith(allocID, "", KeyAcknowledgedState, false, func() (value, error) {
		buf := scratchBufs.Get().(*[]byte)
		defer putScratch(buf)
		var refs []allocjson.Ref
		b, err := allocjson.AppendAllocStateRefs((*buf)[:0], allocID, s, d.frozen, &refs)
		*buf = b
		if err != nil {
			return value{}, err
		}
		return value{flat: bytes.Clone(b), refs: refs}, nil
	})
}

// GetAcknowledgedState implements StateDB.
func (d *DB) GetAcknowledgedState(allocID string) (*structs.AllocState, error) {
	return getOne[structs.AllocState](d, allocID, KeyAcknowledgedState)
}

// PutDeploymentStatus implements StateDB.
func (d *DB) PutDeploymentStatus(allocID string, ds *structs.AllocDeploymentStatus) error {
	return d.put(allocID, "", KeyDeployStatus, ds)
}

// GetDeploymentStatus implements StateDB.
func (d *DB) GetDeploymentStatus(allocID string) (*structs.AllocDeploymentStatus, error) {
	return getOne[structs.AllocDeploymentStatus](d, allocID, KeyDeployStatus)
}

// PutNetworkStatus implements StateDB.
func (d *DB) PutNetworkStatus(allocID string, ns *structs.AllocNetworkStatus) error {
	return d.put(allocID, "", KeyNetworkStatus, ns)
}

// GetNetworkStatus implements StateDB.
func (d *DB) GetNetworkStatus(allocID string) (*structs.AllocNetworkStatus, error) {
	return getOne[structs.AllocNetworkStatus](d, allocID, KeyNetworkStatus)
}

// PutAllocVolumes implements StateDB.
func (d *DB) PutAllocVolumes(allocID string, v *interfaces.AllocVolumes) error {
	return d.put(allocID, "", KeyAllocVolume, v)
}

// GetAllocVolumes implements StateDB.
func (d *DB) GetAllocVolumes(allocID string) (*interfaces.AllocVolumes, error) {
	return getOne[interfaces.AllocVolumes](d, allocID, KeyAllocVolume)
}

// PutTaskRunnerLocalState implements StateDB.
func (d *DB) PutTaskRunnerLocalState(allocID, taskName string, ls *interfaces.LocalState) error {
	return d.putAppended(allocID, taskName, KeyLocalState, func(b []byte) ([]byte, error) { return allocjson.AppendLocalState(b, ls) })
}

// PutTaskState implements StateDB.
func (d *DB) PutTaskState(allocID, taskName string, ts *structs.TaskState) error {
	return d.putAppended(allocID, taskName, KeyTaskState, func(b []byte) ([]byte, error) {
		return allocjson.AppendTaskState(b, allocID, taskName, ts, d.frozen, nil)
	})
}

// PutFrozenTaskState is PutTaskState of a task state the caller promises
// never to change after the call, nor any event it holds (nor to let
// anything else change them), and that puts no other task state of that
// task concurrently with this call: the DB remembers the task state, its
// encoding and its events' (frozenStates), so that its task's next
// frozen state copies the bytes of the events it still holds, and an
// alloc or acknowledged state holding it, or copies of its events,
// references those bytes (copies them, on disk), instead of encoding
// them again. A task runner's published task states are such
// (SharedTaskState): each is a new copy sharing the events it kept.
func (d *DB) PutFrozenTaskState(allocID, taskName string, ts *structs.TaskState) error {
	prev := d.frozen.get(allocID, taskName)
	var put *frozenTask
	err := d.putWith(allocID, taskName, KeyTaskState, false, func() (value, error) {
		if prev != nil && prev.ts == ts {
			put = prev
			return flatValue(prev.enc), nil
		}
		var reuse allocjson.Reuse
		if prev != nil {
			reuse = taskReuse{prev: prev}
		}
		buf := scratchBufs.Get().(*[]byte)
		defer putScratch(buf)
		var spans []allocjson.EventSpan
		if ts != nil {
			spans = make([]allocjson.EventSpan, 0, len(ts.Events))
		}
		b, err := allocjson.AppendTaskState((*buf)[:0], allocID, taskName, ts, reuse, &spans)
		*buf = b
		if err != nil {
			return value{}, err
		}
		// The store keeps these bytes (unborrowed) until the task's next
		// write, the DB lends them until its next frozen put, and the
		// ropes that reference them keep them as long as they are kept.
		enc := bytes.Clone(b)
		put = &frozenTask{ts: ts, enc: enc, spans: spans}
		return flatValue(enc), nil
	})
	if put != nil {
		d.frozen.replace(allocID, taskName, prev, put)
	}
	return err
}

// GetTaskRunnerState implements StateDB.
func (d *DB) GetTaskRunnerState(allocID, taskName string) (*interfaces.LocalState, *structs.TaskState, error) {
	path := entryPath(allocID, taskName, "")
	if err := checkIDs(allocID, taskName, true); err != nil {
		return nil, nil, fmt.Errorf("get %s: %w", path, err)
	}
	vals, err := d.be.get(allocID, taskName, KeyLocalState, KeyTaskState)
	if err != nil {
		return nil, nil, fmt.Errorf("get %s: %w", path, err)
	}
	ls, err := decode[interfaces.LocalState](entryPath(allocID, taskName, KeyLocalState), vals[0])
	if err != nil {
		return nil, nil, err
	}
	ts, err := decode[structs.TaskState](entryPath(allocID, taskName, KeyTaskState), vals[1])
	if err != nil {
		return nil, nil, err
	}
	return ls, ts, nil
}

// DeleteTaskBucket implements StateDB.
func (d *DB) DeleteTaskBucket(allocID, taskName string) error {
	w := Write{Op: OpDelete, AllocID: allocID, Task: taskName}
	if err := checkIDs(allocID, taskName, true); err != nil {
		return fmt.Errorf("%s: %w", w, err)
	}
	d.frozen.forget(allocID, taskName)
	return d.write(w, func() error { return d.be.deleteTask(allocID, taskName) })
}

// DeleteAllocationBucket implements StateDB.
func (d *DB) DeleteAllocationBucket(allocID string) error {
	w := Write{Op: OpDelete, AllocID: allocID}
	if err := checkIDs(allocID, "", false); err != nil {
		return fmt.Errorf("%s: %w", w, err)
	}
	d.memo.forget(allocID)
	d.frozen.forget(allocID, "")
	return d.write(w, func() error { return d.be.deleteAlloc(allocID) })
}

// put encodes v and stores it under allocID[/task-<task>]/key.
func (d *DB) put(allocID, task, key string, v any) error {
	return d.putWith(allocID, task, key, false, func() (value, error) {
		b, err := json.Marshal(v)
		return flatValue(b), err
	})
}

// scratchBufs holds the buffers puts encode in before the value is
// copied out of them.
var scratchBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxScratch caps the buffers kept for reuse.
const maxScratch = 64 << 10

// putAppended stores under allocID[/task-<task>]/key what appendTo
// appends to an empty scratch buffer, which the backend copies.
func (d *DB) putAppended(allocID, task, key string, appendTo func([]byte) ([]byte, error)) error {
	buf := scratchBufs.Get().(*[]byte)
	defer putScratch(buf)
	return d.putWith(allocID, task, key, true, func() (value, error) {
		b, err := appendTo((*buf)[:0])
		*buf = b
		return flatValue(b), err
	})
}

// putScratch returns buf to scratchBufs unless it grew too large.
func putScratch(buf *[]byte) {
	if cap(*buf) <= maxScratch {
		scratchBufs.Put(buf)
	}
}

// putWith stores the value encode returns under allocID[/task-<task>]/key;
// the bytes are handed to the backend as they are, borrowed or not
// (backend.put).
func (d *DB) putWith(allocID, task, key string, borrowed bool, encode func() (value, error)) error {
	w := Write{Op: OpPut, AllocID: allocID, Task: task, Key: key}
	if err := checkIDs(allocID, task, key == KeyLocalState || key == KeyTaskState); err != nil {
		return fmt.Errorf("%s: %w", w, err)
	}
	val, err := encode()
	if err != nil {
		return fmt.Errorf("%s: encode: %w", w, err)
	}
	return d.write(w, func() error { return d.be.put(allocID, task, key, val, borrowed) })
}

// write consults the fault hook, then runs do; nothing is written if the
// DB is closed or the hook fails (STATE-1).
func (d *DB) write(w Write, do func() error) error {
	if d.be.isClosed() {
		return fmt.Errorf("%s: %w", w, ErrClosed)
	}
	w.InBatch = d.inBatch
	if d.hook != nil {
		if err := d.hook(w); err != nil {
			return fmt.Errorf("%s: %w", w, err)
		}
	}
	if err := do(); err != nil {
		return fmt.Errorf("%s: %w", w, err)
	}
	return nil
}

// getOne reads and decodes one alloc-level key.
func getOne[T any](d *DB, allocID, key string) (*T, error) {
	path := entryPath(allocID, "", key)
	if err := checkIDs(allocID, "", false); err != nil {
		return nil, fmt.Errorf("get %s: %w", path, err)
	}
	vals, err := d.be.get(allocID, "", key)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", path, err)
	}
	return decode[T](path, vals[0])
}

// decode decodes a stored value as json.Unmarshal does
// (allocjson.Unmarshal); an empty one is missing (nil, nil) and JSON null
// decodes to nil. Unknown fields are ignored.
func decode[T any](path string, val []byte) (*T, error) {
	if len(val) == 0 {
		return nil, nil
	}
	out, err := allocjson.Unmarshal[T](val)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w: %w", path, ErrCorrupt, err)
	}
	return out, nil
}

// checkIDs rejects an empty alloc ID, and an empty task name where one is
// needed.
func checkIDs(allocID, task string, needTask bool) error {
	switch {
	case allocID == "":
		return fmt.Errorf("%w: alloc ID is empty", ErrInvalidArgument)
	case needTask && task == "":
		return fmt.Errorf("%w: task name is empty", ErrInvalidArgument)
	}
	return nil
}
