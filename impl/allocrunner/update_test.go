package allocrunner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
)

func idx(i uint64, desired string) *structs.Allocation {
	a := testAlloc(mainTask("web"))
	a.AllocModifyIndex = i
	a.DesiredStatus = desired
	return a
}

// TestUpdateQueue_AR10: a queue of one; newer replaces, a lower
// AllocModifyIndex than the queued one is dropped, an equal one replaces;
// nothing after close.
func TestUpdateQueue_AR10(t *testing.T) {
	cases := []struct {
		name   string
		pushes []uint64
		kept   []bool
		want   uint64 // 0: nothing queued
	}{
		{"one", []uint64{5}, []bool{true}, 5},
		{"newer replaces", []uint64{5, 7}, []bool{true, true}, 7},
		{"lower dropped", []uint64{7, 5}, []bool{true, false}, 7},
		{"equal replaces", []uint64{7, 7}, []bool{true, true}, 7},
		{"dropped then newer", []uint64{7, 5, 9}, []bool{true, false, true}, 9},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := newUpdateQueue(Policies{}.withDefaults().Supersedes)
			for i, p := range tc.pushes {
				must.Eq(t, tc.kept[i], q.push(idx(p, "run")))
			}
			must.Eq(t, 1, len(q.ready), must.Sprint("one wake-up, however many pushes"))
			got := q.pop()
			must.Eq(t, tc.want, got.AllocModifyIndex)
			must.Nil(t, q.pop())
			q.close()
			must.False(t, q.push(idx(99, "run")))
			must.Nil(t, q.pop())
		})
	}
}

// TestUpdate_QueuedBeforeRun_AR10: updates queued before Run collapse to
// the newest kept one, which every task runner receives and the runner
// stores.
func TestUpdate_QueuedBeforeRun_AR10(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), mainTask("api")))
		ar := h.build()
		a12 := idx(12, "run")
		a12.Name = "second"
		ar.Update(idx(11, "run"))
		ar.Update(a12)
		ar.Update(idx(5, "run")) // lower than the queued: dropped
		ar.Update(nil)
		go ar.Run()
		synctest.Wait()
		for _, name := range []string{"api", "web"} {
			ups := h.trs[name].snapshot().updates
			must.Len(t, 1, ups)
			must.Eq(t, uint64(12), ups[0].AllocModifyIndex)
			must.Eq(t, "second", ups[0].Name)
		}
		must.Eq(t, uint64(12), ar.Alloc().AllocModifyIndex)
		h.finish()
	})
}

// TestUpdate_TaskRunnersSeeAllocAtOnce_AR10: Update hands every task runner
// the alloc before it returns (the handler runs later), so a task that
// wakes in the same instant sees a server stop (DET-3; regression seeds
// contact_races_async_update and siblings); a dropped update reaches no
// task runner.
func TestUpdate_TaskRunnersSeeAllocAtOnce_AR10(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), mainTask("api")))
		ar := h.build()
		ar.Update(idx(12, structs.AllocDesiredStatusStop))
		ar.Update(idx(5, "run")) // lower than the queued: dropped
		for _, name := range []string{"api", "web"} {
			set := h.trs[name].snapshot().setAllocs
			must.Len(t, 1, set)
			must.Eq(t, uint64(12), set[0].AllocModifyIndex)
			must.Eq(t, structs.AllocDesiredStatusStop, set[0].DesiredStatus)
			must.Len(t, 0, h.trs[name].snapshot().updates, must.Sprint("the handler has not run"))
		}
		go ar.Run()
		synctest.Wait()
		h.finish()
	})
}

// TestUpdate_HooksAndStop_AR10: a non-terminal update runs the update
// hooks; a server stop kills every task (Killing, no rule event, prekill
// hooks first) and the alloc completes; updates after WaitCh closed are
// ignored.
func TestUpdate_HooksAndStop_AR10(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), mainTask("api")))
		ar := h.build()
		rec := &recordingHook{log: h.log, updateErr: errHook}
		ar.hooks = append(ar.hooks, rec)
		go ar.Run()
		synctest.Wait()

		ar.Update(idx(11, "run"))
		synctest.Wait()
		must.SliceContains(t, h.log.get(), "update:run")
		must.Nil(t, h.lastEvent("web", structs.TaskKilling))

		ar.Update(idx(12, structs.AllocDesiredStatusStop))
		h.advance(time.Second)
		must.SliceNotContains(t, h.log.get(), "update:stop", must.Sprint("no update hooks for terminal allocs"))
		must.SliceContains(t, h.log.get(), "prekill")
		for _, name := range []string{"api", "web"} {
			must.Eq(t, []string{structs.TaskReceived, structs.TaskStarted, structs.TaskKilling, structs.TaskKilled}, h.events(name))
		}
		must.True(t, isClosed(ar.WaitCh()))
		must.Eq(t, structs.AllocClientStatusComplete, h.updater.last().ClientStatus)
		must.Eq(t, structs.AllocDesiredStatusStop, h.updater.last().DesiredStatus)
		must.SliceContains(t, h.log.get(), "postrun")

		ar.Update(idx(13, structs.AllocDesiredStatusStop))
		synctest.Wait()
		must.Len(t, 2, h.trs["web"].snapshot().updates, must.Sprint("ignored after WaitCh"))
		h.finish()
	})
}

// TestUpdate_StopAgainDoesNotKillTwice_AR10: only the update that makes
// the alloc server-terminal kills.
func TestUpdate_StopAgainDoesNotKillTwice_AR10(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), hookTask("post", structs.TaskLifecycleHookPoststop, false)))
		ar := h.start()
		ar.Update(idx(11, structs.AllocDesiredStatusStop))
		synctest.Wait()
		ar.Update(idx(12, structs.AllocDesiredStatusStop))
		synctest.Wait()
		must.Len(t, 1, h.trs["web"].snapshot().killEvents)
		must.Len(t, 2, h.trs["post"].snapshot().updates)
		h.finish()
	})
}

// TestUpdate_StopDuringPrerun_AR10: a stop during a blocking prerun
// cancels it; the tasks are killed before they start, with one kill
// procedure (prekill once) and no Setup Failure.
func TestUpdate_StopDuringPrerun_AR10(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		h.cfg.PrevAllocWatcher = &fakeWatcher{h: h, d: time.Hour}
		ar := h.build()
		ar.hooks = append(ar.hooks, &recordingHook{log: h.log})
		go ar.Run()
		synctest.Wait()
		ar.Update(idx(11, structs.AllocDesiredStatusStop))
		synctest.Wait()
		must.True(t, isClosed(ar.WaitCh()))
		must.Eq(t, []string{structs.TaskReceived, structs.TaskKilling}, h.events("web"))
		var prekills int
		for _, c := range h.log.get() {
			if c == "prekill" {
				prekills++
			}
		}
		must.Eq(t, 1, prekills)
		must.SliceNotContains(t, h.log.get(), "prerun", must.Sprint("prerun stopped at the cancelled hook"))
		must.Eq(t, structs.AllocClientStatusComplete, h.updater.last().ClientStatus)
		h.finish()
	})
}
