package client

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/minimal"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestAR3_MinimalRunnerReportsRunning is the worked example of the
// minimal runner (AR-3): a node client built with
// minimal.NewAllocRunner pulls an alloc, the runner reports it `running` once, and
// because the minimal runner classifies everything Urgent the server
// receives that state on the very first sync tick (SYNC-5.1).
func TestAR3_MinimalRunnerReportsRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1))
		c := r.startWith(func(o *interfaces.ClientOptions) {
			o.AllocRunnerFactory = minimal.NewAllocRunner
		})
		r.advance(200 * time.Millisecond)

		sent := r.srv.sent()
		must.Len(t, 1, sent)
		must.Eq(t, 200*time.Millisecond, sent[0].at)
		must.Len(t, 1, sent[0].req.Alloc)
		got := sent[0].req.Alloc[0]
		must.Eq(t, "a", got.ID)
		must.Eq(t, structs.AllocClientStatusRunning, got.ClientStatus)

		// Nothing more happens: the runner reported once.
		r.advance(10 * time.Second)
		must.Len(t, 1, r.srv.sent())
		ar, ok := c.AllocRunner("a")
		must.True(t, ok)
		must.Eq(t, structs.AllocClientStatusRunning, ar.Alloc().ClientStatus)
		r.shutdown() // returns although the minimal WaitCh never closes
	})
}
