package state

import (
	"encoding/json"
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestAllocMemoEntries: an alloc equal to its own JSON round trip is
// memoised and its bytes reused; one that is not (an int in an `any`
// comes back a float64) is marked and never decoded again; forget drops
// the mark.
func TestAllocMemoEntries(t *testing.T) {
	var m allocMemo
	plain := &structs.Allocation{ID: "a", Job: &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g",
		Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"n": 1.5}}}}}}}
	enc, err := m.encode(plain)
	must.NoError(t, err)
	want, _ := json.Marshal(plain)
	must.Eq(t, string(want), string(enc))
	must.NotNil(t, m.entries["a"].alloc)
	again, err := m.encode(plain.Copy())
	must.NoError(t, err)
	must.True(t, &enc[0] == &again[0], must.Sprint("bytes of an unchanged alloc are reused"))

	ints := plain.Copy()
	ints.ID = "b"
	ints.Job.TaskGroups[0].Tasks[0].Config["n"] = 1
	enc, err = m.encode(ints)
	must.NoError(t, err)
	want, _ = json.Marshal(ints)
	must.Eq(t, string(want), string(enc))
	e, seen := m.entries["b"]
	must.True(t, seen)
	must.Nil(t, e.alloc)
	_, err = m.encode(ints.Copy())
	must.NoError(t, err)
	must.Nil(t, m.entries["b"].alloc)
	must.True(t, &e.enc[0] == &m.entries["b"].enc[0], must.Sprint("a marked alloc is not even re-recorded"))

	m.forget("b")
	_, seen = m.entries["b"]
	must.False(t, seen)
}
