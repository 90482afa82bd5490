package mutants

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// The constructions of the rows, each against the reference rule it
// breaks; the suite's self-test (properties) proves every mutant caught.

// elapsedRecorder records each emission's elapsed time on clk.
type elapsedRecorder struct {
	clk     clock.Clock
	elapsed []time.Duration
}

func (r *elapsedRecorder) Emit(start time.Time, _, _ string, _ error) {
	r.elapsed = append(r.elapsed, r.clk.Now().Sub(start))
}
func (r *elapsedRecorder) Skipped(string, string) {}

func TestWallclock(t *testing.T) {
	clk := clock.NewMock()
	rec := &elapsedRecorder{clk: clk}
	start := clk.Now()
	clk.Add(3 * time.Second) // the hook blocked 3 simulated seconds
	wallclock{Handler: rec, clock: clk}.Emit(start, "hook", "prerun", nil)
	must.Eq(t, []time.Duration{time.Millisecond}, rec.elapsed) // TELEM-4 broken: not 3000 ms
	countsSkipped{Handler: rec, clock: clk}.Skipped("validate", "prestart")
	must.Eq(t, []time.Duration{time.Millisecond, 0}, rec.elapsed) // TELEM-3 broken
}

// failingCSI mounts every volume but those of fail.
type failingCSI struct{ fail string }

func (c failingCSI) MountVolume(_ context.Context, allocID, alias string, _ *structs.VolumeRequest) (*interfaces.CSIMountPoint, error) {
	if alias == c.fail {
		return nil, errors.New("boom")
	}
	return &interfaces.CSIMountPoint{Source: "/csi/" + allocID + "/" + alias}, nil
}

func (failingCSI) UnmountVolume(context.Context, string, string, *structs.VolumeRequest) error {
	return nil
}

// TestRMWMounts: a mount sets its volume at once, so a failing second
// mount leaves a partial map where the reference sets nothing
// (HOOKRES-2).
func TestRMWMounts(t *testing.T) {
	r := &restoreRace{hookRes: hookres.New()}
	m := rmwMounts{CSIManager: failingCSI{fail: "b"}, r: r}
	_, err := m.MountVolume(context.Background(), "a1", "a", &structs.VolumeRequest{})
	must.NoError(t, err)
	_, err = m.MountVolume(context.Background(), "a1", "b", &structs.VolumeRequest{})
	must.Error(t, err)
	must.Eq(t, []string{"a"}, slices.Sorted(maps.Keys(r.hookRes.GetCSIMounts())))
}

// TestLateResources: the task runners' hook resources read nil, a
// panic, until the hand-off.
func TestLateResources(t *testing.T) {
	l := &lateResources{}
	must.Panic(t, func() { l.GetCSIMounts() })
	r := &restoreRace{late: true, hookRes: hookres.New(), tasks: []*raceTask{{late: l}}}
	r.handOff()
	must.MapEmpty(t, l.GetCSIMounts())
}

// TestPrestartAsSidecars: the main task may start once an init task
// runs, and the group itself is left alone.
func TestPrestartAsSidecars(t *testing.T) {
	pre := &structs.Task{Name: "pre", Lifecycle: &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart}}
	main := &structs.Task{Name: "main"}
	tasks := []*structs.Task{pre, main}
	states := map[string]*structs.TaskState{"pre": {State: structs.TaskStateRunning, StartedAt: time.Unix(1, 0)}}
	must.False(t, status.MayStart(main, tasks, states))
	view := prestartAsSidecars(tasks)
	must.True(t, status.MayStart(view[1], view, states))
	must.False(t, pre.Lifecycle.Sidecar)
}

// signaller answers Signal with err.
type signaller struct {
	interfaces.AllocRunner
	err error
}

func (s signaller) Signal(string, string) error { return s.err }

func TestSignalNotRunningOK(t *testing.T) {
	other := errors.New("driver gone")
	for _, tt := range []struct{ in, want error }{
		{nil, nil},
		{taskrunner.ErrTaskNotRunning, nil}, // PAUSE-11 broken
		{other, other},
	} {
		must.Eq(t, tt.want, signalNotRunningOK{runner{signaller{err: tt.in}}}.Signal("web", "SIGHUP"))
	}
}

// countingUpdater counts the pushes it got.
type countingUpdater struct {
	interfaces.StateUpdater
	n int
}

func (u *countingUpdater) AllocStateUpdated(*structs.Allocation) { u.n++ }

// TestWaitingUpdater: a push waits, durably, while an UpdateAlloc is in
// flight (SYNC-5.5 broken).
func TestWaitingUpdater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan struct{})
		sending := &atomic.Pointer[chan struct{}]{}
		sending.Store(&ch)
		next := &countingUpdater{}
		u := waitingUpdater{StateUpdater: next, sending: sending}
		done := make(chan struct{})
		go func() {
			defer close(done)
			u.AllocStateUpdated(&structs.Allocation{ID: "a"})
		}()
		synctest.Wait()
		must.EqOp(t, 0, next.n)
		sending.Store(nil)
		close(ch)
		<-done
		must.EqOp(t, 1, next.n)
	})
}

func TestReclassified(t *testing.T) {
	typical := func(*structs.Allocation) (syncpolicy.Priority, bool) { return syncpolicy.Typical, true }
	urgent := func(*structs.Allocation) (syncpolicy.Priority, bool) { return syncpolicy.Urgent, true }
	for _, tt := range []struct {
		tick     func(*syncpolicy.Buffer, syncpolicy.TickInput) syncpolicy.TickResult
		classify syncpolicy.Classifier
		want     syncpolicy.Action
	}{
		{(*syncpolicy.Buffer).Tick, typical, syncpolicy.Hold}, // not the 5th tick
		{reclassified(syncpolicy.Typical, syncpolicy.Urgent), typical, syncpolicy.Send},
		{(*syncpolicy.Buffer).Tick, urgent, syncpolicy.Send},
		{reclassified(syncpolicy.Urgent, syncpolicy.Typical), urgent, syncpolicy.Hold},
	} {
		var b syncpolicy.Buffer
		b.Add(&structs.Allocation{ID: "a"})
		must.EqOp(t, tt.want, tt.tick(&b, syncpolicy.TickInput{ServersContacted: true, Classify: tt.classify}).Action)
	}
}
