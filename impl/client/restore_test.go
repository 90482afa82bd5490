package client

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

// TestSTATE3_Restore walks every STATE-3 step on a memory state DB.
func TestSTATE3_Restore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		errFactory := errors.New("no driver for you")
		r.ff.failFor = map[string]error{"a5": errFactory}
		r.ff.configure = func(fr *fakeRunner) {
			if fr.cfg.Alloc.ID == "a4" {
				fr.restoreErr = errors.New("alloc dir gone")
			}
		}
		// a1 restorable with an acknowledged state; a2 without task state;
		// a3 undecodable; a4 fails Restore; a5 fails the factory.
		seedRestorable(t, r.db, testAlloc("a1", 1), testAlloc("a4", 1), testAlloc("a5", 1))
		acked := &structs.AllocState{ClientStatus: structs.AllocClientStatusRunning, ClientDescription: "acked"}
		must.NoError(t, r.db.PutAcknowledgedState("a1", acked))
		must.NoError(t, r.db.PutAllocation(testAlloc("a2", 1)))
		must.NoError(t, r.db.PutRaw("a3", "", state.KeyAlloc, []byte("{not json")))
		r.srv.put(testAlloc("a1", 1), testAlloc("a3", 1), testAlloc("a4", 1), testAlloc("a5", 1))

		r.start()
		synctest.Wait()
		// Factory calls in ID order, without a2 (no task state) and a3
		// (undecodable). The pull then builds a3 (on the server, never
		// restored) but neither a4 nor a5, which were reported failed.
		must.Eq(t, []string{"a1", "a4", "a5", "a3"}, r.ff.buildLog())

		a1 := r.ff.runner("a1")
		must.Eq(t, []string{"restore", "ack", "run"}, a1.callLog())
		if diff := cmp.Diff(acked, a1.ackLog()[0]); diff != "" {
			t.Fatalf("restored acknowledged state (-want +got):\n%s", diff)
		}
		must.Eq(t, []string{"restore", "status:failed", "destroy"}, r.ff.runner("a4").callLog())
		_, ok := r.client.AllocRunner("a4")
		must.False(t, ok)
		_, ok = r.client.AllocRunner("a1")
		must.True(t, ok)

		allocs, bad, err := r.db.GetAllAllocations()
		must.NoError(t, err)
		var ids []string
		for _, a := range allocs {
			ids = append(ids, a.ID)
		}
		// a2's bucket deleted; a3 overwritten by the pull that built it.
		must.Eq(t, []string{"a1", "a3", "a4", "a5"}, ids)
		must.MapEmpty(t, bad)

		// The failed placement rides the 5th tick with the typical a1.
		r.advance(time.Second)
		sent := r.srv.sent()
		must.Len(t, 1, sent)
		must.Eq(t, time.Second, sent[0].at)
		must.Eq(t, []string{"a1@v1", "a3@v1", "a5@" + fmt.Sprintf("failed to build alloc runner: %v", errFactory)}, versions(sent[0]))
		must.Eq(t, structs.AllocClientStatusFailed, sent[0].req.Alloc[2].ClientStatus)
		r.shutdown()
	})
}

// TestSTATE3_ListFailureFailsStart: only a failure to list the DB fails
// Start.
func TestSTATE3_ListFailureFailsStart(t *testing.T) {
	r := newRig(t)
	must.NoError(t, r.db.Close())
	c, err := New(r.options())
	must.NoError(t, err)
	err = c.Start()
	must.ErrorIs(t, err, state.ErrClosed)
	c.Shutdown()
}

// TestSTATE3_UnreadableTaskStateStillRestores: a task state that cannot
// be decoded counts as present, so the runner's Restore decides.
func TestSTATE3_UnreadableTaskStateStillRestores(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		a := testAlloc("a1", 1)
		must.NoError(t, r.db.PutAllocation(a))
		must.NoError(t, r.db.PutRaw("a1", "web", state.KeyTaskState, []byte("{broken")))
		r.srv.put(a)
		r.start()
		synctest.Wait()
		must.Eq(t, []string{"a1"}, r.ff.buildLog())
		must.Eq(t, []string{"restore", "run"}, r.ff.runner("a1").callLog())
		r.shutdown()
	})
}
