package status

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/structs"
)

// This file is a deliberately naive second implementation of AR-8 and
// AR-9, written from SPEC.md's text alone, and the property tests that
// compare the package with it on generated groups. It shares nothing with
// the package but the data types: it reads lifecycle blocks and task
// states field by field, spells out each rule as the SPEC sentence says
// it, and never calls the package or the structs helpers (IsSidecar,
// Successful, ...).
//
// Readings of SPEC text the naive code had to choose (each matches the
// package's documentation):
//   - a task without a state is pending (alive, never started);
//   - "prestart sidecars run" and "main tasks run" mean "have started":
//     StartedAt is set, so the start conditions never close again;
//   - the stages follow each other: poststart needs the main tasks' own
//     condition too (in a group without main tasks "once main tasks run"
//     would otherwise let poststart tasks start before prestart ones end);
//   - a kill rule without a live task to tell kills nobody: both "no rule"
//     and "a rule with no recipients" mean that nothing happens.

// naiveHook is a task's lifecycle hook, "" for a main task.
func naiveHook(t *structs.Task) string {
	if t.Lifecycle == nil {
		return ""
	}
	return t.Lifecycle.Hook
}

func naiveSidecar(t *structs.Task) bool {
	return t.Lifecycle != nil && t.Lifecycle.Sidecar
}

// naiveState is a task's state string; no state is pending (AR-6:
// construction appends Received, pending).
func naiveState(st map[string]*structs.TaskState, name string) string {
	if s := st[name]; s != nil {
		return s.State
	}
	return structs.TaskStatePending
}

func naiveStarted(st map[string]*structs.TaskState, name string) bool {
	s := st[name]
	return s != nil && !s.StartedAt.IsZero()
}

func naiveFailed(st map[string]*structs.TaskState, name string) bool {
	s := st[name]
	return s != nil && s.State == structs.TaskStateDead && s.Failed
}

// naiveClientStatus is AR-8 read as a list: "any dead+Failed → failed;
// else any running → running; else any pending → pending; else any dead →
// complete". No rule matching (no states) gives "", "".
func naiveClientStatus(st map[string]*structs.TaskState) (string, string) {
	rules := []struct {
		holds        func(s *structs.TaskState) bool
		status, desc string
	}{
		{func(s *structs.TaskState) bool { return s.State == "dead" && s.Failed }, "failed", "Failed tasks"},
		{func(s *structs.TaskState) bool { return s.State == "running" }, "running", "Tasks are running"},
		{func(s *structs.TaskState) bool { return s.State == "pending" }, "pending", "No tasks have started"},
		{func(s *structs.TaskState) bool { return s.State == "dead" }, "complete", "All tasks have completed"},
	}
	for _, r := range rules {
		for _, s := range st {
			if s != nil && r.holds(s) {
				return r.status, r.desc
			}
		}
	}
	return "", ""
}

// naiveKill is the outcome of AR-9's kill rules: the event type, the
// failed sibling, and who gets the event, in kill order.
type naiveKill struct {
	Type          string
	FailedSibling string
	Recipients    []string
}

func (k naiveKill) String() string {
	if len(k.Recipients) == 0 {
		return "no kill"
	}
	return fmt.Sprintf("%s(sibling %q) to %v", k.Type, k.FailedSibling, k.Recipients)
}

// naiveKillOrder is AR-9's "Kill order: ... leader (synchronously), other
// non-sidecar non-poststop tasks, sidecars; poststop untouched", names
// ascending within a phase (DET-2).
func naiveKillOrder(tasks []*structs.Task) (leaders, mains, sidecars []string) {
	for _, t := range tasks {
		switch {
		case naiveHook(t) == "poststop":
		case t.Leader:
			leaders = append(leaders, t.Name)
		case !naiveSidecar(t):
			mains = append(mains, t.Name)
		default:
			sidecars = append(sidecars, t.Name)
		}
	}
	slices.Sort(leaders)
	slices.Sort(mains)
	slices.Sort(sidecars)
	return leaders, mains, sidecars
}

// naiveKillRule is AR-9: "A dead failed task → every live task gets
// Sibling Task Failed (first failed task by name), all killed; a dead
// non-failed leader → Leader Task Dead instead, all killed; only sidecars
// alive → Main Tasks Dead, they are killed" (poststop tasks ignored).
func naiveKillRule(tasks []*structs.Task, st map[string]*structs.TaskState) naiveKill {
	var live, failedNames []string
	leaderDead, nonSidecarSeen, liveNonSidecar := false, false, false
	for _, t := range tasks {
		if naiveHook(t) == "poststop" {
			continue
		}
		if !naiveSidecar(t) {
			nonSidecarSeen = true
		}
		if naiveState(st, t.Name) != "dead" {
			live = append(live, t.Name)
			liveNonSidecar = liveNonSidecar || !naiveSidecar(t)
			continue
		}
		if naiveFailed(st, t.Name) {
			failedNames = append(failedNames, t.Name)
		} else if t.Leader {
			leaderDead = true
		}
	}
	// Recipients: the live tasks, in kill order.
	l, m, s := naiveKillOrder(tasks)
	var recipients []string
	for _, name := range slices.Concat(l, m, s) {
		if slices.Contains(live, name) {
			recipients = append(recipients, name)
		}
	}
	slices.Sort(failedNames)
	switch {
	case len(recipients) == 0:
		return naiveKill{}
	case leaderDead:
		return naiveKill{Type: "Leader Task Dead", Recipients: recipients}
	case len(failedNames) > 0:
		return naiveKill{Type: "Sibling Task Failed", FailedSibling: failedNames[0], Recipients: recipients}
	case nonSidecarSeen && !liveNonSidecar:
		// "only sidecars alive": every main (non-sidecar) task died.
		return naiveKill{Type: "Main Tasks Dead", Recipients: recipients}
	}
	return naiveKill{}
}

// naiveMayStart is AR-9's "Start order: prestart tasks; main tasks once
// prestart non-sidecars completed successfully and prestart sidecars run;
// poststart once main tasks run; poststop once all main tasks are dead".
func naiveMayStart(t *structs.Task, tasks []*structs.Task, st map[string]*structs.TaskState) bool {
	mainGate := true
	for _, o := range tasks {
		if naiveHook(o) != "prestart" {
			continue
		}
		if naiveSidecar(o) {
			mainGate = mainGate && naiveStarted(st, o.Name)
		} else {
			mainGate = mainGate && naiveState(st, o.Name) == "dead" && !st[o.Name].Failed
		}
	}
	mainsStarted, mainsDead := true, true
	for _, o := range tasks {
		if naiveHook(o) == "" {
			mainsStarted = mainsStarted && naiveStarted(st, o.Name)
			mainsDead = mainsDead && naiveState(st, o.Name) == "dead"
		}
	}
	switch naiveHook(t) {
	case "prestart":
		return true
	case "":
		return mainGate
	case "poststart":
		return mainGate && mainsStarted
	default: // poststop
		return mainsDead
	}
}

// naiveReachable reports whether the states could have come about: a
// main task has started only if the main start condition held, and it
// latches (StartedAt stays). Start conditions are compared only there:
// elsewhere "poststart once main tasks run" says nothing.
func naiveReachable(tasks []*structs.Task, st map[string]*structs.TaskState) bool {
	for _, t := range tasks {
		if naiveHook(t) == "" && naiveStarted(st, t.Name) && !naiveMayStart(t, tasks, st) {
			return false
		}
	}
	return true
}

// naiveGroup draws a group of 1..6 uniquely named, valid tasks (sidecars
// only on prestart and poststart) and a state for each, or none.
func naiveGroup(rt *rapid.T) ([]*structs.Task, map[string]*structs.TaskState) {
	n := rapid.IntRange(1, 6).Draw(rt, "tasks")
	hooks := []string{"", "", "prestart", "poststart", "poststop"}
	var tasks []*structs.Task
	st := map[string]*structs.TaskState{}
	for i := range n {
		name := fmt.Sprintf("%c%d", 'a'+rapid.IntRange(0, 5).Draw(rt, "letter"), i)
		t := &structs.Task{Name: name, Leader: rapid.IntRange(0, 4).Draw(rt, "leader") == 0}
		switch hook := rapid.SampledFrom(hooks).Draw(rt, "hook"); hook {
		case "":
			if rapid.IntRange(0, 3).Draw(rt, "emptyLifecycle") == 0 {
				t.Lifecycle = &structs.TaskLifecycle{}
			}
		case "poststop":
			t.Lifecycle = &structs.TaskLifecycle{Hook: hook}
		default:
			t.Lifecycle = &structs.TaskLifecycle{Hook: hook, Sidecar: rapid.Bool().Draw(rt, "sidecar")}
		}
		tasks = append(tasks, t)
		if s := naiveTaskState(rt, name); s != nil {
			st[name] = s
		}
	}
	return tasks, st
}

// naiveTaskState draws a task state: none, pending (never ran, or ran and
// restarting, or paused), running, dead complete or dead failed (having
// run or not).
func naiveTaskState(rt *rapid.T, label string) *structs.TaskState {
	at := time.Date(2024, 11, 3, 5, 30, 0, 0, time.UTC)
	ran := rapid.Bool().Draw(rt, label+"/ran")
	s := &structs.TaskState{}
	switch rapid.IntRange(0, 5).Draw(rt, label+"/state") {
	case 0:
		return nil
	case 1:
		s.State = "pending"
	case 2:
		s.State, s.Paused = "pending", structs.TaskScheduleStateSchedulePause
	case 3:
		s.State, ran = "running", true
	case 4:
		s.State, s.FinishedAt = "dead", at.Add(time.Hour)
	case 5:
		s.State, s.Failed, s.FinishedAt = "dead", true, at.Add(time.Hour)
	}
	if ran {
		s.StartedAt = at
	}
	return s
}

// naiveDescribe prints a group for failure messages.
func naiveDescribe(tasks []*structs.Task, st map[string]*structs.TaskState) string {
	var b strings.Builder
	for _, t := range tasks {
		fmt.Fprintf(&b, "\n  %s hook=%q sidecar=%v leader=%v", t.Name, naiveHook(t), naiveSidecar(t), t.Leader)
		if s := st[t.Name]; s != nil {
			fmt.Fprintf(&b, " state=%s failed=%v started=%v paused=%q", s.State, s.Failed, !s.StartedAt.IsZero(), s.Paused)
		} else {
			b.WriteString(" (no state)")
		}
	}
	return b.String()
}

// TestNaive_AR8_ClientStatus compares ClientStatus with the naive AR-8.
func TestNaive_AR8_ClientStatus(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tasks, st := naiveGroup(rt)
		gotS, gotD := ClientStatus(st)
		wantS, wantD := naiveClientStatus(st)
		if gotS != wantS || gotD != wantD {
			rt.Fatalf("AR-8 ClientStatus:\n model: %q %q\n naive: %q %q\ngroup:%s", gotS, gotD, wantS, wantD, naiveDescribe(tasks, st))
		}
	})
}

// TestNaive_AR9_KillRule compares KillRule and KillOrder with the naive
// AR-9.
func TestNaive_AR9_KillRule(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tasks, st := naiveGroup(rt)
		l, m, s := naiveKillOrder(tasks)
		order := KillOrder(tasks)
		if !slices.Equal(order.Leader, l) || !slices.Equal(order.Main, m) || !slices.Equal(order.Sidecars, s) {
			rt.Fatalf("AR-9 kill order:\n model: %v %v %v\n naive: %v %v %v\ngroup:%s",
				order.Leader, order.Main, order.Sidecars, l, m, s, naiveDescribe(tasks, st))
		}
		want := naiveKillRule(tasks, st)
		k, ok := KillRule(tasks, st)
		got := naiveKill{}
		if ok {
			got = naiveKill(k)
		}
		if len(got.Recipients) == 0 {
			got = naiveKill{}
		}
		if got.String() != want.String() {
			rt.Fatalf("AR-9 kill rule:\n model: %s\n naive: %s\ngroup:%s", got, want, naiveDescribe(tasks, st))
		}
	})
}

// TestNaive_AR9_StartOrder compares MayStart with the naive AR-9 start
// order on reachable states.
func TestNaive_AR9_StartOrder(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tasks, st := naiveGroup(rt)
		if !naiveReachable(tasks, st) {
			rt.Skip("a main task started although its start condition does not hold")
		}
		for _, tk := range tasks {
			got, want := MayStart(tk, tasks, st), naiveMayStart(tk, tasks, st)
			if got != want {
				rt.Fatalf("AR-9 MayStart(%s):\n model: %v\n naive: %v\ngroup:%s", tk.Name, got, want, naiveDescribe(tasks, st))
			}
		}
	})
}

// TestNaive_AR8_AR9_Vectors pins the precedence lists of AR-8 and AR-9
// with vectors taken from the SPEC sentences, on model and naive alike.
func TestNaive_AR8_AR9_Vectors(t *testing.T) {
	at := time.Date(2024, 11, 3, 5, 30, 0, 0, time.UTC)
	pend := &structs.TaskState{State: "pending"}
	run := &structs.TaskState{State: "running", StartedAt: at}
	done := &structs.TaskState{State: "dead", StartedAt: at, FinishedAt: at}
	fail := &structs.TaskState{State: "dead", Failed: true, StartedAt: at, FinishedAt: at}
	pausedSt := &structs.TaskState{State: "pending", Paused: structs.TaskScheduleStateForcePause}

	statusCases := []struct {
		name       string
		st         map[string]*structs.TaskState
		want, desc string
	}{
		{"failed beats running", map[string]*structs.TaskState{"a": fail, "b": run}, "failed", "Failed tasks"},
		{"running beats pending", map[string]*structs.TaskState{"a": run, "b": pend}, "running", "Tasks are running"},
		{"pending beats dead", map[string]*structs.TaskState{"a": pend, "b": done}, "pending", "No tasks have started"},
		{"all dead is complete", map[string]*structs.TaskState{"a": done, "b": done}, "complete", "All tasks have completed"},
		{"paused is pending (PAUSE-8)", map[string]*structs.TaskState{"a": pausedSt, "b": done}, "pending", "No tasks have started"},
	}
	for _, c := range statusCases {
		t.Run("AR-8/"+c.name, func(t *testing.T) {
			gs, gd := ClientStatus(c.st)
			ns, nd := naiveClientStatus(c.st)
			if gs != c.want || gd != c.desc || ns != c.want || nd != c.desc {
				t.Fatalf("ClientStatus:\n model: %q %q\n naive: %q %q\n  want: %q %q", gs, gd, ns, nd, c.want, c.desc)
			}
		})
	}

	main := func(n string) *structs.Task { return &structs.Task{Name: n} }
	lead := func(n string) *structs.Task { return &structs.Task{Name: n, Leader: true} }
	side := func(n string) *structs.Task {
		return &structs.Task{Name: n, Lifecycle: &structs.TaskLifecycle{Hook: "poststart", Sidecar: true}}
	}
	stop := func(n string) *structs.Task {
		return &structs.Task{Name: n, Lifecycle: &structs.TaskLifecycle{Hook: "poststop"}}
	}
	killCases := []struct {
		name  string
		tasks []*structs.Task
		st    map[string]*structs.TaskState
		want  naiveKill
	}{
		{"first failed task by name", []*structs.Task{main("c"), main("b"), main("a"), side("s")},
			map[string]*structs.TaskState{"c": fail, "b": fail, "a": run, "s": run},
			naiveKill{"Sibling Task Failed", "b", []string{"a", "s"}}},
		{"leader dead, not failed", []*structs.Task{lead("l"), main("m"), side("s"), stop("p")},
			map[string]*structs.TaskState{"l": done, "m": run, "s": run, "p": pend},
			naiveKill{"Leader Task Dead", "", []string{"m", "s"}}},
		{"only sidecars alive", []*structs.Task{main("m"), side("s"), stop("p")},
			map[string]*structs.TaskState{"m": done, "s": run, "p": pend},
			naiveKill{"Main Tasks Dead", "", []string{"s"}}},
		{"poststop ignored", []*structs.Task{main("m"), stop("p")},
			map[string]*structs.TaskState{"m": run, "p": fail}, naiveKill{}},
		{"paused tasks are live (PAUSE-8)", []*structs.Task{main("m"), main("n")},
			map[string]*structs.TaskState{"m": pausedSt, "n": pausedSt}, naiveKill{}},
		{"kill order: leader, mains, sidecars", []*structs.Task{side("s"), main("z"), lead("l"), main("a"), main("f")},
			map[string]*structs.TaskState{"s": run, "z": run, "l": run, "a": run, "f": fail},
			naiveKill{"Sibling Task Failed", "f", []string{"l", "a", "z", "s"}}},
	}
	for _, c := range killCases {
		t.Run("AR-9/"+c.name, func(t *testing.T) {
			k, ok := KillRule(c.tasks, c.st)
			got := naiveKill{}
			if ok && len(k.Recipients) > 0 {
				got = naiveKill(k)
			}
			naive := naiveKillRule(c.tasks, c.st)
			if got.String() != c.want.String() || naive.String() != c.want.String() {
				t.Fatalf("KillRule:\n model: %s\n naive: %s\n  want: %s", got, naive, c.want)
			}
		})
	}
}
