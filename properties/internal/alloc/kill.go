package alloc

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// drawKillGroup draws a group that is killed during the run: a stop_job
// call, a failing main task (no restarts), two main tasks failing at the
// same instant, a leader that exits or every main task done. Tasks
// take at least 500 ms to stop, so that the kill phases are apart in
// time.
func drawKillGroup(d *prop.Drawer, env prop.Env) scenario.Scenario {
	typ := prop.Pick(d, "job type", []string{structs.JobTypeService, structs.JobTypeBatch})
	policy := structs.NewRestartPolicy(0, 5*time.Minute, time.Second, structs.RestartPolicyModeFail)
	killAfter := func(label string) time.Duration {
		return d.Duration(label, 500*time.Millisecond, 3*time.Second, 100*time.Millisecond)
	}
	trigger := prop.Pick(d, "trigger", []string{"stop", "evict", "failed", "leader", "mains done", "two failed"})
	runFor := func(label string, exits bool, code int) map[string]any {
		if !exits {
			return runCfg(0, 0, killAfter(label+" kill after"))
		}
		return runCfg(d.Duration(label+" run for", 5*time.Second, 60*time.Second, time.Second), code, killAfter(label+" kill after"))
	}
	leader := mkTask("t1", "main", runFor("t1", trigger == "leader" || trigger == "mains done", 0), drawKillTimeout(d, "t1"))
	leader.Leader = trigger == "leader" || d.Bool("leader")
	tasks := []*structs.Task{leader}
	switch {
	case trigger == "two failed":
		// Two main tasks fail at the same instant, listed against their
		// name order (t2 before t0): whichever the runner sees dead first
		// must be named, and the other, still live then, must get the
		// event (AR-9's "first failed task by name" among the dead).
		runFor := d.Duration("t0 run for", 5*time.Second, 60*time.Second, time.Second)
		tasks = append(tasks,
			mkTask("t2", "main", runCfg(runFor, 1, killAfter("t2 kill after")), 3*time.Second),
			mkTask("t0", "main", runCfg(runFor, prop.Pick(d, "t0 exit code", []int{1, 2}), killAfter("t0 kill after")), 2*time.Second))
	case trigger != "leader" || d.Bool("second main"):
		code := 0
		if trigger == "failed" {
			code = 1
		}
		tasks = append(tasks, mkTask("t2", "main", runFor("t2", trigger == "failed" || trigger == "mains done", code), drawKillTimeout(d, "t2")))
	}
	tasks = append(tasks, mkTask("s1", "sidecar", runFor("s1", false, 0), 3*time.Second))
	if d.Bool("second sidecar") {
		tasks = append(tasks, mkTask("s0", "prestart-sidecar", runFor("s0", false, 0), 2*time.Second))
	}
	if d.Bool("poststop") {
		tasks = append(tasks, mkTask("p1", "poststop", runCfg(2*time.Second, 0, 0), time.Second))
	}
	sc := mkScenario(d, d.Duration("duration", 2*time.Minute, 4*time.Minute, time.Minute), mkJob("job1", typ, policy, tasks...))
	switch trigger {
	case "stop":
		sc.Calls = []scenario.Call{{At: scenario.Duration(d.Duration("stop at", 10*time.Second, 90*time.Second, time.Second)), Op: scenario.OpStopJob, Job: "job1"}}
	case "evict":
		sc.Calls = []scenario.Call{{At: scenario.Duration(d.Duration("evict at", 10*time.Second, 90*time.Second, time.Second)), Op: scenario.OpEvictAlloc, Alloc: "job1.g1[0]"}}
	}
	if env.Allows(faults.DriverStopHang) && d.Bool("stop hang") {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.DriverStopHang, Rate: 0.5})
	}
	if (trigger == "stop" || trigger == "evict") && d.Bool("sidecar restarts") {
		// s1 fails again and again and restarts after a delay, so that
		// the kill may find it waiting in a restart delay: its loop must
		// still end with the task dead (AR-6).
		g := sc.Jobs[0].Job.TaskGroups[0]
		g.RestartPolicy = structs.NewRestartPolicy(20, time.Hour, d.Duration("restart delay", 5*time.Second, 40*time.Second, time.Second), structs.RestartPolicyModeFail)
		g.LookupTask("s1").Config = runCfg(d.Duration("s1 run for", 2*time.Second, 20*time.Second, time.Second), 1, killAfter("s1 kill after"))
	}
	return sc
}

// killOrder: AR-9's kill order, read from the driver's StopTask calls.
var killOrder = prop.Property{
	ID:     "AR-9/kill-order",
	Specs:  []string{"AR-9"},
	Doc:    "a kill stops the leader first and waits for it, then the other main tasks, then the sidecars; each stopped task got Killing with its capped kill timeout, and Killed once its exit was seen",
	Faults: []faults.Class{faults.DriverStopHang},
	Draw:   drawKillGroup,
	Situations: []prop.Situation{
		{Name: "leader-stopped", Doc: "a leader stopped, in the first phase"},
		{Name: "main-stopped", Doc: "a non-leader main task stopped, in the second phase"},
		{Name: "sidecar-stopped", Doc: "a sidecar stopped, in the last phase"},
		{Name: "prestart-sidecar-stopped", Doc: "a prestart sidecar stopped with the sidecars"},
		{Name: "poststop-in-killed-group", Doc: "a group with a poststop task was killed"},
		{Name: "poststop-ran-after-kill", Doc: "a poststop task started once the killed main tasks were dead"},
		{Name: "kill-timeout-under-cap", Doc: "a stopped task's kill timeout under max_kill_timeout"},
		{Name: "kill-timeout-over-cap", Doc: "a stopped task's kill timeout over max_kill_timeout (capped)"},
		{Name: "stop-hangs", Doc: "a driver StopTask that hangs"},
		{Name: "killed-after-stop", Doc: "a run the kill stopped ended with Terminated, then Killed"},
		{Name: "run-returned", Doc: "a killed alloc ended client-terminal, its runner's Run returned (a poststop task among them, on some runs)"},
		{Name: "killed-in-restart-delay", Doc: "the kill found a task waiting in a restart delay: it ended dead all the same"},
	},
	New: func(scenario.Scenario) prop.Checker {
		f := newFeed()
		running := map[taskKey]bool{}
		mainsDead := map[string]time.Time{} // allocs whose non-poststop tasks are all dead, since when
		kp := newKillPath()
		return prop.Checks{OnFinal: func(v *prop.View) { checkRunReturned(v, f.History) }, OnSettled: func(v *prop.View) {
			if kp.check(v, f.Next(v)); v.Failed() {
				return
			}
			ops := driverOps(v)
			stopped := map[taskKey]bool{}
			for _, r := range ops {
				k := taskKey{Alloc: r.Alloc, Task: r.Task}
				switch drivers.Op(r.Op) {
				case drivers.OpStart, drivers.OpRecover:
					if r.Msg == "ok" {
						running[k] = true
					}
				case drivers.OpStop:
					if running[k] {
						stopped[k] = true
					}
					if x, bad := stopArgs(v, r); bad {
						v.Violate(x)
						return
					}
				}
			}
			for _, r := range ops {
				if drivers.Op(r.Op) == drivers.OpExit {
					delete(running, taskKey{Alloc: r.Alloc, Task: r.Task})
				}
			}
			for _, r := range v.New {
				if r.Kind == trace.KindFault && strings.HasPrefix(r.Op, string(faults.DriverStopHang)) {
					v.Reach("stop-hangs")
				}
			}
			if x, bad := poststopRuns(v, mainsDead); bad {
				v.Violate(x)
				return
			}
			for _, k := range sortedKeys(stopped) {
				_, tg := groupOf(v, k.Alloc)
				if tg == nil {
					continue
				}
				phases := status.KillOrder(tg.Tasks)
				p := phaseOf(phases, k.Task)
				if p < 0 {
					continue
				}
				t := tg.LookupTask(k.Task)
				v.Reach([...]string{"leader-stopped", "main-stopped", "sidecar-stopped"}[p])
				if t.IsPrestart() && t.IsSidecar() {
					v.Reach("prestart-sidecar-stopped")
				}
				for _, x := range tg.Tasks {
					if x.IsPoststop() {
						v.Reach("poststop-in-killed-group")
					}
				}
				switch {
				case t.KillTimeout > maxKillTimeout:
					v.Reach("kill-timeout-over-cap")
				default:
					v.Reach("kill-timeout-under-cap")
				}
				for _, earlier := range [][]string{phases.Leader, phases.Main, phases.Sidecars}[:p] {
					for _, y := range earlier {
						if running[taskKey{Alloc: k.Alloc, Task: y}] {
							v.Violatef(k.Alloc, k.Task, "StopTask while "+y+" (an earlier kill phase) still runs",
								"stopped", "leader, then other main tasks, then sidecars, each phase after the previous one exited")
							return
						}
					}
				}
				want := t.EffectiveKillTimeout(maxKillTimeout)
				h := f.History[k]
				var kev *structs.TaskEvent
				for _, e := range h {
					if e.Type == structs.TaskKilling {
						kev = e
					}
				}
				if kev == nil {
					v.Violatef(k.Alloc, k.Task, "Killing event before StopTask", "none", "Killing")
					return
				}
				if e := kev; e.KillTimeout != want {
					v.Violatef(k.Alloc, k.Task, "Killing KillTimeout", e.KillTimeout, want)
					return
				}
			}
		}}
	},
}

// drawKillTimeout draws a task's KillTimeout: 1 to 5 s, or, one time in
// four, over the client's 30 s max_kill_timeout (DATA-4: the cap applies,
// to the Killing event and to the driver's StopTask alike).
func drawKillTimeout(d *prop.Drawer, task string) time.Duration {
	if d.IntRange(task+" kill timeout over cap", 0, 3) == 0 {
		return d.Duration(task+" kill timeout", 31*time.Second, 90*time.Second, time.Second)
	}
	return d.Duration(task+" kill timeout", time.Second, 5*time.Second, time.Second)
}

func phaseOf(p status.KillPhases, name string) int {
	for i, ph := range [][]string{p.Leader, p.Main, p.Sidecars} {
		if slices.Contains(ph, name) {
			return i
		}
	}
	return -1
}

func sortedKeys[V any](m map[taskKey]V) []taskKey {
	out := make([]taskKey, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b taskKey) int {
		return strings.Compare(a.Alloc+"/"+a.Task, b.Alloc+"/"+b.Task)
	})
	return out
}

// killRules: AR-9's kill rules via model/status.KillRule.
var killRules = prop.Property{
	ID:     "AR-9/kill-rules",
	Specs:  []string{"AR-9"},
	Doc:    "a dead failed task, a dead leader or only sidecars alive give every live task the kill event KillRule names (Sibling Task Failed with the first failed task, Leader Task Dead, Main Tasks Dead)",
	Faults: []faults.Class{faults.DriverStopHang},
	Draw:   drawKillGroup,
	Situations: []prop.Situation{
		{Name: "sibling-failed", Doc: "a dead failed task: Sibling Task Failed to every live task"},
		{Name: "several-failed", Doc: "two tasks of the alloc failed at once: the first failed by name is named"},
		{Name: "leader-dead", Doc: "a dead non-failed leader: Leader Task Dead"},
		{Name: "main-tasks-dead", Doc: "only sidecars alive: Main Tasks Dead"},
		{Name: "server-stop", Doc: "the server stopped the alloc (desired stop)"},
		{Name: "server-evict", Doc: "the server evicted the alloc (desired evict)"},
	},
	New: func(scenario.Scenario) prop.Checker {
		f := newFeed()
		killed := map[string]bool{}        // allocs whose kill started
		ruled := map[string]time.Time{}    // allocs a kill rule fired in, since when, until a task of it got Killing
		ruledTo := map[string][]string{}   // that rule's recipients
		due := map[string]string{}         // allocs where a rule applied an instant ago without an event
		terminal := map[string]time.Time{} // allocs the server made terminal, since when
		return prop.Checks{OnSettled: func(v *prop.View) {
			recipients := map[string]map[string]*structs.TaskEvent{}
			for _, ne := range f.Next(v) {
				if killRuleEvent(ne.Event.Type) {
					if recipients[ne.Key.Alloc] == nil {
						recipients[ne.Key.Alloc] = map[string]*structs.TaskEvent{}
					}
					recipients[ne.Key.Alloc][ne.Key.Task] = ne.Event
				}
				if ne.Event.Type == structs.TaskKilling || killRuleEvent(ne.Event.Type) {
					killed[ne.Key.Alloc] = true
				}
				if ne.Event.Type == structs.TaskKilling {
					ruled[ne.Key.Alloc] = time.Time{} // the kill procedure runs
				}
			}
			for id, rs := range recipients {
				if _, seen := ruled[id]; !seen {
					ruled[id], ruledTo[id] = v.Now(), slices.Sorted(maps.Keys(rs))
				}
			}
			if x, bad := ruleKills(v, ruled, ruledTo); bad {
				v.Violate(x)
				return
			}
			for _, a := range v.Allocs() {
				_, tg := groupOf(v, a.ID)
				if tg == nil {
					continue
				}
				if rs := recipients[a.ID]; rs != nil {
					pre := map[string]*structs.TaskState{}
					for n, s := range a.TaskStates {
						pre[n] = s
						if rs[n] != nil {
							pre[n] = &structs.TaskState{State: structs.TaskStateRunning, StartedAt: s.StartedAt}
						}
					}
					k, ok := status.KillRule(tg.Tasks, pre)
					got := slices.Sorted(maps.Keys(rs))
					if !ok {
						v.Violatef(a.ID, got[0], "kill event", rs[got[0]].Type, "none (no kill rule applies)")
						return
					}
					want := slices.Sorted(slices.Values(k.Recipients))
					if !slices.Equal(got, want) {
						v.Violatef(a.ID, "", k.Type+" recipients", got, want)
						return
					}
					for _, n := range got {
						e := rs[n]
						if e.Type != k.Type || e.FailedSibling != k.FailedSibling {
							v.Violatef(a.ID, n, "kill event", e.Type+" "+e.FailedSibling, k.Type+" "+k.FailedSibling)
							return
						}
					}
					reachRule(v, k.Type, tg.Tasks, a.TaskStates)
				}
				if sa := v.ServerAlloc(a.ID); sa != nil && sa.DesiredStatus == structs.AllocDesiredStatusStop {
					v.Reach("server-stop")
				} else if sa != nil && sa.DesiredStatus == structs.AllocDesiredStatusEvict {
					v.Reach("server-evict")
				}
				if sa := v.ServerAlloc(a.ID); sa != nil && sa.ServerTerminal() {
					since, ok := terminal[a.ID]
					if !ok {
						since, terminal[a.ID] = v.Now(), v.Now()
					}
					if live := liveMain(tg, a); !killed[a.ID] && live != "" && v.Now().Sub(since) >= serverKillGrace {
						v.Violatef(a.ID, live, "kill of a live task "+serverKillGrace.String()+" after the server set desired status "+sa.DesiredStatus,
							"none (no Killing)", "Killing: a server-terminal update kills every task (AR-10, AR-9 order)")
						return
					}
				}
				if killed[a.ID] || v.ServerAlloc(a.ID).ServerTerminal() {
					delete(due, a.ID)
					continue
				}
				if k, ok := status.KillRule(tg.Tasks, a.TaskStates); ok {
					if typ, late := due[a.ID]; late {
						v.Violatef(a.ID, k.Recipients[0], "kill event", "none", typ+" (AR-9 kill rule holds)")
						return
					}
					due[a.ID] = k.Type
				} else {
					delete(due, a.ID)
				}
			}
		}}
	},
}

// reachRule counts the kill rule that fired, and whether several tasks of
// the alloc have failed by then.
func reachRule(v *prop.View, typ string, tasks []*structs.Task, states map[string]*structs.TaskState) {
	switch typ {
	case structs.TaskSiblingFailed:
		v.Reach("sibling-failed")
		failed := 0
		for _, t := range tasks {
			if s := states[t.Name]; s != nil && s.State == structs.TaskStateDead && s.Failed {
				failed++
			}
		}
		if failed > 1 {
			v.Reach("several-failed")
		}
	case structs.TaskLeaderDead:
		v.Reach("leader-dead")
	case structs.TaskMainDead:
		v.Reach("main-tasks-dead")
	}
}

// stopArgs checks a driver StopTask against the task's definition: a
// poststop task is never stopped (a kill leaves it to run to completion,
// AR-9), and the stop carries the task's KillSignal (SIGINT by default)
// and its kill timeout capped by max_kill_timeout (DATA-4), as the
// Killing event says.
func stopArgs(v *prop.View, r trace.Record) (prop.Violation, bool) {
	_, tg := groupOf(v, r.Alloc)
	if tg == nil {
		return prop.Violation{}, false
	}
	t := tg.LookupTask(r.Task)
	if t == nil {
		return prop.Violation{}, false
	}
	if t.IsPoststop() {
		return prop.Violation{Alloc: r.Alloc, Task: r.Task, What: "StopTask of a poststop task", Got: "called",
			Want: "none: a kill leaves poststop tasks to run to completion (AR-9)"}, true
	}
	var signal, timeout string
	for _, f := range strings.Fields(r.Msg) {
		if v, ok := strings.CutPrefix(f, "signal="); ok {
			signal = v
		}
		if v, ok := strings.CutPrefix(f, "timeout="); ok {
			timeout = v
		}
	}
	wantSignal := t.KillSignal
	if wantSignal == "" {
		wantSignal = drivers.DefaultStopSignal
	}
	if want := t.EffectiveKillTimeout(maxKillTimeout).String(); timeout != want {
		return prop.Violation{Alloc: r.Alloc, Task: r.Task, What: "StopTask timeout", Got: timeout,
			Want: want + " (KillTimeout " + t.KillTimeout.String() + " capped by max_kill_timeout " + maxKillTimeout.String() + ")"}, true
	}
	if signal != wantSignal {
		return prop.Violation{Alloc: r.Alloc, Task: r.Task, What: "StopTask signal", Got: signal, Want: wantSignal + " (the task's KillSignal)"}, true
	}
	return prop.Violation{}, false
}

// ruleKills: a kill rule's event is the start of AR-9's kill procedure,
// not all of it: the procedure appends Killing to every unfinished task
// and stops it. A rule that fired serverKillGrace ago while a recipient
// still runs and no task of the alloc got Killing is a kill that never
// ran (the event appended, the procedure dropped).
func ruleKills(v *prop.View, ruled map[string]time.Time, to map[string][]string) (prop.Violation, bool) {
	for _, id := range slices.Sorted(maps.Keys(ruled)) {
		at := ruled[id]
		a := v.Alloc(id)
		if at.IsZero() || a == nil || v.Now().Sub(at) < serverKillGrace {
			continue
		}
		for _, n := range to[id] {
			if s := a.TaskStates[n]; s != nil && s.State != structs.TaskStateDead {
				return prop.Violation{Alloc: id, Task: n,
					What: fmt.Sprintf("kill of a live task %s after a kill rule gave it its event at %s", serverKillGrace, at.UTC().Format(time.RFC3339)),
					Got:  "none (no Killing on any task of the alloc)", Want: "Killing: the rule starts AR-9's kill procedure, which kills every unfinished task"}, true
			}
		}
	}
	return prop.Violation{}, false
}

// serverKillGrace is how long a live task of an alloc the server made
// terminal may go without its kill starting: the client learns of the
// update from its blocking pull at once (no RPC faults are drawn here).
const serverKillGrace = 30 * time.Second

// liveMain is the first task of tg, by name, that runs in a and is not a
// poststop task (a kill leaves those alone), or "".
func liveMain(tg *structs.TaskGroup, a *structs.Allocation) string {
	var names []string
	for _, t := range tg.Tasks {
		if s := a.TaskStates[t.Name]; s != nil && s.State == structs.TaskStateRunning && !t.IsPoststop() {
			names = append(names, t.Name)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// poststopGrace is how long after every other task of an alloc died its
// poststop tasks may go without starting (driver start delays are drawn
// up to a few seconds).
const poststopGrace = 15 * time.Second

// poststopRuns is the consequence of AR-9 for poststop tasks: a kill
// leaves them alone, and they start once every other task is dead, so
// poststopGrace after that every poststop task has started (and may have
// finished); one killed with the rest never does.
func poststopRuns(v *prop.View, since map[string]time.Time) (prop.Violation, bool) {
	for _, a := range v.Allocs() {
		_, tg := groupOf(v, a.ID)
		if tg == nil {
			continue
		}
		var posts []*structs.Task
		dead := true
		for _, t := range tg.Tasks {
			s := a.TaskStates[t.Name]
			switch {
			case t.IsPoststop():
				posts = append(posts, t)
			case s == nil || s.State != structs.TaskStateDead:
				dead = false
			}
		}
		if len(posts) == 0 || !dead {
			delete(since, a.ID)
			continue
		}
		at, ok := since[a.ID]
		if !ok {
			since[a.ID], at = v.Now(), v.Now()
		}
		for _, t := range posts {
			s := a.TaskStates[t.Name]
			started := s != nil && !s.StartedAt.IsZero()
			if started {
				v.Reach("poststop-ran-after-kill")
				continue
			}
			if v.Now().Sub(at) >= poststopGrace {
				state := "no state"
				if s != nil {
					state = s.State
				}
				return prop.Violation{Alloc: a.ID, Task: t.Name, What: "poststop task " + poststopGrace.String() + " after every other task died",
					Got: state + ", never started", Want: "started: a kill leaves poststop tasks alone and they run once the others are dead (AR-9)"}, true
			}
		}
	}
	return prop.Violation{}, false
}
