package statetest

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// entry addresses one stored value in the naive model.
type entry struct{ alloc, task, key string }

// model is the naive oracle: the encoded value per entry, and which alloc
// buckets exist.
type model struct {
	values  map[entry]string
	buckets map[string]bool
}

var (
	modelAllocs = []string{"a1", "a2", "a3"}
	modelTasks  = []string{"web", "db"}
)

// testMatchesModel: under random puts and deletes, every read agrees with
// a naive map of encodings (DET-2 order included).
func testMatchesModel(t *testing.T, open Opener) {
	db := open(t, nil)
	rapid.Check(t, func(rt *rapid.T) {
		clearAll(rt, db)
		m := model{values: map[entry]string{}, buckets: map[string]bool{}}
		for step := range rapid.IntRange(1, 15).Draw(rt, "steps") {
			id := rapid.SampledFrom(modelAllocs).Draw(rt, "alloc")
			task := rapid.SampledFrom(modelTasks).Draw(rt, "task")
			switch op := rapid.IntRange(0, 9).Draw(rt, "op"); {
			case op < 8:
				k := kinds[rapid.IntRange(0, len(kinds)-1).Draw(rt, "kind")]
				if !k.task {
					task = ""
				}
				v := k.gen(id).Draw(rt, "value")
				mustPut(rt, db, k, id, task, v)
				m.values[entry{id, task, k.key}] = string(encode(rt, v))
				m.buckets[id] = true
			case op == 8:
				must(rt, db.DeleteTaskBucket(id, task))
				for e := range m.values {
					if e.alloc == id && e.task == task {
						delete(m.values, e)
					}
				}
			default:
				must(rt, db.DeleteAllocationBucket(id))
				for e := range m.values {
					if e.alloc == id {
						delete(m.values, e)
					}
				}
				delete(m.buckets, id)
			}
			checkModel(rt, db, m, step, []string{id})
		}
		checkModel(rt, db, m, -1, modelAllocs)
	})
}

// checkModel compares the alloc list, and every entry of the model's
// universe under the given allocs, with the DB (step -1: at the end).
func checkModel(t *rapid.T, db interfaces.StateDB, m model, step int, ids []string) {
	for _, id := range ids {
		for _, k := range kinds {
			tasks := []string{""}
			if k.task {
				tasks = modelTasks
			}
			for _, task := range tasks {
				want, ok := m.values[entry{id, task, k.key}]
				if !ok {
					want = "null"
				}
				got := string(encode(t, mustGet(t, db, k, id, task)))
				if got != want {
					t.Fatalf("step %d: get %s of %s = %s, want %s", step, k.key, where(id, task), got, want)
				}
			}
		}
	}
	allocs, errs, err := db.GetAllAllocations()
	must(t, err)
	var wantIDs, wantErrIDs []string
	for _, id := range modelAllocs { // sorted
		if _, ok := m.values[entry{id, "", state.KeyAlloc}]; ok {
			wantIDs = append(wantIDs, id)
		} else if m.buckets[id] {
			wantErrIDs = append(wantErrIDs, id)
		}
	}
	if got := allocIDs(allocs); !slices.Equal(got, wantIDs) {
		t.Fatalf("step %d: GetAllAllocations IDs = %v, want %v", step, got, wantIDs)
	}
	if got := errIDs(errs); !slices.Equal(got, wantErrIDs) {
		t.Fatalf("step %d: GetAllAllocations errors for %v, want %v (%v)", step, got, wantErrIDs, errs)
	}
	for id, e := range errs {
		if !errors.Is(e, state.ErrNoAllocEntry) {
			t.Fatalf("step %d: error for %s = %v, want ErrNoAllocEntry", step, id, e)
		}
	}
}

// clearAll deletes every alloc bucket, listed or reported.
func clearAll(t tb, db interfaces.StateDB) {
	t.Helper()
	allocs, errs, err := db.GetAllAllocations()
	must(t, err)
	for _, id := range append(allocIDs(allocs), errIDs(errs)...) {
		must(t, db.DeleteAllocationBucket(id))
	}
}

func allocIDs(allocs []*structs.Allocation) []string {
	var ids []string
	for _, a := range allocs {
		ids = append(ids, a.ID)
	}
	return ids
}

func errIDs(errs map[string]error) []string {
	var ids []string
	for id := range errs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// putEverything writes every kind for alloc id, tasks web and db.
func putEverything(t tb, db interfaces.StateDB, id string) {
	t.Helper()
	for _, k := range kinds {
		for _, task := range modelTasks {
			mustPut(t, db, k, id, task, fixtures[k.key].full(id))
		}
	}
}

// checkEverything checks what putEverything wrote (present) or nothing
// (absent) for alloc id.
func checkEverything(t tb, db interfaces.StateDB, id string, present bool) {
	t.Helper()
	for _, k := range kinds {
		for _, task := range modelTasks {
			var want any
			if present {
				want = fixtures[k.key].full(id)
			}
			sameJSON(t, fmt.Sprintf("get %s of %s", k.key, where(id, task)), mustGet(t, db, k, id, task), want)
		}
	}
}

// testDeleteAlloc: DeleteAllocationBucket removes the alloc and every key
// and task under it, and nothing else; it is idempotent.
func testDeleteAlloc(t *testing.T, open Opener) {
	db := open(t, nil)
	putEverything(t, db, "a1")
	putEverything(t, db, "a2")
	must(t, db.DeleteAllocationBucket("a1"))
	checkEverything(t, db, "a1", false)
	checkEverything(t, db, "a2", true)
	allocs, errs, err := db.GetAllAllocations()
	must(t, err)
	if got := allocIDs(allocs); !slices.Equal(got, []string{"a2"}) || len(errs) != 0 {
		t.Fatalf("GetAllAllocations after delete = %v, %v; want [a2], no errors", got, errs)
	}
	must(t, db.DeleteAllocationBucket("a1"))
	must(t, db.DeleteAllocationBucket("never"))
	// A re-created alloc starts empty.
	mustPut(t, db, kinds[0], "a1", "", fullAlloc("a1"))
	if ls, ts, err := db.GetTaskRunnerState("a1", "web"); err != nil || ls != nil || ts != nil {
		t.Fatalf("task state of a re-created alloc = %v, %v, %v; want nil, nil, nil", ls, ts, err)
	}
}

// testDeleteTask: DeleteTaskBucket removes one task's keys only; it is
// idempotent, also for a missing alloc.
func testDeleteTask(t *testing.T, open Opener) {
	db := open(t, nil)
	putEverything(t, db, "a1")
	must(t, db.DeleteTaskBucket("a1", "web"))
	for _, k := range kinds {
		for _, task := range modelTasks {
			var want any
			if !k.task || task != "web" {
				want = fixtures[k.key].full("a1")
			}
			sameJSON(t, fmt.Sprintf("get %s of %s", k.key, where("a1", task)), mustGet(t, db, k, "a1", task), want)
		}
	}
	must(t, db.DeleteTaskBucket("a1", "web"))
	must(t, db.DeleteTaskBucket("never", "web"))
}

// testListSorted: GetAllAllocations lists allocs sorted by ID whatever the
// insertion order (DET-2).
func testListSorted(t *testing.T, open Opener) {
	db := open(t, nil)
	rapid.Check(t, func(rt *rapid.T) {
		clearAll(rt, db)
		ids := rapid.SliceOfNDistinct(rapid.StringMatching(`[0-9a-f]{1,4}(-[0-9a-f]{1,2})?`), 0, 8, rapid.ID[string]).Draw(rt, "ids")
		for _, id := range ids {
			must(rt, db.PutAllocation(&structs.Allocation{ID: id}))
		}
		allocs, errs, err := db.GetAllAllocations()
		must(rt, err)
		want := slices.Sorted(slices.Values(ids))
		if got := allocIDs(allocs); !slices.Equal(got, want) || len(errs) != 0 {
			t.Fatalf("GetAllAllocations IDs = %v, %v; want %v, no errors", got, errs, want)
		}
	})
}

// testTaskWriteWithoutAlloc: a write under an alloc with no `alloc` entry
// creates its bucket, which is then listed as an error for that alloc only.
func testTaskWriteWithoutAlloc(t *testing.T, open Opener) {
	db := open(t, nil)
	must(t, db.PutTaskState("a1", "web", fullTaskState()))
	must(t, db.PutAcknowledgedState("a2", &structs.AllocState{}))
	must(t, db.PutAllocation(&structs.Allocation{ID: "a3"}))
	allocs, errs, err := db.GetAllAllocations()
	must(t, err)
	if got := allocIDs(allocs); !slices.Equal(got, []string{"a3"}) {
		t.Fatalf("GetAllAllocations IDs = %v, want [a3]", got)
	}
	if got := errIDs(errs); !slices.Equal(got, []string{"a1", "a2"}) {
		t.Fatalf("GetAllAllocations errors for %v, want [a1 a2]", got)
	}
	for id, e := range errs {
		if !errors.Is(e, state.ErrNoAllocEntry) {
			t.Fatalf("error for %s = %v, want ErrNoAllocEntry", id, e)
		}
	}
}
