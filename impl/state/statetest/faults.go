package statetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

var errInjected = errors.New("injected put failure")

// writeOp is one write method call on alloc a1 and the Write the fault hook
// must see for it.
type writeOp struct {
	name string
	want state.Write
	do   func(db interfaces.StateDB) error
	kind *kind // nil for deletes
}

func writeOps() []writeOp {
	var ops []writeOp
	for i := range kinds {
		k := &kinds[i]
		task := ""
		if k.task {
			task = "web"
		}
		ops = append(ops, writeOp{
			name: "put " + k.key,
			want: state.Write{Op: state.OpPut, AllocID: "a1", Task: task, Key: k.key},
			do:   func(db interfaces.StateDB) error { return k.put(db, "a1", task, fixtures[k.key].full("a1")) },
			kind: k,
		})
	}
	return append(ops,
		writeOp{name: "DeleteTaskBucket", want: state.Write{Op: state.OpDelete, AllocID: "a1", Task: "web"},
			do: func(db interfaces.StateDB) error { return db.DeleteTaskBucket("a1", "web") }},
		writeOp{name: "DeleteAllocationBucket", want: state.Write{Op: state.OpDelete, AllocID: "a1"},
			do: func(db interfaces.StateDB) error { return db.DeleteAllocationBucket("a1") }},
	)
}

// recorder is a FaultHook that records writes and fails them while armed.
type recorder struct {
	mu     sync.Mutex
	writes []state.Write
	armed  atomic.Bool
}

func (r *recorder) hook(w state.Write) error {
	r.mu.Lock()
	r.writes = append(r.writes, w)
	r.mu.Unlock()
	if r.armed.Load() {
		return errInjected
	}
	return nil
}

func (r *recorder) take() []state.Write {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.writes
	r.writes = nil
	return w
}

// testFaultHookSeesWrites: the hook is consulted exactly once per write,
// with the STATE-1 names, and never for reads.
func testFaultHookSeesWrites(t *testing.T, open Opener) {
	rec := &recorder{}
	db := open(t, rec.hook)
	for _, op := range writeOps() {
		must(t, op.do(db))
		if got := rec.take(); !slices.Equal(got, []state.Write{op.want}) {
			t.Fatalf("%s: hook saw %v, want [%v]", op.name, got, op.want)
		}
	}
	putEverything(t, db, "a1")
	rec.take()
	checkEverything(t, db, "a1", true)
	if _, _, err := db.GetAllAllocations(); err != nil {
		t.Fatal(err)
	}
	if got := rec.take(); len(got) != 0 {
		t.Fatalf("reads consulted the hook: %v", got)
	}
}

// testInjectedFailure: a write the hook fails returns its error (errors.Is)
// and changes nothing: prior values stay, no bucket appears (STATE-1).
func testInjectedFailure(t *testing.T, open Opener) {
	rec := &recorder{}
	db := open(t, rec.hook)
	for _, op := range writeOps() {
		clearAll(t, db)
		rec.armed.Store(true)
		if err := op.do(db); !errors.Is(err, errInjected) {
			t.Fatalf("%s on an empty DB with the hook failing = %v, want the injected error", op.name, err)
		}
		rec.armed.Store(false)
		allocs, errs, err := db.GetAllAllocations()
		if err != nil || len(allocs) != 0 || len(errs) != 0 {
			t.Fatalf("after a failed %s on an empty DB: GetAllAllocations = %v, %v, %v; want nothing", op.name, allocIDs(allocs), errs, err)
		}
		putEverything(t, db, "a1")
		rec.armed.Store(true)
		if op.kind != nil {
			v := fixtures[op.kind.key].full("a1")
			fixtures[op.kind.key].mutate(v)
			err = op.kind.put(db, "a1", op.want.Task, v)
		} else {
			err = op.do(db)
		}
		if !errors.Is(err, errInjected) {
			t.Fatalf("%s with the hook failing = %v, want the injected error", op.name, err)
		}
		rec.armed.Store(false)
		checkEverything(t, db, "a1", true)
	}
}

// testInvalidArguments: empty alloc IDs and task names and a nil alloc are
// rejected with ErrInvalidArgument before the hook and before any write.
func testInvalidArguments(t *testing.T, open Opener) {
	rec := &recorder{}
	db := open(t, rec.hook)
	calls := map[string]func() error{
		"PutAllocation(nil)":           func() error { return db.PutAllocation(nil) },
		"PutAllocation(empty ID)":      func() error { return db.PutAllocation(&structs.Allocation{}) },
		"DeleteAllocationBucket(\"\")": func() error { return db.DeleteAllocationBucket("") },
		"DeleteTaskBucket(\"\", web)":  func() error { return db.DeleteTaskBucket("", "web") },
		"DeleteTaskBucket(a1, \"\")":   func() error { return db.DeleteTaskBucket("a1", "") },
		"GetTaskRunnerState(a1, \"\")": func() error { _, _, err := db.GetTaskRunnerState("a1", ""); return err },
	}
	for _, k := range kinds[1:] {
		v := fixtures[k.key].full("a1")
		calls[fmt.Sprintf("put %s(\"\")", k.key)] = func() error { return k.put(db, "", "web", v) }
		calls[fmt.Sprintf("get %s(\"\")", k.key)] = func() error { _, err := k.get(db, "", "web"); return err }
		if k.task {
			calls[fmt.Sprintf("put %s(a1, \"\")", k.key)] = func() error { return k.put(db, "a1", "", v) }
		}
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, state.ErrInvalidArgument) {
			t.Fatalf("%s = %v, want ErrInvalidArgument", name, err)
		}
	}
	if got := rec.take(); len(got) != 0 {
		t.Fatalf("invalid calls consulted the hook: %v", got)
	}
	if allocs, errs, err := db.GetAllAllocations(); err != nil || len(allocs) != 0 || len(errs) != 0 {
		t.Fatalf("invalid calls wrote: %v, %v, %v", allocIDs(allocs), errs, err)
	}
}

// testClosed: after Close every method returns ErrClosed; Close is
// idempotent.
func testClosed(t *testing.T, open Opener) {
	db := open(t, nil)
	putEverything(t, db, "a1")
	must(t, db.Close())
	must(t, db.Close())
	for _, op := range writeOps() {
		if err := op.do(db); !errors.Is(err, state.ErrClosed) {
			t.Fatalf("%s after Close = %v, want ErrClosed", op.name, err)
		}
	}
	for _, k := range kinds {
		if _, err := k.get(db, "a1", "web"); !errors.Is(err, state.ErrClosed) {
			t.Fatalf("get %s after Close = %v, want ErrClosed", k.key, err)
		}
	}
}

// testReopen: a reopened DB holds every write that returned nil; the old
// handle is closed; a closed DB reopens too.
func testReopen(t *testing.T, open Opener) {
	db := open(t, nil)
	r, ok := db.(state.Reopener)
	if !ok {
		t.Skipf("%s does not implement state.Reopener", db.Name())
	}
	putEverything(t, db, "a1")
	putEverything(t, db, "a2")
	must(t, db.DeleteTaskBucket("a2", "web"))
	db2, err := r.Reopen()
	must(t, err)
	t.Cleanup(func() { _ = db2.Close() })
	if err := db.PutAllocation(fullAlloc("a3")); !errors.Is(err, state.ErrClosed) {
		t.Fatalf("put on the handle that was reopened = %v, want ErrClosed", err)
	}
	checkEverything(t, db2, "a1", true)
	if ls, ts, err := db2.GetTaskRunnerState("a2", "web"); err != nil || ls != nil || ts != nil {
		t.Fatalf("deleted task after reopen = %v, %v, %v; want nil", ls, ts, err)
	}
	must(t, db2.Close())
	db3, err := db2.(state.Reopener).Reopen()
	must(t, err)
	t.Cleanup(func() { _ = db3.Close() })
	checkEverything(t, db3, "a1", true)
}

// testConcurrentWriters: concurrent writers and readers on distinct allocs
// lose nothing (run with -race).
func testConcurrentWriters(t *testing.T, open Opener) {
	db := open(t, nil)
	const writers, perWriter = 4, 5
	var wg sync.WaitGroup
	errc := make(chan error, writers*perWriter*3+writers)
	for w := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				id := fmt.Sprintf("w%d-%d", w, i)
				errc <- db.PutAllocation(fullAlloc(id))
				errc <- db.PutTaskState(id, "web", fullTaskState())
				errc <- db.PutAcknowledgedState(id, &structs.AllocState{ClientStatus: id})
			}
		}()
		go func() {
			defer wg.Done()
			_, _, err := db.GetAllAllocations()
			errc <- err
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		must(t, err)
	}
	allocs, errs, err := db.GetAllAllocations()
	must(t, err)
	if len(allocs) != writers*perWriter || len(errs) != 0 {
		t.Fatalf("after concurrent writes: %d allocs, errors %v; want %d, none", len(allocs), errs, writers*perWriter)
	}
	for _, a := range allocs {
		s, err := db.GetAcknowledgedState(a.ID)
		if err != nil || s == nil || s.ClientStatus != a.ID {
			t.Fatalf("acknowledged state of %s = %+v, %v", a.ID, s, err)
		}
	}
}
