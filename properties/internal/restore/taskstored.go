package restore

import (
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// taskStateStored: STATE-2's `task_state` "on every event/state change",
// seen from the state DB. At every settled instant the stored task
// state of each task of a live runner is the runner's own (the one its
// AllocState reports), unless the task's last write in this incarnation
// failed (memory still advances). The case no other check sees: an alloc
// built afresh (its `alloc` entry was never written, so the restore
// skipped it) over a task_state that a crashed incarnation left in the
// DB. Construction cannot write the fresh state (a Restore may be about
// to load the stored one), so the runner writes it once it runs the
// alloc (SPEC-NOTES); a runner that waits for the task's first state
// change leaves the stale state stored while a task waits at its start
// gate (main behind a prestart task), and a crash then restores it.
var taskStateStored = prop.Property{
	ID:     "STATE-2/task-state-stored",
	Specs:  []string{"STATE-2", "STATE-1", "STATE-3"},
	Doc:    "at every settled instant the stored task_state of each task of a running alloc is the runner's task state, unless that task's last write failed; an alloc built afresh over a task_state a crashed incarnation left stores its fresh one once it runs",
	Faults: []faults.Class{faults.ClientCrash, faults.StateDBWriteFailure},
	Draw:   drawStale,
	Situations: []prop.Situation{
		{Name: "built-over-stale", Doc: "an alloc built afresh while the state DB held a task_state of it from a crashed incarnation (its alloc entry was never written)"},
		{Name: "gated-over-stale", Doc: "such an alloc's task waiting at its start gate (only its construction events) at a settled instant"},
		{Name: "restored-compared", Doc: "a task loaded by a restore compared with its stored state"},
		{Name: "failed-write-skipped", Doc: "a task whose last task_state write failed, not compared"},
	},
	New: func(scenario.Scenario) prop.Checker {
		c := &storedChecker{failed: map[key]bool{}, stale: map[string]bool{}, over: map[string]bool{}}
		return prop.Checks{OnSettled: c.settled}
	},
}

// drawStale draws a service job whose main task waits behind a prestart
// task, one or two crashes (the second soon after the first restart,
// while main may still wait) and failing writes: of `alloc` on most runs
// (a restart then skips the alloc and builds it afresh over its task
// states), of `task_state` on the others.
func drawStale(d *prop.Drawer, env prop.Env) scenario.Scenario {
	tasks := []*structs.Task{task("main", nil, map[string]any{"kill_after": "500ms"}),
		task("init", &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart},
			map[string]any{"run_for": d.Duration("init run", 2*time.Second, 20*time.Second, time.Second).String(), "exit_code": 0})}
	j := &structs.Job{ID: "job1", Name: "job1", Type: structs.JobTypeService, TaskGroups: []*structs.TaskGroup{{Name: "g1", Count: d.IntRange("count", 1, 2), Tasks: tasks}}}
	j.Canonicalize()
	sc := scenario.Scenario{Start: prop.Pick(d, "start", scenario.Starts), Duration: scenario.Duration(d.Duration("duration", 2*time.Minute, 4*time.Minute, time.Minute)),
		Jobs: []scenario.JobAt{{Job: j}}}
	at := d.Duration("crash after", time.Second, 40*time.Second, 100*time.Millisecond)
	down := d.Duration("down for", time.Second, 10*time.Second, time.Second)
	sc.Faults = append(sc.Faults, faults.Fault{Class: faults.ClientCrash, At: at, For: down})
	if d.Bool("second crash") {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.ClientCrash, At: at + down + d.Duration("crash again after", 100*time.Millisecond, 10*time.Second, 100*time.Millisecond),
			For: d.Duration("down again for", time.Second, 10*time.Second, time.Second)})
	}
	if env.Allows(faults.StateDBWriteFailure) {
		// One key a run (a fault class is listed once): `alloc` on most.
		k, pct := "alloc", d.IntRange("alloc write failure percent", 60, 100)
		if d.IntRange("task writes fail", 0, 3) == 0 {
			k, pct = "task_state", d.IntRange("task write failure percent", 20, 60)
		}
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.StateDBWriteFailure, Rate: float64(pct) / 100, Key: k}) // STATE-1 keys
	}
	return sc
}

type storedChecker struct {
	up     bool
	inc    int
	failed map[key]bool             // task → its last task_state write in this incarnation failed
	stale  map[string]bool          // alloc → at the last crash it had task_state stored but no alloc entry
	over   map[string]bool          // alloc → built afresh over stale task states in this incarnation
	dead   []interfaces.AllocRunner // runners of crashed incarnations (World.AllocRunner returns them until replaced)
}

func (c *storedChecker) settled(v *prop.View) {
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindWorld && (r.Msg == trace.MsgClientCrash || r.Msg == trace.MsgClientStop):
			if c.up {
				c.down(v)
			}
			c.up = false
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			c.up, c.inc = true, c.inc+1
			clear(c.failed)
			clear(c.over)
		case r.Kind == trace.KindStateDB && r.Op == "put task_state":
			c.failed[key{Alloc: r.Alloc, Task: r.Task}] = r.Msg != "ok"
		}
	}
	if !c.up {
		return
	}
	for _, id := range c.runningAllocs(v) {
		ar := v.World.AllocRunner(id)
		st := ar.AllocState()
		if st == nil {
			continue
		}
		if c.stale[id] && !c.over[id] {
			c.over[id] = true
			v.Reach("built-over-stale")
		}
		for _, name := range slices.Sorted(maps.Keys(st.TaskStates)) {
			if c.check(v, id, name, st.TaskStates[name]) {
				return
			}
		}
	}
}

// check compares task name of alloc id as its runner holds it with the
// stored one; it reports a violation.
func (c *storedChecker) check(v *prop.View, id, name string, mem *structs.TaskState) bool {
	k := key{Alloc: id, Task: name}
	if c.failed[k] {
		v.Reach("failed-write-skipped")
		return false
	}
	stored, err := v.World.PersistedTaskState(id, name)
	if err != nil || mem == nil {
		return false
	}
	if c.over[id] && constructionOnly(mem) {
		v.Reach("gated-over-stale")
	}
	if _, written := c.failed[k]; !written && !c.over[id] {
		v.Reach("restored-compared")
	}
	if stored.Equal(mem) {
		return false
	}
	v.Violatef(id, name, "stored task_state (state, events)", describeTaskState(stored),
		describeTaskState(mem)+" (the runner's task state: STATE-2 writes it on every event and state change)")
	return true
}

// runningAllocs are the allocs whose newest runner belongs to the
// running incarnation and is not destroyed, sorted by ID.
func (c *storedChecker) runningAllocs(v *prop.View) []string {
	var ids []string
	for _, a := range v.Allocs() {
		ar := v.World.AllocRunner(a.ID)
		if ar == nil || ar.IsDestroyed() || !reflect.TypeOf(ar).Comparable() || slices.Contains(c.dead, ar) {
			continue
		}
		ids = append(ids, a.ID)
	}
	return ids
}

// down remembers, at the end of an incarnation, its runners (so as not
// to take them for the next one's) and which allocs have task states
// stored but no alloc entry: the next restore skips them.
func (c *storedChecker) down(v *prop.View) {
	clear(c.stale)
	for _, id := range c.runningAllocs(v) {
		ar := v.World.AllocRunner(id)
		c.dead = append(c.dead, ar)
		if a, err := v.World.PersistedAlloc(id); err != nil || a != nil {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(ar.AllocState().TaskStates)) {
			if ts, err := v.World.PersistedTaskState(id, name); err == nil && ts != nil {
				c.stale[id] = true
			}
		}
	}
}

// constructionOnly reports whether a task state has only the events of
// a task runner's construction: a task not started yet.
func constructionOnly(ts *structs.TaskState) bool {
	for _, e := range ts.Events {
		if e.Type != structs.TaskReceived {
			return false
		}
	}
	return ts.State == structs.TaskStatePending
}

// describeTaskState is a task state in a violation: its state and its
// event types in order, or "none".
func describeTaskState(ts *structs.TaskState) string {
	if ts == nil {
		return "none"
	}
	s := ts.State
	if ts.Failed {
		s += " failed"
	}
	s += " ["
	for i, e := range ts.Events {
		if i > 0 {
			s += ", "
		}
		s += e.Type
	}
	return s + "]"
}
