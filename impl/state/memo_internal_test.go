package state

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestAllocMemoEntries: an alloc whose job equals its own JSON round trip is
// memoised and its bytes reused; one that is not (an int in an `any`
// comes back a float64) is marked and never decoded again; forget drops
// the mark.
func TestAllocMemoEntries(t *testing.T) {
	var m allocMemo
	plain := &structs.Allocation{ID: "a", Job: &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g",
		Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"n": 1.5}}}}}}}
	enc, err := m.encode(plain, false, nil)
	must.NoError(t, err)
	want, _ := json.Marshal(plain)
	must.Eq(t, string(want), string(enc.bytes()))
	must.NotNil(t, m.entries["a"].alloc)
	again, err := m.encode(plain.Copy(), false, nil)
	must.NoError(t, err)
	must.True(t, &enc.flat[0] == &again.flat[0], must.Sprint("bytes of an unchanged alloc are reused"))

	ints := plain.Copy()
	ints.ID = "b"
	ints.Job.TaskGroups[0].Tasks[0].Config["n"] = 1
	enc, err = m.encode(ints, false, nil)
	must.NoError(t, err)
	want, _ = json.Marshal(ints)
	must.Eq(t, string(want), string(enc.bytes()))
	e, seen := m.entries["b"]
	must.True(t, seen)
	must.Nil(t, e.alloc)
	again, err = m.encode(ints.Copy(), false, nil)
	must.NoError(t, err)
	must.Eq(t, string(want), string(again.bytes()))
	must.Nil(t, m.entries["b"].alloc, must.Sprint("a marked alloc stays marked"))

	m.forget("b")
	_, seen = m.entries["b"]
	must.False(t, seen)
}

// TestAllocMemoUnchanged: with unchanged, the pointer last encoded gets
// its bytes back without a comparison, marked or not; another pointer
// (even an equal copy) is compared or encoded as without it.
func TestAllocMemoUnchanged(t *testing.T) {
	var m allocMemo
	a := &structs.Allocation{ID: "a", Job: &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g",
		Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"n": 1}}}}}}} // marked: an int
	enc, err := m.encode(a, false, nil)
	must.NoError(t, err)
	must.Nil(t, m.entries["a"].alloc)
	again, err := m.encode(a, true, nil)
	must.NoError(t, err)
	must.True(t, &enc.flat[0] == &again.flat[0], must.Sprint("the pointer last encoded, unchanged: the same bytes"))

	b := a.Copy()
	b.ClientStatus = "running"
	enc, err = m.encode(b, true, nil) // not the pointer last encoded: encoded
	must.NoError(t, err)
	want, _ := json.Marshal(b)
	must.Eq(t, string(want), string(enc.bytes()))
	must.True(t, m.entries["a"].src == b)

	_, err = m.encode(a, true, nil) // a is no longer the last one: encoded again
	must.NoError(t, err)
	must.True(t, m.entries["a"].src == a)
	want, _ = json.Marshal(a)
	must.Eq(t, string(want), string(m.entries["a"].enc.bytes()))
}

// TestAllocMemoFrozen: a frozen alloc that must be encoded is kept as
// the memo's alloc itself (no decode), even one a round trip would not
// keep; a later equal alloc, frozen or not, gets its bytes back, and a
// different one is encoded.
func TestAllocMemoFrozen(t *testing.T) {
	var m allocMemo
	a := &structs.Allocation{ID: "a", ClientStatus: "running", Job: &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g",
		Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"n": 1}}}}}}} // an int: a decode would not compare same
	enc, err := m.encodeFrozen(a, nil)
	must.NoError(t, err)
	want, _ := json.Marshal(a)
	must.Eq(t, string(want), string(enc.bytes()))
	must.True(t, m.entries["a"].alloc == a, must.Sprint("the frozen alloc is the memo's"))

	for _, frozen := range []bool{false, true} {
		again, err := m.encodeAs(a.Copy(), false, frozen, nil)
		must.NoError(t, err)
		must.True(t, &enc.flat[0] == &again.flat[0], must.Sprintf("an equal alloc (frozen %v) gets the bytes back", frozen))
	}
	b := a.Copy()
	b.ClientStatus = "complete"
	enc, err = m.encodeFrozen(b, nil)
	must.NoError(t, err)
	want, _ = json.Marshal(b)
	must.Eq(t, string(want), string(enc.bytes()))
	must.True(t, m.entries["a"].alloc == b)
}

// TestAllocMemoJobBytes: a changed alloc whose job compares same reuses
// the job's bytes; a job changed in place, on the pointer the memo saw
// last, is encoded again; the bytes are json.Marshal's either way.
func TestAllocMemoJobBytes(t *testing.T) {
	var m allocMemo
	a := &structs.Allocation{ID: "a", ClientStatus: "pending", Job: &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g",
		Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"s": "x"}}}}}}}
	same := func(a *structs.Allocation, frozen bool) []byte {
		t.Helper()
		enc, err := m.encodeAs(a, false, frozen, nil)
		must.NoError(t, err)
		want, _ := json.Marshal(a)
		must.Eq(t, string(want), string(enc.bytes()))
		return enc.bytes()
	}
	same(a, false)
	job := m.entries["a"].job
	a.ClientStatus = "running"
	same(a, false)
	must.True(t, &job[0] == &m.entries["a"].job[0], must.Sprint("the bytes of a job that compares same are reused"))
	a.Job.TaskGroups[0].Tasks[0].Config["s"] = "y"
	a.ClientStatus = "complete"
	same(a, false)
	must.False(t, &job[0] == &m.entries["a"].job[0], must.Sprint("a job changed in place is encoded again"))

	f := a.Copy()
	f.ID = "f"
	same(f, true)
	g := f.Copy()
	g.ClientStatus = "failed"
	same(g, true)
	h := g.Copy()
	h.Job.Name = "renamed"
	same(h, true)
}

// TestAllocMemoDecodesAJobOnce: the memo copies of two allocs of one job
// share the job decoded once; an alloc whose job does not round-trip is
// still marked with the decoded job cached; the cache is bounded.
func TestAllocMemoDecodesAJobOnce(t *testing.T) {
	var m allocMemo
	job := &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g",
		Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"n": 1.5}}}}}}
	for _, id := range []string{"a", "b"} {
		_, err := m.encode(&structs.Allocation{ID: id, Job: job.Copy()}, false, nil)
		must.NoError(t, err)
	}
	must.NotNil(t, m.entries["a"].alloc)
	must.True(t, m.entries["a"].alloc.Job == m.entries["b"].alloc.Job, must.Sprint("one decoded job"))
	must.MapLen(t, 1, m.jobs)

	ints := job.Copy()
	ints.TaskGroups[0].Tasks[0].Config["n"] = 1
	for _, id := range []string{"c", "d"} {
		_, err := m.encode(&structs.Allocation{ID: id, Job: ints.Copy()}, false, nil)
		must.NoError(t, err)
		must.Nil(t, m.entries[id].alloc, must.Sprint("an int comes back a float64: marked"))
	}

	for i := range maxDecodedJobs + 5 {
		_, err := m.encode(&structs.Allocation{ID: fmt.Sprint("x", i), Job: &structs.Job{ID: fmt.Sprint("j", i)}}, false, nil)
		must.NoError(t, err)
	}
	must.LessEq(t, maxDecodedJobs, len(m.jobs))
}

// TestAllocMemoKnownJob: an alloc seen for the first time reuses the
// bytes of the last job encoded under its namespace and ID when its job
// compares same (another alloc of the job, a restored one), and encodes
// its own when it does not (the job changed since).
func TestAllocMemoKnownJob(t *testing.T) {
	var m allocMemo
	job := &structs.Job{ID: "j", Namespace: "default", TaskGroups: []*structs.TaskGroup{{Name: "g",
		Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"n": 1.5}}}}}}
	first := &structs.Allocation{ID: "a", JobID: "j", Job: job}
	_, err := m.encode(first, false, nil)
	must.NoError(t, err)
	known := m.byJob[jobKey{"default", "j"}]
	must.NotNil(t, known.job)

	second := &structs.Allocation{ID: "b", JobID: "j", Job: job.Copy()}
	enc, err := m.encode(second, false, nil)
	must.NoError(t, err)
	want, _ := json.Marshal(second)
	must.Eq(t, string(want), string(enc.bytes()))
	must.True(t, &m.entries["b"].job[0] == &known.enc[0], must.Sprint("the job's bytes are reused"))
	must.True(t, m.entries["b"].alloc.Job == known.job, must.Sprint("the memo's copy shares the memo's job"))

	changed := &structs.Allocation{ID: "c", JobID: "j", Job: job.Copy()}
	changed.Job.Meta = map[string]string{"k": "v"}
	enc, err = m.encode(changed, false, nil)
	must.NoError(t, err)
	want, _ = json.Marshal(changed)
	must.Eq(t, string(want), string(enc.bytes()))
	must.False(t, &m.entries["c"].job[0] == &known.enc[0], must.Sprint("a changed job is encoded anew"))
	must.Eq(t, "v", m.byJob[jobKey{"default", "j"}].job.Meta["k"], must.Sprint("and remembered in its place"))

	frozen := &structs.Allocation{ID: "d", JobID: "j", Job: changed.Job.Copy()}
	enc, err = m.encodeFrozen(frozen, nil)
	must.NoError(t, err)
	want, _ = json.Marshal(frozen)
	must.Eq(t, string(want), string(enc.bytes()))
}
