package telem

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/trace"
)

// compare reports the first difference of want and got as a violation.
func compare(v *prop.View, o observed, what string, want, got multiset) bool {
	s, g, w, ok := diff(want, got)
	if !ok {
		return false
	}
	x := prop.Violation{At: time.Unix(0, s.at), What: what + ": number of " + s.String(), Got: fmt.Sprint(g), Want: fmt.Sprint(w)}
	if s.metric == telemetry.MetricElapsed {
		// A sample's value is part of its slot: state the samples
		// expected there and the samples found, not a count of one value.
		x.What = what + ": samples of " + s.where()
		x.Got, x.Want = samplesAt(got, s), samplesAt(want, s)
	}
	if calls := o.allocsAt(s); calls != "" {
		x.Want += " (port calls returning then: " + calls + ")"
	}
	v.Violate(x)
	return true
}

// samplesAt lists the elapsed samples of m in s's slot whatever their
// value ("724 ms ×3, 2209.573 ms"), or "none".
func samplesAt(m multiset, s slot) string {
	var keys []slot
	for k, n := range m {
		if n > 0 && k.at == s.at && k.inc == s.inc && k.ns == s.ns && k.hook == s.hook && k.metric == s.metric {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return "none"
	}
	slices.SortFunc(keys, slotOrder)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%v ms", math.Float32frombits(k.value))
		if n := m[k]; n > 1 {
			parts[i] += fmt.Sprintf(" ×%d", n)
		}
	}
	return strings.Join(parts, ", ")
}

// checkShape: TELEM-1 names and counter values; every execution is one
// elapsed sample and one success-or-failed counter (TELEM-3).
func checkShape(v *prop.View, o observed) bool {
	pairs := map[slot][2]int{}
	for _, e := range o.ems {
		if !e.known {
			v.Violatef("", "", "hook metric emitted", e.String(), "only nomad.client.{alloc_hook.prerun,task_hook.prestart}.{success,failed,elapsed}")
			return true
		}
		s := e.slot("")
		s.metric = e.hookType
		p := pairs[s]
		if e.metric == telemetry.MetricElapsed {
			p[0]++
		} else {
			if e.Value != 1 {
				v.Violatef("", "", "counter increment "+e.String(), e.Value, 1)
				return true
			}
			p[1]++
		}
		pairs[s] = p
	}
	keys := make([]slot, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, slotOrder)
	for _, k := range keys {
		if p := pairs[k]; p[0] != p[1] {
			v.Violatef("", "", "elapsed samples vs success+failed counters of "+k.String(), p[0], fmt.Sprintf("%d (one of each per execution)", p[1]))
			return true
		}
	}
	return false
}

// checkCounts is TELEM-3 against the port calls: alloc_dir and task_dir
// once per dir Build, with its outcome; await_previous_allocations,
// migrate_disk and volumes once after each success of the hook before;
// csi_hook once per finished pass; validate only on a pass's first
// instant, at most once per task and incarnation (Done: skipped on
// restarts), and on the first pass of every task.
func checkCounts(v *prop.View, o observed) bool {
	want, _ := o.dirHooks(sim.PortAllocDirBuild, telemetry.HookAllocDir)
	if compare(v, o, "alloc_dir executions (one per alloc dir Build)", want, o.counters(telemetry.HookAllocDir)) {
		return true
	}
	await, _ := o.actual(telemetry.HookAwaitPrevAllocs, true)
	if compare(v, o, "await_previous_allocations executions (one after each alloc_dir success)", followers(want, telemetry.HookAwaitPrevAllocs), await) {
		return true
	}
	migrate, _ := o.actual(telemetry.HookMigrateDisk, true)
	if compare(v, o, "migrate_disk executions (one after each await_previous_allocations success)",
		followers(o.counters(telemetry.HookAwaitPrevAllocs), telemetry.HookMigrateDisk), migrate) {
		return true
	}
	csiWant, _ := o.csiRuns()
	csiGot, _ := o.actual(telemetry.HookCSI, true)
	if compare(v, o, "csi_hook executions (one per prerun pass, ending with its last mount)", csiWant, csiGot) {
		return true
	}
	tdWant, _ := o.dirHooks(sim.PortTaskDirBuild, telemetry.HookTaskDir)
	if compare(v, o, "task_dir executions (one per task dir Build)", tdWant, o.counters(telemetry.HookTaskDir)) {
		return true
	}
	vol, _ := o.actual(telemetry.HookVolumes, true)
	if compare(v, o, "volumes executions (one after each task_dir success)", followers(tdWant, telemetry.HookVolumes), vol) {
		return true
	}
	return checkValidate(v, o)
}

// checkValidate: validate is Done after its first success, so it runs
// once per task on its first pass, never on a restart within an
// incarnation, and after a restore at most once.
func checkValidate(v *prop.View, o observed) bool {
	type task struct {
		inc         int
		alloc, task string
	}
	type group struct {
		inc int
		ns  string
	}
	starts := multiset{}
	first := map[[2]string]int{}
	tasks := map[group]map[task]bool{}
	for _, c := range o.calls {
		if c.Op != sim.PortTaskDirBuild {
			continue
		}
		ns := o.nsOf(c.Alloc)
		starts[slot{inc: c.Incarnation, at: c.Invoke.UnixNano(), ns: ns, hook: telemetry.HookValidate}]++
		if _, ok := first[[2]string{c.Alloc, c.Task}]; !ok {
			first[[2]string{c.Alloc, c.Task}] = c.Incarnation
		}
		g := group{c.Incarnation, ns}
		if tasks[g] == nil {
			tasks[g] = map[task]bool{}
		}
		tasks[g][task{c.Incarnation, c.Alloc, c.Task}] = true
	}
	// A validate that fails (a task it rejects) builds no task dir: its
	// failed counter goes with the task's `Task hook failed` whose
	// Message is `validate: <err>` (AR-5) at that instant, in an alloc of
	// that namespace.
	type instant struct {
		at int64
		ns string
	}
	hookFailed := map[instant]int{}
	for _, r := range v.World.Trace().From(0) {
		if r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskHookFailed &&
			strings.HasPrefix(oracle.EventOf(r).Message, telemetry.HookValidate+": ") {
			hookFailed[instant{r.At.UnixNano(), o.nsOf(r.Alloc)}]++
		}
	}
	got := map[group]int{}
	for _, e := range o.ems {
		if !e.known || e.hook != telemetry.HookValidate || e.metric == telemetry.MetricElapsed {
			continue
		}
		s := slot{inc: e.Incarnation, at: e.At.UnixNano(), ns: e.ns, hook: telemetry.HookValidate}
		if e.metric == telemetry.MetricFailed {
			k := instant{s.at, s.ns}
			if hookFailed[k] == 0 {
				v.Violatef("", "", "failed validate execution at "+s.String(), "no task's `Task hook failed` (validate: ...) then", "a task validate rejected (AR-5)")
				return true
			}
			hookFailed[k]--
			continue
		}
		if starts[s] == 0 {
			v.Violatef("", "", "validate execution at "+s.String(), "no task dir Build invoked then", "validate runs right before task_dir on a pass's first instant")
			return true
		}
		starts[s]--
		got[group{e.Incarnation, e.ns}]++
	}
	groups := make([]group, 0, len(tasks))
	for g := range tasks {
		groups = append(groups, g)
	}
	slices.SortFunc(groups, func(a, b group) int { return cmp.Or(cmp.Compare(a.inc, b.inc), cmp.Compare(a.ns, b.ns)) })
	for _, g := range groups {
		lo := 0
		for t := range tasks[g] {
			if first[[2]string{t.alloc, t.task}] == g.inc {
				lo++
			}
		}
		hi := len(tasks[g])
		if n := got[g]; n < lo || n > hi {
			v.Violatef("", "", fmt.Sprintf("validate executions in incarnation %d, namespace %s (Done hooks are skipped)", g.inc, g.ns),
				n, fmt.Sprintf("between %d (tasks' first passes) and %d (tasks built)", lo, hi))
			return true
		}
	}
	return false
}

// checkShouldRun: no prerun pass (alloc dir Build) for an alloc whose
// last pushed status was terminal (AR-4, TELEM-3). It keeps the statuses
// of the previous instant in last.
func checkShouldRun(v *prop.View, last map[string]string, calls []sim.PortCall) bool {
	for _, c := range calls {
		if c.Op != sim.PortAllocDirBuild || !c.Invoke.Equal(v.Now()) {
			continue
		}
		if st := last[c.Alloc]; terminal(st) {
			v.Violatef(c.Alloc, "", "prerun pass (alloc_dir Build, and its metrics) of an alloc that should not run; its status", st, "not complete/failed/lost")
			return true
		}
	}
	for _, a := range v.Allocs() {
		last[a.ID] = a.ClientStatus
	}
	return false
}

func terminal(st string) bool {
	switch st {
	case structs.AllocClientStatusComplete, structs.AllocClientStatusFailed, structs.AllocClientStatusLost:
		return true
	}
	return false
}
