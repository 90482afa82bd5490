package client

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/allocrunner"
	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/shoenig/test/must"
)

// referenceOptions wires the reference alloc runner with a new
// mock driver (as after a process restart) and the rig's in-memory alloc
// dirs (which, like a disk, survive a client restart).
func (r *rig) referenceOptions(o *interfaces.ClientOptions) {
	if r.fs == nil {
		r.fs = allocdir.NewMemFS(r.clk)
	}
	o.AllocRunnerFactory = allocrunner.NewAllocRunner
	o.DriverManager = drivers.NewRegistry(mock.New(mock.Config{Clock: r.clk}))
	o.AllocDirFactory = allocdir.MemFactory(r.fs, allocdir.Config{Clock: r.clk})
}

// batchAlloc is a batch alloc whose one mock task runs for runFor.
func batchAlloc(id string, runFor time.Duration) *structs.Allocation {
	a := testAlloc(id, 1)
	a.Job.Type = "batch"
	task := a.Job.TaskGroups[0].Tasks[0]
	task.Driver = mock.DefaultName
	task.Config = map[string]any{"run_for": runFor.String()}
	return a
}

// lastState is the server's last stored state of an alloc.
func lastState(calls []updateCall, id string) (*structs.Allocation, bool) {
	var last *structs.Allocation
	for _, c := range calls {
		for _, a := range c.req.Alloc {
			if a.ID == id {
				last = a
			}
		}
	}
	return last, last != nil
}

// TestReferenceRunnerEndToEnd: with a nil factory the client runs the
// reference runner: the server sees the alloc running, then complete,
// and the complete state (a ClientStatus change) is sent urgently.
func TestReferenceRunnerEndToEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(batchAlloc("a", 5*time.Second))
		r.startWith(r.referenceOptions)
		r.advanceBy(2*time.Second, 100*ms, nil)
		must.Eq(t, []time.Duration{time.Second}, times(r.srv.sent())) // typical: 5th tick
		got, ok := lastState(r.srv.sent(), "a")
		must.True(t, ok, must.Sprint("nothing sent for the reference runner's alloc"))
		must.Eq(t, structs.AllocClientStatusRunning, got.ClientStatus)

		r.advanceBy(5*time.Second, 100*ms, nil)
		got, _ = lastState(r.srv.sent(), "a")
		must.Eq(t, structs.AllocClientStatusComplete, got.ClientStatus)
		must.Eq(t, structs.TaskStateDead, got.TaskStates["web"].State)
		// Exited at 5 s; the urgent update rides the first tick after.
		must.Eq(t, []time.Duration{time.Second, 5200 * ms}, times(r.srv.sent()))

		r.srv.remove("a")
		r.advance(time.Second)
		_, ok = r.client.AllocRunner("a")
		must.False(t, ok)
		r.shutdown()
	})
}

// TestSTATE3_ReferenceRestore: a client restarted on the same state DB
// restores the reference runner, recovers its task and does not resend
// the acknowledged, unchanged state (STATE-3 step 5).
func TestSTATE3_ReferenceRestore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		a := batchAlloc("a", 0) // runs until stopped
		a.Job.Type = "service"
		r.srv.put(a)
		first := r.startWith(r.referenceOptions)
		r.advanceBy(2*time.Second, 100*ms, nil)
		must.Eq(t, []time.Duration{time.Second}, times(r.srv.sent()))
		first.Shutdown()

		db, err := r.db.Reopen()
		must.NoError(t, err)
		r.db = db.(*state.DB)
		second := r.startWith(r.referenceOptions)
		r.advanceBy(5*time.Second, 100*ms, nil)
		must.Eq(t, []time.Duration{time.Second}, times(r.srv.sent()), must.Sprint("unchanged state resent after restore"))
		ar, ok := second.AllocRunner("a")
		must.True(t, ok)
		must.Eq(t, structs.AllocClientStatusRunning, ar.AllocState().ClientStatus)
		r.shutdown()
	})
}

// TestSnapshotIsOneBatch: the 60 s snapshot (STATE-2) of reference
// runners is one state DB batch whose alloc writes are InBatch, in
// alloc-ID order; a runner without PersistStateTo (the fake) persists
// through its own handle, still once per snapshot.
func TestSnapshotIsOneBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		var mu sync.Mutex
		var log []string
		r.db = state.NewMemDB(state.MemConfig{
			FaultHook: func(w state.Write) error {
				if w.Key == state.KeyAlloc {
					mu.Lock()
					log = append(log, fmt.Sprintf("%s batch=%v", w, w.InBatch))
					mu.Unlock()
				}
				return nil
			},
			BatchHook: func() { mu.Lock(); log = append(log, "batch"); mu.Unlock() },
		})
		r.srv.put(batchAlloc("b", time.Hour))
		r.srv.put(batchAlloc("a", time.Hour))
		r.startWith(r.referenceOptions)
		r.advance(time.Second)
		mu.Lock()
		log = nil
		mu.Unlock()
		r.advance(time.Minute)
		mu.Lock()
		got := slices.Clone(log)
		mu.Unlock()
		must.Eq(t, []string{"batch", "put a/alloc batch=true", "put b/alloc batch=true"}, got)
		r.shutdown()
	})
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1))
		r.start()
		r.advance(time.Second)
		before := len(r.ff.runner("a").callLog())
		r.advance(time.Minute)
		must.Eq(t, "persist", r.ff.runner("a").callLog()[before])
		r.shutdown()
	})
}
