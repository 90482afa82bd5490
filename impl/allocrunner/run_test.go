package allocrunner

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
)

// TestHookOrder_AR4: the alloc hooks are registered in the required order,
// which is telemetry's prerun order.
func TestHookOrder_AR4(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		ar := h.build()
		var names []string
		for _, hk := range ar.hooks {
			names = append(names, hk.Name())
		}
		must.Eq(t, telemetry.PrerunHookOrder(), names)
		h.finish()
	})
}

// TestRun_PrerunTelemetry_TELEM3: each prerun hook emits one elapsed sample
// on the injected clock and one success counter; a hook blocking 3
// simulated seconds records 3000 ms (TELEM-4). Tasks start only after
// prerun; the CSI map is set before.
func TestRun_PrerunTelemetry_TELEM3(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, withCSI(testAlloc(mainTask("web")), "data"))
		h.cfg.PrevAllocWatcher = &fakeWatcher{h: h, d: 3 * time.Second}
		ar := h.start()
		must.True(t, ar.IsWaiting())
		must.False(t, ar.IsMigrating())
		must.SliceEmpty(t, h.log.get(), must.Sprint("no task runs while prerun waits"))
		must.Eq(t, structs.AllocClientStatusPending, h.updater.last().ClientStatus)

		h.advance(3 * time.Second)
		must.Eq(t, []string{"run:web", "start:web"}, h.log.get())
		must.Eq(t, map[string]string{"web": "running"}, h.states())
		must.Eq(t, structs.AllocClientStatusRunning, h.updater.last().ClientStatus)
		must.Eq(t, status.DescriptionRunning, h.updater.last().ClientDescription)
		must.Eq(t, map[string]*interfaces.CSIMountPoint{"data": {Source: "/csi/a1/src-data"}}, ar.hookResources.GetCSIMounts())
		_, err := ar.GetAllocDir().Stat("alloc")
		must.NoError(t, err, must.Sprint("alloc_dir prerun built the alloc dir"))

		want := []string{
			"alloc_hook.prerun.elapsed hook=alloc_dir count=1 sum=0",
			"alloc_hook.prerun.elapsed hook=await_previous_allocations count=1 sum=3000",
			"alloc_hook.prerun.elapsed hook=csi_hook count=1 sum=0",
			"alloc_hook.prerun.elapsed hook=migrate_disk count=1 sum=0",
			"alloc_hook.prerun.success hook=alloc_dir count=1 sum=1",
			"alloc_hook.prerun.success hook=await_previous_allocations count=1 sum=1",
			"alloc_hook.prerun.success hook=csi_hook count=1 sum=1",
			"alloc_hook.prerun.success hook=migrate_disk count=1 sum=1",
		}
		must.Eq(t, want, h.metricLines())
		h.finish()
	})
}

// TestRun_Labels_TELEM2: prerun metrics carry the base labels, the alloc's
// namespace and the hook name, in order.
func TestRun_Labels_TELEM2(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		h.start()
		got := h.metricKeys()
		must.SliceContains(t, got, "nomad.client.alloc_hook.prerun.success;node_id=n1;datacenter=dc1;node_class=none;node_pool=default;namespace=prod;hook_name=alloc_dir")
		h.finish()
	})
}

// TestRun_MetricsDisabled_TELEM5: the switch silences prerun telemetry.
func TestRun_MetricsDisabled_TELEM5(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		h.cfg.ClientConfig.DisableAllocationHookMetrics = true
		h.cfg.Metrics = nil
		h.start()
		must.Eq(t, map[string]string{"web": "running"}, h.states())
		must.SliceEmpty(t, h.metricLines())
		h.finish()
	})
}

// TestRun_PrerunFailure_AR4: the first prerun error stops the pass (later
// hooks emit nothing), sets no CSI map, and every task gets Setup Failure
// and is killed: the alloc fails, with no kill-rule events, and postrun
// still runs.
func TestRun_PrerunFailure_AR4(t *testing.T) {
	cases := []struct {
		name      string
		configure func(h *harness)
		failed    string
		err       string
		emitted   []string
	}{
		{
			name:      "await fails",
			configure: func(h *harness) { h.cfg.PrevAllocWatcher = &fakeWatcher{h: h, d: time.Second, err: errBoom} },
			failed:    telemetry.HookAwaitPrevAllocs,
			err:       `pre-run hook "await_previous_allocations" failed: boom`,
			emitted:   []string{telemetry.HookAllocDir},
		},
		{
			name: "migrate fails",
			configure: func(h *harness) {
				h.cfg.PrevAllocMigrator = &fakeMigrator{fakeWatcher: fakeWatcher{h: h, err: errBoom}}
			},
			failed:  telemetry.HookMigrateDisk,
			err:     `pre-run hook "migrate_disk" failed: boom`,
			emitted: []string{telemetry.HookAllocDir, telemetry.HookAwaitPrevAllocs},
		},
		{
			name:      "second CSI mount fails",
			configure: func(h *harness) { h.csi.fail = map[string]error{"logs": errBoom} },
			failed:    telemetry.HookCSI,
			err:       `pre-run hook "csi_hook" failed: failed to mount CSI volume "logs": boom`,
			emitted:   []string{telemetry.HookAllocDir, telemetry.HookAwaitPrevAllocs, telemetry.HookMigrateDisk},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, withCSI(testAlloc(mainTask("web"), hookTask("post", structs.TaskLifecycleHookPoststop, false)), "data", "logs"))
				tc.configure(h)
				ar := h.start()
				h.waitClosed(ar.WaitCh(), "WaitCh")

				var want []string
				for _, n := range tc.emitted {
					want = append(want, fmt.Sprintf("alloc_hook.prerun.success hook=%s count=1 sum=1", n))
				}
				want = append(want, fmt.Sprintf("alloc_hook.prerun.failed hook=%s count=1 sum=1", tc.failed))
				got := h.metricLines()
				for _, w := range want {
					must.SliceContains(t, got, w)
				}
				must.Len(t, 2*len(want), got, must.Sprint("no emission after the failed hook"))

				reason := "failed to setup alloc: " + tc.err
				for _, name := range []string{"post", "web"} {
					must.Eq(t, reason, h.trs[name].snapshot().markFailed)
					ev := h.lastEvent(name, structs.TaskSetupFailure)
					must.NotNil(t, ev)
					must.Eq(t, reason, ev.DisplayMessage)
					must.True(t, ev.FailsTask)
					must.Eq(t, structs.TaskRestoreFailed, ev.Details["kill_reason"])
					must.Eq(t, []string{structs.TaskReceived, structs.TaskSetupFailure}, h.events(name))
				}
				must.Eq(t, map[string]string{"web": "dead+failed", "post": "dead+failed"}, h.states())
				must.Eq(t, structs.AllocClientStatusFailed, h.updater.last().ClientStatus)
				must.MapEmpty(t, ar.hookResources.GetCSIMounts(), must.Sprint("HOOKRES-2: nothing set on error"))
				if tc.failed == telemetry.HookCSI {
					must.Eq(t, []string{"data"}, h.csi.unmounted, must.Sprint("postrun unmounts what was mounted"))
				}
				h.finish()
			})
		})
	}
}

// TestRun_TerminalAllocSkipsPrerun_AR4: no prerun (and no metric) for an
// alloc that should not run; the task runners still run. A server-terminal
// alloc is killed at once (no gate opens for its tasks).
func TestRun_TerminalAllocSkipsPrerun_AR4(t *testing.T) {
	cases := []struct {
		name    string
		mut     func(a *structs.Allocation)
		stopped bool
	}{
		{"desired stop", func(a *structs.Allocation) { a.DesiredStatus = structs.AllocDesiredStatusStop }, true},
		{"desired evict", func(a *structs.Allocation) { a.DesiredStatus = structs.AllocDesiredStatusEvict }, true},
		{"client complete", func(a *structs.Allocation) { a.ClientStatus = structs.AllocClientStatusComplete }, false},
		{"client lost", func(a *structs.Allocation) { a.ClientStatus = structs.AllocClientStatusLost }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				a := withCSI(testAlloc(mainTask("web")), "data")
				tc.mut(a)
				h := newHarness(t, a)
				ar := h.start()
				must.SliceEmpty(t, h.metricLines())
				must.SliceEmpty(t, h.csi.mounted)
				_, err := ar.GetAllocDir().Stat("alloc")
				must.Error(t, err, must.Sprint("alloc dir not built"))
				must.True(t, h.trs["web"].snapshot().ran)
				if tc.stopped {
					must.Eq(t, []string{structs.TaskReceived, structs.TaskKilling}, h.events("web"))
					must.True(t, isClosed(ar.WaitCh()))
				} else {
					must.SliceContains(t, h.log.get(), "start:web")
				}
				h.finish()
			})
		})
	}
}

// TestRun_Complete_AR8: tasks that all complete make the alloc complete;
// the all-tasks-finished step releases the dead task runners, Run returns
// and postrun unmounts.
func TestRun_Complete_AR8(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, withCSI(testAlloc(mainTask("a"), mainTask("b")), "data"))
		ar := h.start()
		h.trs["a"].exit(false)
		synctest.Wait()
		must.Eq(t, structs.AllocClientStatusRunning, h.updater.last().ClientStatus)
		must.False(t, isClosed(ar.WaitCh()))
		h.advance(time.Second)
		h.trs["b"].exit(false)
		synctest.Wait()
		must.True(t, isClosed(ar.WaitCh()))
		last := h.updater.last()
		must.Eq(t, structs.AllocClientStatusComplete, last.ClientStatus)
		must.Eq(t, status.DescriptionComplete, last.ClientDescription)
		must.Eq(t, t0, last.TaskStates["a"].FinishedAt)
		must.Eq(t, t0.Add(time.Second), last.TaskStates["b"].FinishedAt)
		must.Eq(t, []string{"data"}, h.csi.unmounted)
		for _, name := range []string{"a", "b"} {
			must.Eq(t, []*structs.TaskEvent{nil}, h.trs[name].snapshot().killEvents, must.Sprint("dead tasks get no Killing"))
		}
		h.finish()
	})
}

// TestRun_Twice_AR1: a second Run returns at once and leaves WaitCh open.
func TestRun_Twice_AR1(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		ar := h.start()
		ar.Run()
		must.False(t, isClosed(ar.WaitCh()))
		h.finish()
	})
}

// TestClientState_FinishedAt_AR8: a terminal status by override stamps
// FinishedAt on unfinished tasks once, and keeps the stamp.
func TestClientState_FinishedAt_AR8(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		ar := h.start()
		ar.SetClientStatus(structs.AllocClientStatusFailed)
		s1 := ar.AllocState()
		must.Eq(t, structs.AllocClientStatusFailed, s1.ClientStatus)
		must.Eq(t, status.DescriptionFailed, s1.ClientDescription)
		must.Eq(t, t0, s1.TaskStates["web"].FinishedAt)
		h.advance(time.Minute)
		s2 := ar.AllocState()
		must.Eq(t, "", cmp.Diff(s1, s2))
		h.finish()
	})
}
