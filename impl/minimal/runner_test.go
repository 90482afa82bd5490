package minimal_test

import (
	"sync"
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/minimal"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/shoenig/test/must"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// recorder is a StateUpdater that records every report.
type recorder struct {
	mu      sync.Mutex
	updates []*structs.Allocation
}

func (r *recorder) AllocStateUpdated(a *structs.Allocation) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, a)
}

func (r *recorder) PutAllocation(*structs.Allocation) error { return nil }

func alloc(status string, idx uint64) *structs.Allocation {
	return &structs.Allocation{ID: "a", NodeID: "n", ClientStatus: status, AllocModifyIndex: idx,
		Job: &structs.Job{ID: "job"}}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestAR3_Minimal checks every rule of the minimal runner (AR-3).
func TestAR3_Minimal(t *testing.T) {
	rec := &recorder{}
	src := alloc(structs.AllocClientStatusPending, 1)
	ar, err := minimal.NewAllocRunner(&interfaces.Config{Alloc: src, StateUpdater: rec})
	must.NoError(t, err)

	// DestroyCh and ShutdownCh start closed; WaitCh is open.
	must.True(t, isClosed(ar.DestroyCh()))
	must.True(t, isClosed(ar.ShutdownCh()))
	must.False(t, isClosed(ar.WaitCh()))

	// Run: running, reported once, returns, WaitCh still open.
	ar.Run()
	must.Len(t, 1, rec.updates)
	must.Eq(t, structs.AllocClientStatusRunning, rec.updates[0].ClientStatus)
	must.Eq(t, "a", rec.updates[0].ID)
	must.Eq(t, structs.AllocClientStatusRunning, ar.Alloc().ClientStatus)
	must.Eq(t, structs.AllocClientStatusRunning, ar.AllocState().ClientStatus)
	must.False(t, isClosed(ar.WaitCh()))
	must.Eq(t, structs.AllocClientStatusPending, src.ClientStatus) // config alloc not mutated

	// The report and Alloc are copies.
	rec.updates[0].ClientStatus = "mutated"
	got := ar.Alloc()
	got.ClientStatus = "mutated too"
	must.Eq(t, structs.AllocClientStatusRunning, ar.Alloc().ClientStatus)

	// Update and Reconnect replace the alloc; nothing is reported.
	ar.Update(alloc(structs.AllocClientStatusPending, 2))
	must.Eq(t, uint64(2), ar.Alloc().AllocModifyIndex)
	must.NoError(t, ar.Reconnect(alloc(structs.AllocClientStatusUnknown, 3)))
	must.Eq(t, uint64(3), ar.Alloc().AllocModifyIndex)
	must.Eq(t, structs.AllocClientStatusUnknown, ar.Alloc().ClientStatus)
	ar.Update(nil) // ignored
	must.Eq(t, uint64(3), ar.Alloc().AllocModifyIndex)
	must.Len(t, 1, rec.updates)

	// Always Urgent, whatever was acknowledged.
	ar.AcknowledgeState(ar.AllocState())
	for _, status := range []string{structs.AllocClientStatusRunning, structs.AllocClientStatusFailed, ""} {
		must.Eq(t, syncpolicy.Urgent, ar.GetUpdatePriority(alloc(status, 4)))
	}

	// The rest is a no-op.
	must.NoError(t, ar.Restore())
	must.NoError(t, ar.PersistState())
	must.NoError(t, ar.Signal("web", "SIGHUP"))
	must.NoError(t, ar.RestartTask("web", nil))
	must.NoError(t, ar.RestartRunning(nil))
	must.NoError(t, ar.RestartAll(nil))
	must.NoError(t, ar.SetTaskPauseState("web", structs.TaskScheduleStateForcePause))
	ps, err := ar.GetTaskPauseState("web")
	must.NoError(t, err)
	must.Eq(t, structs.TaskScheduleStateRun, ps)
	ar.SetClientStatus(structs.AllocClientStatusFailed)
	must.Eq(t, structs.AllocClientStatusUnknown, ar.Alloc().ClientStatus)
	ar.Shutdown()
	ar.Destroy()
	must.False(t, ar.IsDestroyed())
	must.False(t, ar.IsMigrating())
	must.False(t, ar.IsWaiting())
	must.Nil(t, ar.GetAllocDir())
	l := ar.Listener()
	must.Nil(t, l.Ch())
	l.Close()
	must.False(t, isClosed(ar.WaitCh()))
	must.Len(t, 1, rec.updates)
}

// TestAR3_MinimalConfigErrors: the runner needs an alloc and an updater.
func TestAR3_MinimalConfigErrors(t *testing.T) {
	cases := []struct {
		name string
		cfg  *interfaces.Config
		want string
	}{
		{"nil config", nil, "minimal alloc runner: config is nil"},
		{"no alloc", &interfaces.Config{StateUpdater: &recorder{}}, "minimal alloc runner: config has no alloc"},
		{"no updater", &interfaces.Config{Alloc: alloc("", 1)}, "minimal alloc runner: config has no state updater"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ar, err := minimal.NewAllocRunner(tc.cfg)
			must.EqError(t, err, tc.want)
			must.Nil(t, ar)
		})
	}
}

// TestAR3_MinimalConcurrent: methods are safe for concurrent use (run
// with -race).
func TestAR3_MinimalConcurrent(t *testing.T) {
	rec := &recorder{}
	ar, err := minimal.NewAllocRunner(&interfaces.Config{Alloc: alloc("", 1), StateUpdater: rec})
	must.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			ar.Update(alloc(structs.AllocClientStatusPending, uint64(i)))
			_ = ar.Alloc()
			_ = ar.AllocState()
		})
	}
	wg.Go(ar.Run)
	wg.Wait()
	must.Len(t, 1, rec.updates)
}
