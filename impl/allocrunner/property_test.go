package allocrunner

import (
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
)

// genGroup draws 1..5 tasks of random lifecycle stages, at most one
// leader, with at least one main task.
func genGroup(rt *rapid.T) []*structs.Task {
	n := rapid.IntRange(1, 5).Draw(rt, "tasks")
	leader := rapid.IntRange(-1, n-1).Draw(rt, "leader")
	var tasks []*structs.Task
	for i := range n {
		name := fmt.Sprintf("t%d", i)
		var t *structs.Task
		switch kind := rapid.IntRange(0, 5).Draw(rt, name+"-kind"); {
		case i == 0 || kind <= 1:
			t = mainTask(name)
		case kind == 2:
			t = hookTask(name, structs.TaskLifecycleHookPrestart, rapid.Bool().Draw(rt, name+"-sidecar"))
		case kind == 3:
			t = hookTask(name, structs.TaskLifecycleHookPoststart, rapid.Bool().Draw(rt, name+"-sidecar"))
		default:
			t = hookTask(name, structs.TaskLifecycleHookPoststop, false)
		}
		t.Leader = i == leader && !t.IsPoststop()
		tasks = append(tasks, t)
	}
	return tasks
}

type step struct {
	task    int
	failed  bool
	advance time.Duration
}

// TestProperty_AR9_KillAndStartOrder: whatever exits happen in whatever
// order, (1) each task gets at most one kill-rule event and one Killing,
// and no rule event once dead; (2) a Sibling Task Failed names a task that
// died failed; (3) AR-9's start order holds in the call log; (4) the last
// pushed ClientStatus is model/status.ClientStatus of the final states
// (AR-8); (5) Destroy ends every task dead and the bubble drains. The
// scenario is drawn first, then run in its own synctest bubble.
func TestProperty_AR9_KillAndStartOrder(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tasks := genGroup(rt)
		delay := time.Duration(rapid.IntRange(0, 2).Draw(rt, "killDelay")) * time.Second
		var steps []step
		for range rapid.IntRange(0, 8).Draw(rt, "steps") {
			steps = append(steps, step{
				task:    rapid.IntRange(0, len(tasks)-1).Draw(rt, "task"),
				failed:  rapid.Bool().Draw(rt, "failed"),
				advance: time.Duration(rapid.IntRange(0, 3).Draw(rt, "advance")) * time.Second,
			})
		}
		var violation string
		synctest.Test(t, func(t *testing.T) {
			violation = runScenario(t, tasks, delay, steps)
		})
		if violation != "" {
			rt.Fatal(violation)
		}
	})
}

func runScenario(t *testing.T, tasks []*structs.Task, delay time.Duration, steps []step) string {
	h := newHarness(t, testAlloc(tasks...))
	h.setup = func(tr *fakeTR) { tr.killDelay = delay }
	h.start()
	for _, s := range steps {
		tr := h.trs[tasks[s.task].Name]
		if tr.TaskState().State == structs.TaskStateRunning {
			select {
			case tr.exitCh <- s.failed:
			default:
			}
		}
		h.advance(s.advance)
	}
	final := h.ar.AllocState()
	want, _ := status.ClientStatus(final.TaskStates)
	if last := h.updater.last(); last.ClientStatus != want {
		return fmt.Sprintf("AR-8: pushed ClientStatus %q, states give %q", last.ClientStatus, want)
	}
	h.finish()
	if v := checkEvents(h, tasks); v != "" {
		return v
	}
	return checkStartOrder(h.log.get(), tasks)
}

func checkEvents(h *harness, tasks []*structs.Task) string {
	ruleTypes := []string{structs.TaskSiblingFailed, structs.TaskLeaderDead, structs.TaskMainDead}
	for _, tk := range tasks {
		st := h.trs[tk.Name].TaskState()
		if st.State != structs.TaskStateDead {
			return fmt.Sprintf("%s not dead after Destroy: %s", tk.Name, st.State)
		}
		var rules, killings int
		dead := false
		for _, e := range st.Events {
			switch {
			case slices.Contains(ruleTypes, e.Type):
				rules++
				if dead {
					return fmt.Sprintf("%s got %s after it died", tk.Name, e.Type)
				}
				if e.Type == structs.TaskSiblingFailed && !h.trs[e.FailedSibling].TaskState().Failed {
					return fmt.Sprintf("%s: failed sibling %q did not fail", tk.Name, e.FailedSibling)
				}
			case e.Type == structs.TaskKilling:
				killings++
			case e.Type == structs.TaskTerminated || e.Type == structs.TaskKilled:
				dead = true
			}
		}
		if rules > 1 || killings > 1 {
			return fmt.Sprintf("%s: %d rule events, %d Killing: %v", tk.Name, rules, killings, st.Events)
		}
		if tk.IsPoststop() && rules > 0 {
			return fmt.Sprintf("poststop %s got a rule event", tk.Name)
		}
	}
	return ""
}

func checkStartOrder(log []string, tasks []*structs.Task) string {
	at := func(s string) int {
		if i := slices.Index(log, s); i >= 0 {
			return i
		}
		return len(log)
	}
	for _, tk := range tasks {
		start := slices.Index(log, "start:"+tk.Name)
		if start < 0 {
			continue
		}
		for _, o := range tasks {
			switch stage := status.StageOf(tk); {
			case stage == status.StageMain && o.IsPrestart() && !o.IsSidecar(),
				stage == status.StagePoststart && o.IsPrestart() && !o.IsSidecar():
				if at("exit-ok:"+o.Name) > start {
					return fmt.Sprintf("%s started before prestart %s completed: %v", tk.Name, o.Name, log)
				}
			case (stage == status.StageMain || stage == status.StagePoststart) && o.IsPrestart() && o.IsSidecar():
				if at("start:"+o.Name) > start {
					return fmt.Sprintf("%s started before prestart sidecar %s: %v", tk.Name, o.Name, log)
				}
			case stage == status.StagePoststart && o.IsMain():
				if at("start:"+o.Name) > start {
					return fmt.Sprintf("poststart %s started before main %s: %v", tk.Name, o.Name, log)
				}
			case stage == status.StagePoststop && o.IsMain():
				if min(at("exit-ok:"+o.Name), at("exit-failed:"+o.Name), at("dead:"+o.Name), at("kill:"+o.Name)) > start {
					return fmt.Sprintf("poststop %s started before main %s died: %v", tk.Name, o.Name, log)
				}
			}
		}
	}
	return ""
}
