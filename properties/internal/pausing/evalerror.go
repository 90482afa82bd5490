package pausing

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// badZone is a zone no tz database has: evaluating a schedule in it fails
// (SCHED-8's first error).
const badZone = "Mars/Olympus"

// evalError: PAUSE-9 through the update path. Admission rejects a schedule
// that cannot be evaluated (SCHED-1), so the suite hands the runner an
// in-place update (World.Do, as AR-10's property does) whose schedule's
// Timezone is unknown, at a drawn instant: the task may be running, or
// waiting in the gate. A live task is stopped as in PAUSE-5 without
// Pausing or Restarting; then `Task hook failed` (Message `pause: <err>`)
// and `Not Restarting`: the task ends dead and failed, and never starts
// again.
var evalError = prop.Property{
	ID:    "PAUSE-9/runtime-evaluation-error",
	Specs: []string{"PAUSE-9", "PAUSE-7", "PAUSE-5"},
	Doc:   "a schedule that cannot be evaluated at runtime stops a live task without Pausing or Restarting, then Task hook failed (pause: <err>) and Not Restarting: dead, failed",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		mins := d.IntRange("run min", 10, 30)
		sc := windowed(d, mins, 0).Build()
		// The update's instant, as data the checker reads back (and a
		// replay prints).
		// Half a minute off the window boundaries (whole minutes), so no
		// pause stop is in flight at the update; a get_pause call there
		// gives the world an instant to settle on, where the checker
		// hands the update over.
		at := time.Duration(d.IntRange("update min", 1, mins-2))*time.Minute + 30*time.Second
		sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(at), Op: scenario.OpGetPause, Alloc: sched.AllocName, Task: work})
		return sc
	},
	Situations: []prop.Situation{
		{Name: "live-stopped", Doc: "the task was running at the update: stopped, Terminated, Task hook failed, Not Restarting"},
		{Name: "gated-failed", Doc: "the task waited in the gate at the update: Task hook failed, Not Restarting"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		c := &evalErrorChecker{}
		for _, call := range sc.Calls {
			if call.Op == scenario.OpGetPause {
				c.at = sc.Start.Add(call.At.D())
			}
		}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

type evalErrorChecker struct {
	at    time.Time
	done  bool
	live  bool
	alloc string
	seen  []string // the work task's events since the update
}

func (c *evalErrorChecker) want() []string {
	w := []string{structs.TaskHookFailed, structs.TaskNotRestarting}
	if c.live {
		w = append([]string{structs.TaskTerminated}, w...)
	}
	return w
}

func (c *evalErrorChecker) settled(v *prop.View) {
	if !c.done {
		c.update(v)
		return
	}
	for _, r := range v.New {
		if r.Kind != trace.KindTaskEvent || r.Alloc != c.alloc || r.Task != work {
			continue
		}
		ev := oracle.EventOf(r)
		switch ev.Type {
		case structs.TaskHookFailed:
			if want := pause.HookName + ": " + schedule.MsgInvalidTimezone; !strings.HasPrefix(ev.Message, want) {
				v.Violatef(c.alloc, work, "Task hook failed Message (PAUSE-9)", fmt.Sprintf("%q", ev.Message), fmt.Sprintf("%q…", want))
				return
			}
		case structs.TaskPausing, structs.TaskRunning, structs.TaskRestarting, structs.TaskTerminated,
			structs.TaskNotRestarting, structs.TaskStarted, structs.TaskKilling:
		default:
			continue
		}
		c.seen = append(c.seen, ev.Type)
		want := c.want()
		if n := len(c.seen); n > len(want) || c.seen[n-1] != want[n-1] {
			v.Violatef(c.alloc, work, "events after an update whose schedule cannot be evaluated (PAUSE-9)", strings.Join(c.seen, ", "), strings.Join(want, ", ")+", then nothing")
			return
		}
	}
}

// update hands the runner the bad schedule once the drawn instant came.
func (c *evalErrorChecker) update(v *prop.View) {
	if c.at.IsZero() || v.Now().Before(c.at) {
		return
	}
	allocs := v.Allocs()
	if len(allocs) != 1 || allocs[0].TaskStates[work] == nil {
		return
	}
	a := allocs[0]
	ar := v.World.AllocRunner(a.ID)
	if ar == nil {
		return
	}
	cur := ar.Alloc()
	if cur == nil || cur.ServerTerminal() {
		return
	}
	u := cur.Copy()
	u.AllocModifyIndex++
	u.ModifyIndex = max(u.ModifyIndex, u.AllocModifyIndex)
	t := u.LookupTaskGroup().LookupTask(work)
	if t == nil || t.Schedule == nil || t.Schedule.Cron == nil {
		return
	}
	t.Schedule.Cron.Timezone = badZone
	c.done, c.alloc = true, a.ID
	c.live = a.TaskStates[work].State == structs.TaskStateRunning
	if c.live {
		v.Reach("live-stopped")
	} else {
		v.Reach("gated-failed")
	}
	v.World.Do(func() { ar.Update(u) })
}

func (c *evalErrorChecker) final(v *prop.View) {
	if !c.done {
		return
	}
	if want := c.want(); len(c.seen) < len(want) {
		v.Violatef(c.alloc, work, "events after an update whose schedule cannot be evaluated (PAUSE-9)", cmp.Or(strings.Join(c.seen, ", "), "none"), strings.Join(want, ", "))
		return
	}
	if a := v.Alloc(c.alloc); a != nil {
		if s := a.TaskStates[work]; s != nil && (s.State != structs.TaskStateDead || !s.Failed) {
			v.Violatef(c.alloc, work, "task state after PAUSE-9's Not Restarting", fmt.Sprintf("%s failed=%t", s.State, s.Failed), "dead failed=true")
		}
	}
}
