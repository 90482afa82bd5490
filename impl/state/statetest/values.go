package statetest

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
)

// testMissingReadsNil: on an empty DB every read is nil with no error and
// the alloc list is empty with a non-nil error map.
func testMissingReadsNil(t *testing.T, open Opener) {
	db := open(t, nil)
	allocs, errs, err := db.GetAllAllocations()
	if err != nil || len(allocs) != 0 || errs == nil || len(errs) != 0 {
		t.Fatalf("GetAllAllocations() = %v, %v, %v; want empty, empty non-nil map, nil", allocs, errs, err)
	}
	for _, k := range kinds {
		if v := mustGet(t, db, k, "missing", "web"); !isNull(t, v) {
			t.Fatalf("get %s of a missing alloc = %v, want nil", k.key, v)
		}
	}
	// An existing alloc without the key or task reads nil too.
	mustPut(t, db, kinds[0], "a1", "", fullAlloc("a1"))
	for _, k := range kinds[1:] {
		if v := mustGet(t, db, k, "a1", "web"); !isNull(t, v) {
			t.Fatalf("get %s never written = %v, want nil", k.key, v)
		}
	}
}

// testRoundTrip: for every value, what is got equals what was put last.
func testRoundTrip(t *testing.T, open Opener) {
	for _, k := range kinds {
		t.Run(k.key, func(t *testing.T) {
			db := open(t, nil)
			rapid.Check(t, func(rt *rapid.T) {
				id := rapid.SampledFrom([]string{"a1", "a2"}).Draw(rt, "alloc")
				task := rapid.SampledFrom([]string{"web", "db"}).Draw(rt, "task")
				if !k.task {
					task = ""
				}
				v := k.gen(id).Draw(rt, "value")
				mustPut(rt, db, k, id, task, v)
				sameJSON(rt, fmt.Sprintf("get %s after put", k.key), mustGet(rt, db, k, id, task), v)
			})
		})
	}
}

// testNilValues: a nil value is stored and reads back nil, replacing what
// was there.
func testNilValues(t *testing.T, open Opener) {
	db := open(t, nil)
	for _, k := range kinds {
		if k.zero == nil {
			continue // PutAllocation(nil) is an invalid argument
		}
		mustPut(t, db, k, "a1", "web", fixtures[k.key].full("a1"))
		mustPut(t, db, k, "a1", "web", k.zero)
		if v := mustGet(t, db, k, "a1", "web"); !isNull(t, v) {
			t.Fatalf("get %s after putting nil = %v, want nil", k.key, v)
		}
	}
}

// testDeepCopyIsolation: mutating a value after putting it, or a value
// got, never changes the stored state.
func testDeepCopyIsolation(t *testing.T, open Opener) {
	db := open(t, nil)
	for _, k := range kinds {
		f, ok := fixtures[k.key]
		if !ok {
			t.Fatalf("no fixture for %s", k.key)
		}
		v := f.full("a1")
		want := encode(t, v)
		f.mutate(f.full("a1")) // the mutator must not panic on a fresh value
		mustPut(t, db, k, "a1", "web", v)
		f.mutate(v)
		if string(encode(t, v)) == string(want) {
			t.Fatalf("%s mutator changed nothing", k.key)
		}
		got := mustGet(t, db, k, "a1", "web")
		sameJSON(t, fmt.Sprintf("get %s after mutating the put value", k.key), got, want)
		f.mutate(got)
		sameJSON(t, fmt.Sprintf("get %s after mutating a got value", k.key), mustGet(t, db, k, "a1", "web"), want)
	}
}

// testUnknownFields: stored JSON with fields this build does not know
// decodes, the unknown fields ignored (schema tolerance).
func testUnknownFields(t *testing.T, open Opener) {
	db := open(t, nil)
	raw := rawWriter(t, db)
	must(t, raw.PutRaw("a1", "", state.KeyAlloc, []byte(`{"ID":"a1","ClientStatus":"running","FutureField":{"x":1}}`)))
	must(t, raw.PutRaw("a1", "web", state.KeyTaskState, []byte(`{"State":"dead","FutureField":[1,2]}`)))
	a, err := getAlloc(db, "a1")
	if err != nil || a == nil || a.ClientStatus != "running" {
		t.Fatalf("alloc with an unknown field = %+v, %v; want decoded, ClientStatus running", a, err)
	}
	_, ts, err := db.GetTaskRunnerState("a1", "web")
	if err != nil || ts == nil || ts.State != "dead" {
		t.Fatalf("task state with an unknown field = %+v, %v; want decoded, State dead", ts, err)
	}
}

// rawWriter returns db's RawWriter or skips the subtest.
func rawWriter(t *testing.T, db interfaces.StateDB) state.RawWriter {
	t.Helper()
	raw, ok := db.(state.RawWriter)
	if !ok {
		t.Skipf("%s does not implement state.RawWriter", db.Name())
	}
	return raw
}

func must(t tb, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}
