package status

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/structs"
)

// genGroup draws a task group of 1..7 uniquely named tasks with random
// lifecycles and leaders, and a state for each (or none).
func genGroup(rt *rapid.T) ([]*structs.Task, states) {
	n := rapid.IntRange(1, 7).Draw(rt, "tasks")
	hooks := []string{"", "", structs.TaskLifecycleHookPrestart, structs.TaskLifecycleHookPoststart, structs.TaskLifecycleHookPoststop}
	makers := []func() *structs.TaskState{
		nil, pending, func() *structs.TaskState { return paused(false) }, func() *structs.TaskState { return paused(true) },
		running, restarting, complete, failed,
	}
	var tasks []*structs.Task
	st := states{}
	for i := range n {
		name := fmt.Sprintf("t%d", rapid.IntRange(0, 99).Draw(rt, "name")*10+i)
		hook := rapid.SampledFrom(hooks).Draw(rt, "hook")
		t := &structs.Task{Name: name, Leader: rapid.IntRange(0, 5).Draw(rt, "leader") == 0}
		if hook != "" || rapid.Bool().Draw(rt, "emptyLifecycle") {
			t.Lifecycle = &structs.TaskLifecycle{Hook: hook, Sidecar: rapid.Bool().Draw(rt, "sidecar")}
		}
		tasks = append(tasks, t)
		if mk := makers[rapid.IntRange(0, len(makers)-1).Draw(rt, "state")]; mk != nil {
			st[name] = mk()
		}
	}
	return tasks, st
}

// TestProperty_AR8_ClientStatus: failed iff some task is dead and failed;
// complete iff every task is dead and none failed; running iff none failed
// and some running (PAUSE-8: paused tasks never make it complete).
func TestProperty_AR8_ClientStatus(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		_, st := genGroup(rt)
		status, desc := ClientStatus(st)
		var anyFailed, anyRunning, allDead, anyPaused bool
		allDead = true
		for _, s := range st {
			anyFailed = anyFailed || (s.State == structs.TaskStateDead && s.Failed)
			anyRunning = anyRunning || s.State == structs.TaskStateRunning
			allDead = allDead && s.State == structs.TaskStateDead
			anyPaused = anyPaused || s.Paused.Paused()
		}
		if (status == structs.AllocClientStatusFailed) != anyFailed {
			rt.Fatalf("ClientStatus = %q, some dead+failed = %v", status, anyFailed)
		}
		if (status == structs.AllocClientStatusRunning) != (!anyFailed && anyRunning) {
			rt.Fatalf("ClientStatus = %q, running = %v failed = %v", status, anyRunning, anyFailed)
		}
		if (status == structs.AllocClientStatusComplete) != (len(st) > 0 && allDead && !anyFailed) {
			rt.Fatalf("ClientStatus = %q, all dead = %v", status, allDead)
		}
		if anyPaused && status == structs.AllocClientStatusComplete {
			rt.Fatalf("PAUSE-8: alloc complete with a paused task")
		}
		wantDesc := map[string]string{
			"": "", structs.AllocClientStatusFailed: DescriptionFailed, structs.AllocClientStatusRunning: DescriptionRunning,
			structs.AllocClientStatusPending: DescriptionPending, structs.AllocClientStatusComplete: DescriptionComplete,
		}[status]
		if desc != wantDesc {
			rt.Fatalf("ClientDescription = %q for %q", desc, status)
		}
	})
}

// TestProperty_AR9_KillRule: a rule needs a dead non-poststop task;
// recipients are exactly the live non-poststop tasks, in kill order; the
// failed sibling is the least failed name; the kill order partitions the
// non-poststop tasks (DET-2).
func TestProperty_AR9_KillRule(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tasks, st := genGroup(rt)
		order := KillOrder(tasks)
		all := order.All()
		var live, failedNames []string
		anyDead := false
		for _, tk := range tasks {
			if tk.IsPoststop() {
				if slices.Contains(all, tk.Name) {
					rt.Fatalf("poststop %s in kill order", tk.Name)
				}
				continue
			}
			if !slices.Contains(all, tk.Name) {
				rt.Fatalf("task %s missing from kill order %v", tk.Name, all)
			}
			s := st[tk.Name]
			if s == nil || s.State != structs.TaskStateDead {
				live = append(live, tk.Name)
				continue
			}
			anyDead = true
			if s.Failed {
				failedNames = append(failedNames, tk.Name)
			}
		}
		for _, phase := range [][]string{order.Leader, order.Main, order.Sidecars} {
			if !slices.IsSorted(phase) {
				rt.Fatalf("DET-2: phase %v not sorted", phase)
			}
		}
		kill, ok := KillRule(tasks, st)
		if !ok {
			if len(failedNames) > 0 && len(live) > 0 {
				rt.Fatalf("AR-9: failed %v with live %v but no kill", failedNames, live)
			}
			return
		}
		if !anyDead {
			rt.Fatalf("PAUSE-8/AR-9: kill %+v without a dead task", kill)
		}
		var wantRecipients []string
		for _, n := range all {
			if slices.Contains(live, n) {
				wantRecipients = append(wantRecipients, n)
			}
		}
		if !slices.Equal(wantRecipients, kill.Recipients) {
			rt.Fatalf("recipients = %v, want %v", kill.Recipients, wantRecipients)
		}
		if kill.Type == structs.TaskSiblingFailed && kill.FailedSibling != slices.Min(failedNames) {
			rt.Fatalf("failed sibling = %q, failed %v", kill.FailedSibling, failedNames)
		}
	})
}

// TestProperty_AR9_StartOrder: whenever a main task may start, every
// prestart non-sidecar has completed successfully and every prestart
// sidecar has started; poststart implies main started; poststop implies
// every main task dead; prestart always may start.
func TestProperty_AR9_StartOrder(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tasks, st := genGroup(rt)
		for _, tk := range tasks {
			ok := MayStart(tk, tasks, st)
			for _, o := range tasks {
				s := st[o.Name]
				switch StageOf(tk) {
				case StagePrestart:
					if !ok {
						rt.Fatalf("prestart %s may not start", tk.Name)
					}
				case StageMain, StagePoststart:
					if ok && o.IsPrestart() && !o.IsSidecar() && (s == nil || !s.Successful()) {
						rt.Fatalf("%s may start with prestart %s not done", tk.Name, o.Name)
					}
					if ok && o.IsPrestart() && o.IsSidecar() && (s == nil || s.StartedAt.IsZero()) {
						rt.Fatalf("%s may start with prestart sidecar %s never started", tk.Name, o.Name)
					}
					if ok && StageOf(tk) == StagePoststart && o.IsMain() && (s == nil || s.StartedAt.IsZero()) {
						rt.Fatalf("poststart %s may start with main %s never started", tk.Name, o.Name)
					}
				case StagePoststop:
					if ok && o.IsMain() && (s == nil || s.State != structs.TaskStateDead) {
						rt.Fatalf("poststop %s may start with main %s alive", tk.Name, o.Name)
					}
				}
			}
		}
	})
}
