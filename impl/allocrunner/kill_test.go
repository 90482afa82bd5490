package allocrunner

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/structs"
)

// TestKillRules_AR9: each kill rule appends its event to every live
// non-poststop task, which is then killed with Killing; dead tasks and
// poststop tasks get neither.
func TestKillRules_AR9(t *testing.T) {
	cases := []struct {
		name    string
		tasks   []*structs.Task
		exit    string // the task that exits
		failed  bool
		event   string
		sibling string
		killed  []string // tasks that get the rule event and Killing
		spared  []string // tasks that get neither
		status  string
	}{
		{
			name:  "sibling failed",
			tasks: []*structs.Task{mainTask("c"), mainTask("a"), mainTask("b")},
			exit:  "b", failed: true,
			event: structs.TaskSiblingFailed, sibling: "b",
			killed: []string{"a", "c"}, spared: []string{"b"},
			status: structs.AllocClientStatusFailed,
		},
		{
			name:   "leader dead",
			tasks:  []*structs.Task{leaderTask("lead"), mainTask("m"), hookTask("side", structs.TaskLifecycleHookPrestart, true)},
			exit:   "lead",
			event:  structs.TaskLeaderDead,
			killed: []string{"m", "side"}, spared: []string{"lead"},
			status: structs.AllocClientStatusComplete,
		},
		{
			name:  "failed leader is a failed sibling",
			tasks: []*structs.Task{leaderTask("lead"), mainTask("m")},
			exit:  "lead", failed: true,
			event: structs.TaskSiblingFailed, sibling: "lead",
			killed: []string{"m"}, spared: []string{"lead"},
			status: structs.AllocClientStatusFailed,
		},
		{
			name: "main tasks dead, sidecars alive",
			tasks: []*structs.Task{mainTask("web"), hookTask("proxy", structs.TaskLifecycleHookPrestart, true),
				hookTask("log", structs.TaskLifecycleHookPoststart, true), hookTask("post", structs.TaskLifecycleHookPoststop, false)},
			exit:   "web",
			event:  structs.TaskMainDead,
			killed: []string{"log", "proxy"}, spared: []string{"web", "post"},
			status: structs.AllocClientStatusRunning, // post runs
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, testAlloc(tc.tasks...))
				h.cfg.ClientConfig.MaxKillTimeout = 3 * time.Second
				h.start()
				h.trs[tc.exit].exit(tc.failed)
				synctest.Wait()
				for _, name := range tc.killed {
					ev := h.lastEvent(name, tc.event)
					must.NotNil(t, ev, must.Sprintf("%s gets %s", name, tc.event))
					must.Eq(t, tc.sibling, ev.FailedSibling)
					k := h.lastEvent(name, structs.TaskKilling)
					must.NotNil(t, k, must.Sprintf("%s gets Killing", name))
					must.Eq(t, 3*time.Second, k.KillTimeout, must.Sprint("capped by max_kill_timeout"))
					must.Eq(t, "3s", k.Details["kill_timeout"])
					must.Eq(t, structs.TaskStateDead, h.trs[name].TaskState().State)
				}
				for _, name := range tc.spared {
					must.Nil(t, h.lastEvent(name, tc.event), must.Sprintf("%s spared", name))
					must.Nil(t, h.lastEvent(name, structs.TaskKilling), must.Sprintf("%s spared", name))
				}
				must.Eq(t, tc.status, h.ar.AllocState().ClientStatus)
				h.finish()
			})
		})
	}
}

// TestKillRules_OnceAndNotForPoststop_AR9: a poststop task's failure
// triggers no rule; a second failure after a rule kill adds no second
// rule event.
func TestKillRules_OnceAndNotForPoststop_AR9(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("a"), mainTask("b"), mainTask("c")))
		h.setup = func(tr *fakeTR) { tr.killDelay = 2 * time.Second }
		h.start()
		h.trs["a"].exit(true)
		synctest.Wait()
		h.trs["b"].exit(true) // dies failed while being killed
		h.advance(5 * time.Second)
		var n int
		for _, name := range []string{"a", "b", "c"} {
			for _, e := range h.trs[name].TaskState().Events {
				if e.Type == structs.TaskSiblingFailed {
					n++
					must.Eq(t, "a", e.FailedSibling)
				}
			}
		}
		must.Eq(t, 2, n, must.Sprint("b and c, once each"))
		h.finish()
	})
}

// TestKillOrder_AR9: prekill hooks first, the leader synchronously, then
// the other non-sidecar tasks, then the sidecars; poststop untouched.
func TestKillOrder_AR9(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(
			hookTask("side", structs.TaskLifecycleHookPrestart, true), mainTask("m2"), leaderTask("lead"),
			mainTask("m1"), hookTask("post", structs.TaskLifecycleHookPoststop, false)))
		h.setup = func(tr *fakeTR) { tr.killDelay = time.Second }
		ar := h.build()
		rec := &recordingHook{log: h.log}
		ar.hooks = append(ar.hooks, rec)
		go ar.Run()
		synctest.Wait()
		ar.Destroy()
		h.advance(5 * time.Second)
		must.Eq(t, structs.TaskStateRunning, h.trs["post"].TaskState().State, must.Sprint("poststop starts once the main tasks are dead"))
		h.trs["post"].exit(false)
		h.waitClosed(ar.WaitCh(), "WaitCh")
		var kills []string
		for _, c := range h.log.get() {
			if c == "prekill" || c == "kill:lead" || c == "dead:lead" || c == "kill:m1" || c == "kill:m2" ||
				c == "dead:m1" || c == "dead:m2" || c == "kill:side" || c == "kill:post" {
				kills = append(kills, c)
			}
		}
		must.Eq(t, []string{"prekill", "kill:lead", "dead:lead"}, kills[:3])
		must.Eq(t, []string{"dead:m1", "dead:m2", "kill:m1", "kill:m2"}, sorted(kills[3:7]))
		must.Eq(t, "kill:side", kills[7])
		must.SliceNotContains(t, kills, "kill:post")
		must.Eq(t, structs.TaskStateDead, h.trs["post"].TaskState().State, must.Sprint("poststop ran to completion"))
		h.waitClosed(ar.DestroyCh(), "DestroyCh")
	})
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// TestStartOrder_AR9: prestart tasks start at once; main tasks once the
// prestart non-sidecar completed and the prestart sidecar runs; poststart
// once the main task runs; poststop once the main tasks are dead.
func TestStartOrder_AR9(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(
			hookTask("init", structs.TaskLifecycleHookPrestart, false),
			hookTask("side", structs.TaskLifecycleHookPrestart, true),
			mainTask("web"),
			hookTask("after", structs.TaskLifecycleHookPoststart, true),
			hookTask("post", structs.TaskLifecycleHookPoststop, false)))
		ar := h.start()
		must.Eq(t, map[string]string{"init": "running", "side": "running", "web": "pending", "after": "pending", "post": "pending"}, h.states())
		h.trs["init"].exit(false)
		synctest.Wait()
		must.Eq(t, map[string]string{"init": "dead", "side": "running", "web": "running", "after": "running", "post": "pending"}, h.states())
		h.trs["web"].exit(false) // only sidecars left: Main Tasks Dead; post may start
		synctest.Wait()
		must.NotNil(t, h.lastEvent("side", structs.TaskMainDead))
		must.NotNil(t, h.lastEvent("after", structs.TaskMainDead))
		must.Eq(t, map[string]string{"init": "dead", "side": "dead", "web": "dead", "after": "dead", "post": "running"}, h.states())
		must.False(t, isClosed(ar.WaitCh()))
		h.trs["post"].exit(false)
		synctest.Wait()
		must.True(t, isClosed(ar.WaitCh()))
		must.Eq(t, structs.AllocClientStatusComplete, h.updater.last().ClientStatus)
		h.finish()
	})
}

// TestStartOrder_FailedPrestart_AR9: a failed prestart task keeps the
// main task from starting and kills it as a failed sibling.
func TestStartOrder_FailedPrestart_AR9(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(hookTask("init", structs.TaskLifecycleHookPrestart, false), mainTask("web")))
		ar := h.start()
		h.trs["init"].exit(true)
		synctest.Wait()
		must.SliceNotContains(t, h.log.get(), "start:web")
		must.Eq(t, []string{structs.TaskReceived, structs.TaskSiblingFailed, structs.TaskKilling}, h.events("web"))
		must.Eq(t, map[string]string{"init": "dead+failed", "web": "dead"}, h.states())
		must.True(t, isClosed(ar.WaitCh()))
		h.finish()
	})
}

// TestPausedTasksTriggerNoKill_PAUSE8: a paused (pending) task is live:
// with the main task paused and the sidecar running, nothing is killed.
func TestPausedTasksTriggerNoKill_PAUSE8(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), mainTask("other")))
		h.start()
		h.trs["web"].change(func(s *structs.TaskState, now time.Time) {
			s.Paused = structs.TaskScheduleStateForcePause
			s.SetState(structs.TaskStatePending, now)
		})
		h.trs["other"].exit(false)
		synctest.Wait()
		must.Nil(t, h.lastEvent("web", structs.TaskKilling))
		must.Eq(t, structs.AllocClientStatusPending, h.ar.AllocState().ClientStatus)
		h.finish()
	})
}

// TestKillWaitsForLaunch_AR9: a kill procedure started while Run launches
// the task runners (here: from the first Start, before the runners are
// started, with the rest of the runner settled) reaches a task runner
// only once Run has started every one of them, so a leader's Kill waits
// for its run before the sidecars are killed, whichever goroutine got
// there first (DET-4; fixtures/seeds/leader_kill_races_task_launch: the
// task state handler's all-tasks-finished kill of a restored dead alloc
// called the leader's Kill before its Start, and it returned at once).
func TestKillWaitsForLaunch_AR9(t *testing.T) {
	for _, tc := range []struct {
		name string
		dead bool                  // the tasks are restored dead
		kick func(ar *allocRunner) // what starts the kill during the launch
	}{
		{"all tasks finished", true, func(ar *allocRunner) { ar.taskStateUpdated() }},
		{"server stop", false, func(ar *allocRunner) {
			a := ar.Alloc()
			a.DesiredStatus = structs.AllocDesiredStatusStop
			a.AllocModifyIndex++
			ar.Update(a)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, testAlloc(leaderTask("web"), hookTask("side", structs.TaskLifecycleHookPoststart, true)))
				var early atomic.Bool
				launched := make(chan struct{})
				ar, err := newAllocRunner(h.cfg, Policies{NewTaskRunner: func(cfg *taskrunner.Config) (TaskRunner, error) {
					tr := newFakeTR(cfg, h.log)
					if tc.dead {
						tr.restoreSet = &structs.TaskState{State: structs.TaskStateDead, StartedAt: t0, FinishedAt: t0}
					}
					h.trs[cfg.Task.Name] = tr
					return &lateStartTR{fakeTR: tr, early: &early, launched: launched}, nil
				}})
				must.NoError(t, err)
				h.ar = ar
				t.Cleanup(h.finish)
				must.NoError(t, ar.GetAllocDir().Build())
				must.NoError(t, ar.Restore())
				first, last := ar.taskNames[0], ar.taskNames[len(ar.taskNames)-1]
				ar.tasks[first].(*lateStartTR).kick = func() { tc.kick(ar) }
				ar.tasks[last].(*lateStartTR).last = true
				go ar.Run()
				<-launched
				synctest.Wait()
				must.False(t, early.Load(), must.Sprint("a task runner was killed before Run started it"))
				must.SliceContains(t, h.log.get(), "kill:web")
				must.SliceContains(t, h.log.get(), "kill:side")
			})
		})
	}
}

// lateStartTR is a fake task runner whose Start runs kick (if set), then
// lets everything else settle before it starts the runner, as if Run's
// goroutine were descheduled there; it records a Kill that came before
// its Start in early. The last one launched closes launched once started.
type lateStartTR struct {
	*fakeTR
	kick     func()
	last     bool
	started  atomic.Bool
	early    *atomic.Bool
	launched chan struct{}
}

func (s *lateStartTR) Start() {
	if s.kick != nil {
		s.kick()
	}
	synctest.Wait()
	s.started.Store(true)
	s.fakeTR.Start()
	if s.last {
		close(s.launched)
	}
}

func (s *lateStartTR) Kill(ctx context.Context, ev *structs.TaskEvent) error {
	if !s.started.Load() {
		s.early.Store(true)
	}
	return s.fakeTR.Kill(ctx, ev)
}
