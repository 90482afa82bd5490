package alloc

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// updateQueue: AR-10's queue of one, driven by handing the runner
// updates directly (World.AllocRunner). "queue": a server-terminal
// update keeps the update handler busy killing; then a newer update, one
// with the same AllocModifyIndex (a newer update too: only a lower index
// is dropped, so it replaces the queued one; its ModifyIndex tells it
// apart) and an older one arrive: the older must be dropped. "closed":
// once WaitCh is closed an update must be ignored.
var updateQueue = prop.Property{
	ID:    "AR-10/update-queue",
	Specs: []string{"AR-10"},
	Doc:   "an update with a lower AllocModifyIndex than the queued one is dropped, and updates after WaitCh closed are ignored",
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		closed := d.IntRange("variant", 0, 3) == 3
		var tasks []*structs.Task
		for i, name := range []string{"a", "b"} {
			if i > 0 && !d.Bool("second task") {
				break
			}
			runFor := time.Duration(0)
			if closed {
				runFor = d.Duration(name+" run for", 5*time.Second, 30*time.Second, time.Second)
			}
			tasks = append(tasks, mkTask(name, "main", runCfg(runFor, 0, d.Duration(name+" kill after", 500*time.Millisecond, 2*time.Second, 100*time.Millisecond)), 3*time.Second))
		}
		if !closed {
			// A poststop task runs once the stop killed the main tasks,
			// so the alloc still runs when the queued update is handled.
			tasks = append(tasks, mkTask("post", "poststop", runCfg(d.Duration("post run for", 5*time.Second, 20*time.Second, time.Second), 0, 0), 3*time.Second))
		}
		typ := structs.JobTypeService
		if closed {
			typ = structs.JobTypeBatch
		}
		sc := mkScenario(d, d.Duration("duration", time.Minute, 2*time.Minute, 30*time.Second),
			mkJob("job1", typ, structs.NewRestartPolicy(0, 5*time.Minute, time.Second, structs.RestartPolicyModeFail), tasks...))
		// One run in two has the server update the alloc in place first
		// (the job registered again with task a still unscheduled: a
		// higher AllocModifyIndex, the alloc not terminal), well before
		// the checker's own updates at a quarter of the run.
		if d.Bool("in-place update") {
			sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(d.Duration("in-place update at", 2*time.Second, 10*time.Second, 100*time.Millisecond)),
				Op: scenario.OpUpdateSchedule, Job: "job1", Task: "a"})
		}
		return sc
	},
	Situations: []prop.Situation{
		{Name: "newly-server-terminal", Doc: "an update made a running alloc server-terminal: every task is killed"},
		{Name: "kill-keeps-handler-busy", Doc: "a task got Killing while the stop's handling still runs"},
		{Name: "newer-replaces-queued", Doc: "a newer update arrived while one was being handled (queued)"},
		{Name: "equal-to-queued", Doc: "an update with the queued one's AllocModifyIndex (it replaces the queued one)"},
		{Name: "older-than-queued", Doc: "an update with a lower AllocModifyIndex than the queued one (dropped)"},
		{Name: "already-server-terminal", Doc: "an update of an alloc already server-terminal (no second kill)"},
		{Name: "after-waitch-closed", Doc: "an update after WaitCh closed (ignored)"},
		{Name: "non-terminal-update", Doc: "an update of a non-terminal alloc (stored, update hooks run, passed to every TR)"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		c := &updateChecker{at: sc.Start.Add(sc.Duration.D() / 4), first: map[string]uint64{}}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.settled}
	},
}

type updateChecker struct {
	at      time.Time
	alloc   string
	ar      interfaces.AllocRunner
	stop    *structs.Allocation // the server stop handed to the runner (queue variant)
	base    uint64              // the index before the stop
	older   uint64              // the dropped update's index (queue variant)
	newest  uint64              // the queued update's index (queue variant)
	ignored uint64              // the index WaitCh-closed updates must leave (closed variant)
	done    bool
	first   map[string]uint64 // alloc → the server's first AllocModifyIndex (situations only)
}

func (c *updateChecker) settled(v *prop.View) {
	c.reachServerUpdates(v)
	if c.ar != nil {
		got := c.ar.Alloc().AllocModifyIndex
		switch {
		case c.older != 0 && got == c.older:
			v.Violatef(c.alloc, "", "Alloc().AllocModifyIndex", got, "not the older update's (dropped: a newer one was queued)")
		case c.newest != 0 && got == c.newest:
			if mi := c.ar.Alloc().ModifyIndex; mi != c.newest+1 {
				v.Violatef(c.alloc, "", fmt.Sprintf("Alloc().ModifyIndex once the update queued at AllocModifyIndex %d was handled", got), mi,
					fmt.Sprintf("%d, the ModifyIndex of the update with the same AllocModifyIndex handed after it: only a lower AllocModifyIndex is dropped, any other update replaces the queued one (AR-10)", c.newest+1))
			}
		case c.ignored != 0 && got != c.ignored:
			v.Violatef(c.alloc, "", "Alloc().AllocModifyIndex", got, c.ignored)
		case v.Phase == prop.Final && c.stop != nil && got < c.stop.AllocModifyIndex:
			v.Violatef(c.alloc, "", "Alloc().AllocModifyIndex at the end (AR-1: the latest server alloc)", got, fmt.Sprint("at least ", c.stop.AllocModifyIndex, " (the stop handed to the runner)"))
		}
	}
	if v.Phase == prop.Final {
		return
	}
	if c.stop != nil && c.older == 0 {
		c.queue(v)
		return
	}
	if c.done || v.Now().Before(c.at) {
		return
	}
	for _, a := range v.Allocs() {
		ar := v.World.AllocRunner(a.ID)
		if ar == nil {
			continue
		}
		cur := ar.Alloc()
		if cur == nil || cur.ServerTerminal() {
			continue
		}
		select {
		case <-ar.WaitCh():
			u := withIndex(cur, cur.AllocModifyIndex+10)
			u.DesiredStatus = structs.AllocDesiredStatusStop
			c.alloc, c.ar, c.ignored, c.done = a.ID, ar, cur.AllocModifyIndex, true
			v.Reach("after-waitch-closed")
			v.World.Do(func() { ar.Update(u) })
			return
		default:
		}
		if a.ClientStatus != structs.AllocClientStatusRunning || v.Task(a.ID, "a").Config["run_for"] != nil {
			continue
		}
		// First a server stop (a world action, so that what it causes
		// happens inside the world's instants, DET-1): handling it kills
		// the tasks, which take at least 500 ms to stop (queue, below).
		stop := withIndex(cur, cur.AllocModifyIndex+1)
		stop.DesiredStatus = structs.AllocDesiredStatusStop
		c.alloc, c.ar, c.stop, c.base, c.done = a.ID, ar, stop, cur.AllocModifyIndex, true
		v.Reach("newly-server-terminal")
		v.World.Do(func() { ar.Update(stop) })
		return
	}
}

// queue hands the runner a newer and then an older update while the
// stop is being handled: AR-10's handling of a server-terminal update
// kills every task, so while a task got Killing and is not dead yet the
// handler is busy and the newer update waits in the queue, where the
// older one must not replace it.
func (c *updateChecker) queue(v *prop.View) {
	a := v.Alloc(c.alloc)
	if a == nil {
		return
	}
	killing := false
	for _, ts := range a.TaskStates {
		if ts != nil && ts.State == structs.TaskStateRunning && hasEvent(ts, structs.TaskKilling) {
			killing = true
		}
	}
	if !killing {
		return
	}
	stop, ar := c.stop, c.ar
	c.older, c.newest = c.base+10, c.base+20
	same := withIndex(stop, c.newest)
	same.ModifyIndex = c.newest + 1
	for _, s := range []string{"kill-keeps-handler-busy", "newer-replaces-queued", "equal-to-queued", "older-than-queued", "already-server-terminal"} {
		v.Reach(s)
	}
	v.World.Do(func() {
		ar.Update(withIndex(stop, c.newest))
		ar.Update(same)
		ar.Update(withIndex(stop, c.older))
	})
}

// reachServerUpdates counts a server update of a non-terminal alloc: its
// AllocModifyIndex moved on while it is not server-terminal.
func (c *updateChecker) reachServerUpdates(v *prop.View) {
	for _, a := range v.Allocs() {
		sa := v.ServerAlloc(a.ID)
		if sa == nil {
			continue
		}
		first, ok := c.first[a.ID]
		switch {
		case !ok:
			c.first[a.ID] = sa.AllocModifyIndex
		case sa.AllocModifyIndex != first && !sa.ServerTerminal():
			v.Reach("non-terminal-update")
		}
	}
}

func hasEvent(ts *structs.TaskState, typ string) bool {
	for _, e := range ts.Events {
		if e.Type == typ {
			return true
		}
	}
	return false
}

func withIndex(a *structs.Allocation, idx uint64) *structs.Allocation {
	u := a.Copy()
	u.AllocModifyIndex, u.ModifyIndex = idx, max(u.ModifyIndex, idx)
	return u
}
