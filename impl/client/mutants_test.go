package client

import (
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/impl/internal/defect"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/shoenig/test/must"
)

// TestMutatePriority: the reference client passes the runner's priority
// on; the sync mutants change it as their rows in impl/mutants say.
func TestMutatePriority(t *testing.T) {
	for _, tt := range []struct {
		defects defect.Set
		in, out syncpolicy.Priority
	}{
		{0, syncpolicy.Urgent, syncpolicy.Urgent},
		{0, syncpolicy.None, syncpolicy.None},
		{defect.SyncNoPriority, syncpolicy.None, syncpolicy.None}, // unchanged states still dropped
		{defect.SyncNoPriority, syncpolicy.Typical, syncpolicy.Urgent},
		{defect.SyncLazyStatus, syncpolicy.Urgent, syncpolicy.Typical},
		{defect.SyncLazyStatus, syncpolicy.None, syncpolicy.None},
	} {
		c := &Client{defects: tt.defects}
		must.EqOp(t, tt.out, c.mutatePriority(tt.in))
	}
}

// TestOldestWins: the sync-oldest-wins buffer keeps an alloc's first
// update; the reference keeps the newest.
func TestOldestWins(t *testing.T) {
	for _, d := range []defect.Set{0, defect.SyncOldestWins} {
		p := newPendingUpdates(state.NewMemDB(state.MemConfig{}), d)
		p.AllocStateUpdated(&structs.Allocation{ID: "a", ClientDescription: "v1"})
		p.AllocStateUpdated(&structs.Allocation{ID: "a", ClientDescription: "v2"})
		got, ok := p.buf.Get("a")
		must.True(t, ok)
		want := "v2"
		if d != 0 {
			want = "v1"
		}
		must.EqOp(t, want, got.ClientDescription)
	}
}

// TestBlockingProducer: the sync-blocking-producer buffer makes a push
// wait, durably, while an UpdateAlloc is in flight; the reference never
// waits.
func TestBlockingProducer(t *testing.T) {
	for _, d := range []defect.Set{0, defect.SyncBlockingProducer} {
		synctest.Test(t, func(t *testing.T) {
			p := newPendingUpdates(state.NewMemDB(state.MemConfig{}), d)
			returned := p.sendStarted()
			done := make(chan struct{})
			go func() {
				defer close(done)
				p.AllocStateUpdated(&structs.Allocation{ID: "a"})
			}()
			synctest.Wait()
			blocked := true
			select {
			case <-done:
				blocked = false
			default:
			}
			must.EqOp(t, d != 0, blocked)
			returned()
			<-done
			must.EqOp(t, 1, p.buf.Len())
		})
	}
}
