package client

import (
	"testing"

	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/shoenig/test/must"
)

// firstWins keeps an alloc's first update.
func firstWins(b *syncpolicy.Buffer, a *structs.Allocation) {
	if _, ok := b.Get(a.ID); !ok {
		b.Add(a)
	}
}

// TestPolicyAdd: the pending updates are buffered by Policies.Add; nil is
// model/syncpolicy's, newest wins (SYNC-1).
func TestPolicyAdd(t *testing.T) {
	for _, add := range []func(*syncpolicy.Buffer, *structs.Allocation){nil, firstWins} {
		p := newPendingUpdates(state.NewMemDB(state.MemConfig{}), Policies{Add: add})
		p.AllocStateUpdated(&structs.Allocation{ID: "a", ClientDescription: "v1"})
		p.AllocStateUpdated(&structs.Allocation{ID: "a", ClientDescription: "v2"})
		got, ok := p.buf.Get("a")
		must.True(t, ok)
		want := "v2"
		if add != nil {
			want = "v1"
		}
		must.EqOp(t, want, got.ClientDescription)
	}
}
