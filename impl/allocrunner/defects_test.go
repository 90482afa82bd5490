package allocrunner

import (
	"context"
	"maps"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/internal/defect"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

// The mutant seams of impl/mutants: each defect changes its one rule; the
// zero Set is the reference (checked by every other test here).

func TestDefectUpdateOlderWins(t *testing.T) {
	for _, older := range []bool{false, true} {
		q := newUpdateQueue()
		q.olderWins = older
		must.True(t, q.push(&structs.Allocation{AllocModifyIndex: 5}))
		must.Eq(t, older, q.push(&structs.Allocation{AllocModifyIndex: 3}))
		want := uint64(5)
		if older {
			want = 3 // AR-10 broken: the stale update replaced the queued one
		}
		must.Eq(t, want, q.pop().AllocModifyIndex)
	}
}

func TestDefectStatusRunningOverFailed(t *testing.T) {
	states := func() map[string]*structs.TaskState {
		return map[string]*structs.TaskState{
			"a": {State: structs.TaskStateDead, Failed: true},
			"b": {State: structs.TaskStateRunning},
		}
	}
	for d, want := range map[defect.Set]string{
		0:                              structs.AllocClientStatusFailed,
		defect.StatusRunningOverFailed: structs.AllocClientStatusRunning,
	} {
		ar := &allocRunner{alloc: &structs.Allocation{}, finishedAt: map[string]time.Time{},
			clock: vclock.New(t0), defects: d}
		must.Eq(t, want, ar.clientState(states()).ClientStatus)
	}
}

// recordStats records each emission's elapsed time on clk.
type recordStats struct {
	clk     *vclock.Clock
	elapsed []time.Duration
}

func (r *recordStats) Emit(start time.Time, _, _ string, _ error) {
	r.elapsed = append(r.elapsed, r.clk.Now().Sub(start))
}

func TestDefectTelemWallclock(t *testing.T) {
	clk := vclock.New(t0)
	rec := &recordStats{clk: clk}
	h := wallclockStats(rec, clk)
	start := clk.Now()
	clk.Add(3 * time.Second) // the hook blocked 3 simulated seconds
	h.Emit(start, "hook", "prerun", nil)
	must.Eq(t, []time.Duration{wallclockTick}, rec.elapsed) // TELEM-4 broken: not 3000 ms
}

func TestDefectKillOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(hookTask("side", structs.TaskLifecycleHookPrestart, true),
			leaderTask("lead"), mainTask("m")))
		h.setup = func(tr *fakeTR) { tr.killDelay = time.Second }
		ar := h.build()
		ar.defects = defect.KillOrder
		go ar.Run()
		synctest.Wait()
		ar.Destroy()
		h.advance(5 * time.Second)
		h.waitClosed(ar.WaitCh(), "WaitCh")
		var kills []string
		for _, c := range h.log.get() {
			if c == "kill:lead" || c == "kill:m" || c == "kill:side" {
				kills = append(kills, c)
			}
		}
		must.Eq(t, []string{"kill:side", "kill:m", "kill:lead"}, kills) // AR-9 broken
		h.waitClosed(ar.DestroyCh(), "DestroyCh")
	})
}

// TestDefectHookresRMW: with a failing second mount, the reference sets
// nothing (HOOKRES-2); the hookres-rmw mutant leaves the first volume set,
// a partial map.
func TestDefectHookresRMW(t *testing.T) {
	for _, rmw := range []bool{false, true} {
		alloc := withCSI(testAlloc(mainTask("web")), "a", "b")
		res := hookres.New()
		h := newCSIHook("a1", func() *structs.Allocation { return alloc }, &fakeCSI{fail: map[string]error{"b": errBoom}}, res,
			state.NewMemDB(state.MemConfig{}), discard())
		h.perVolumeSet = rmw
		must.Error(t, h.Prerun(context.Background()))
		got := slices.Sorted(maps.Keys(res.GetCSIMounts()))
		if rmw {
			must.Eq(t, []string{"a"}, got) // HOOKRES-2 broken: a partial map
		} else {
			must.SliceEmpty(t, got)
		}
	}
}
