package state_test

import (
	"errors"
	"testing"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// A batch runs its hook once, before its first write; its writes reach
// the fault hook marked InBatch, one by one, and one that fails fails
// alone; writes outside it are not marked. Both stores, and a reopened
// handle keeps the hook.
func TestBatch(t *testing.T) {
	for _, name := range []string{"bolt", "mem"} {
		t.Run(name, func(t *testing.T) {
			var log []string
			hook := func(w state.Write) error {
				log = append(log, w.String()+map[bool]string{true: " (batch)"}[w.InBatch])
				if w.AllocID == "b" {
					return errors.New("injected")
				}
				return nil
			}
			batched := func() { log = append(log, "batch") }
			var db *state.DB
			if name == "bolt" {
				var err error
				db, err = state.OpenBolt(state.BoltConfig{Dir: t.TempDir(), FaultHook: hook, BatchHook: batched, NoSync: true})
				must.NoError(t, err)
			} else {
				db = state.NewMemDB(state.MemConfig{FaultHook: hook, BatchHook: batched})
			}
			t.Cleanup(func() { _ = db.Close() })
			must.NoError(t, db.PutAllocation(&structs.Allocation{ID: "z"}))
			var errs []error
			err := db.Batch(func(tx interfaces.StateDB) error {
				for _, id := range []string{"a", "b", "c"} {
					errs = append(errs, tx.PutAllocation(&structs.Allocation{ID: id}))
				}
				return errors.New("fn's own")
			})
			must.EqError(t, err, "fn's own")
			must.NoError(t, errs[0])
			must.ErrorContains(t, errs[1], "injected")
			must.NoError(t, errs[2])
			must.Eq(t, []string{"put z/alloc", "batch", "put a/alloc (batch)", "put b/alloc (batch)", "put c/alloc (batch)"}, log)
			allocs, _, err := db.GetAllAllocations()
			must.NoError(t, err)
			var ids []string
			for _, a := range allocs {
				ids = append(ids, a.ID)
			}
			must.Eq(t, []string{"a", "c", "z"}, ids)

			again, err := db.Reopen()
			must.NoError(t, err)
			db = again.(*state.DB)
			log = nil
			must.NoError(t, db.Batch(func(tx interfaces.StateDB) error { return tx.PutAllocation(&structs.Allocation{ID: "d"}) }))
			must.Eq(t, []string{"batch", "put d/alloc (batch)"}, log)
		})
	}
}
