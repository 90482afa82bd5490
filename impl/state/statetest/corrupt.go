package statetest

import (
	"errors"
	"slices"
	"testing"

	"github.com/allocsim/allocsim/impl/state"
)

// corruptPayloads are stored bytes that must not decode into a usable
// value of any kind.
var corruptPayloads = map[string][]byte{
	"garbage":    []byte("\x00\xffnot json"),
	"truncated":  []byte(`{"ID":"a2","ClientStatus":`),
	"wrong_type": []byte(`"a string"`),
	"array":      []byte(`[1,2]`),
}

// corruptAllocPayloads adds alloc entries that decode but are unusable.
var corruptAllocPayloads = map[string][]byte{
	"bad_field": []byte(`{"ID":5}`),
	"null":      []byte(`null`),
	"no_id":     []byte(`{}`),
	"other_id":  []byte(`{"ID":"other"}`),
}

// testCorruptAlloc: a corrupt alloc entry is skipped and reported for that
// alloc only (STATE-3 step 1); the others list, and the skipped alloc's
// other keys stay readable and deletable.
func testCorruptAlloc(t *testing.T, open Opener) {
	cases := map[string][]byte{}
	for name, b := range corruptPayloads {
		cases[name] = b
	}
	for name, b := range corruptAllocPayloads {
		cases[name] = b
	}
	for name, payload := range cases {
		t.Run(name, func(t *testing.T) {
			db := open(t, nil)
			raw := rawWriter(t, db)
			mustPut(t, db, kinds[0], "a1", "", fullAlloc("a1"))
			mustPut(t, db, kinds[0], "a3", "", fullAlloc("a3"))
			must(t, db.PutTaskState("a2", "web", fullTaskState()))
			must(t, raw.PutRaw("a2", "", state.KeyAlloc, payload))
			allocs, errs, err := db.GetAllAllocations()
			if err != nil {
				t.Fatalf("GetAllAllocations() error = %v, want nil (a corrupt alloc never fails the read)", err)
			}
			if got := allocIDs(allocs); !slices.Equal(got, []string{"a1", "a3"}) {
				t.Fatalf("GetAllAllocations IDs = %v, want [a1 a3]", got)
			}
			sameJSON(t, "listed a1", allocs[0], fullAlloc("a1"))
			if got := errIDs(errs); !slices.Equal(got, []string{"a2"}) {
				t.Fatalf("GetAllAllocations errors for %v, want [a2]", got)
			}
			if !errors.Is(errs["a2"], state.ErrCorrupt) {
				t.Fatalf("error for a2 = %v, want ErrCorrupt", errs["a2"])
			}
			if _, ts, err := db.GetTaskRunnerState("a2", "web"); err != nil || ts == nil {
				t.Fatalf("task state of the corrupt alloc = %v, %v; want readable", ts, err)
			}
			must(t, db.DeleteAllocationBucket("a2"))
			if _, errs, _ := db.GetAllAllocations(); len(errs) != 0 {
				t.Fatalf("errors after deleting the corrupt alloc = %v, want none", errs)
			}
		})
	}
}

// testCorruptValues: every other key that cannot be decoded fails its own
// read with ErrCorrupt, and nothing else.
func testCorruptValues(t *testing.T, open Opener) {
	db := open(t, nil)
	raw := rawWriter(t, db)
	for _, k := range kinds[1:] {
		for name, payload := range corruptPayloads {
			clearAll(t, db)
			putEverything(t, db, "a1")
			task := ""
			if k.task {
				task = "web"
			}
			must(t, raw.PutRaw("a1", task, k.key, payload))
			if v, err := k.get(db, "a1", task); !errors.Is(err, state.ErrCorrupt) {
				t.Fatalf("get %s holding %s = %v, %v; want ErrCorrupt", k.key, name, v, err)
			}
			if _, _, err := db.GetAllAllocations(); err != nil {
				t.Fatalf("GetAllAllocations with a corrupt %s = %v, want nil", k.key, err)
			}
			for _, other := range kinds[1:] {
				if other.key == k.key && !other.task {
					continue // the corrupt one; task "db" is untouched
				}
				sameJSON(t, "get "+other.key, mustGet(t, db, other, "a1", "db"), fixtures[other.key].full("a1"))
			}
		}
	}
}
