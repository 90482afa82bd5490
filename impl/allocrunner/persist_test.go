package allocrunner

import (
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// allocPut is one alloc write seen by recordingDB.
type allocPut struct {
	alloc     *structs.Allocation
	unchanged bool // through PutUnchangedAllocation
	frozen    bool // through PutFrozenAllocation
}

// recordingDB records the alloc writes PersistState makes. It has no
// PutUnchangedAllocation, like a state DB other than impl/state's.
type recordingDB struct {
	interfaces.StateDB
	db   *state.DB
	puts []allocPut
}

func (r *recordingDB) PutAllocation(a *structs.Allocation) error {
	r.puts = append(r.puts, allocPut{alloc: a})
	return r.db.PutAllocation(a)
}

// withRewrite is r with PutUnchangedAllocation and PutFrozenAllocation.
type withRewrite struct{ *recordingDB }

func (r withRewrite) PutFrozenAllocation(a *structs.Allocation) error {
	r.puts = append(r.puts, allocPut{alloc: a, frozen: true})
	return r.db.PutFrozenAllocation(a)
}

func (r withRewrite) PutUnchangedAllocation(a *structs.Allocation) error {
	r.puts = append(r.puts, allocPut{alloc: a, unchanged: true})
	return r.db.PutUnchangedAllocation(a)
}

// TestPersistStateReusesUnchangedAlloc (STATE-2): PersistState of an
// alloc nothing changed in hands the state DB the alloc it put last,
// as unchanged when the DB can take it so; a task state change, a status
// override or a newer server alloc makes it build a new one. What is
// stored is always the alloc computed now.
func TestPersistStateReusesUnchangedAlloc(t *testing.T) {
	for _, rewrite := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			h := newHarness(t, testAlloc(mainTask("web"), mainTask("db")))
			rec := &recordingDB{StateDB: h.db, db: h.db}
			h.cfg.StateDB = rec
			if rewrite {
				h.cfg.StateDB = withRewrite{rec}
			}
			ar := h.start()
			persist := func() allocPut {
				t.Helper()
				n := len(rec.puts)
				must.NoError(t, ar.PersistState())
				must.Eq(t, n+1, len(rec.puts))
				allocs, _, err := h.db.GetAllAllocations()
				must.NoError(t, err)
				must.SliceLen(t, 1, allocs)
				stored, err := json.Marshal(allocs[0])
				must.NoError(t, err)
				want, err := json.Marshal(ar.Alloc())
				must.NoError(t, err)
				must.Eq(t, string(want), string(stored))
				return rec.puts[n]
			}
			first := persist()
			must.False(t, first.unchanged)
			must.Eq(t, rewrite, first.frozen, must.Sprint("a built alloc is put frozen when the DB can take it so"))
			again := persist()
			must.True(t, again.alloc == first.alloc, must.Sprint("an unchanged alloc is not built again"))
			must.Eq(t, rewrite, again.unchanged)

			h.trs["web"].AppendEvent(structs.NewTaskEvent(structs.TaskDriverMessage, h.clk.Now()))
			synctest.Wait()
			changed := persist()
			must.False(t, changed.unchanged)
			must.Eq(t, rewrite, changed.frozen)
			must.True(t, changed.alloc != again.alloc)
			must.Eq(t, rewrite, persist().unchanged)

			ar.SetClientStatus(structs.AllocClientStatusFailed)
			synctest.Wait()
			override := persist()
			must.False(t, override.unchanged)
			must.Eq(t, structs.AllocClientStatusFailed, override.alloc.ClientStatus)

			newer := ar.serverAlloc().Copy()
			newer.AllocModifyIndex++
			ar.setServerAlloc(newer)
			server := persist()
			must.False(t, server.unchanged)
			must.Eq(t, newer.AllocModifyIndex, server.alloc.AllocModifyIndex)
			must.Eq(t, rewrite, persist().unchanged)
			h.advance(time.Second)
			h.finish()
		})
	}
}
