package restore

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// drawCrashesStopped is drawCrashes with, one run in three, the job
// stopped while the client is down after its first crash: the restored
// client learns of the stop from its first alloc pull, the one that
// contacts the servers, which also releases the tasks whose recovery
// failed (STATE-4).
func drawCrashesStopped(d *prop.Drawer, env prop.Env) scenario.Scenario {
	sc := drawCrashes(d, env)
	crashes := sc.Faults.Of(faults.ClientCrash)
	if len(crashes) == 0 || d.IntRange("stop while down", 0, 2) != 0 {
		return sc
	}
	c := crashes[0]
	at := c.At + d.Duration("stop into downtime", 0, c.For-time.Millisecond, 100*time.Millisecond)
	sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(at), Op: scenario.OpStopJob, Job: sc.Jobs[0].Job.ID})
	return sc
}

// stoppedBeforeRestart checks that no task starts once a restored client
// has contacted the servers, when the job was stopped before the client
// restarted: the pull that contacts them hands every runner the
// server-terminal alloc (AR-10), a task waiting for the servers then
// holds before prestart until the kill (AR-5: no prestart for terminal
// allocs; AR-6 re-checks before the driver start), and nothing else of a
// stopped alloc starts (the scenarios have no poststop task). Without it
// a task runner that does not adopt the alloc it is handed starts the
// task of a stopped alloc, only to see it killed.
type stoppedBeforeRestart struct {
	stopAt  time.Time // the job stop, zero for none
	started time.Time // the running incarnation's start
	inc     int
	waiting map[string]bool // "alloc/task" that failed restoring in this incarnation
}

func newStoppedBeforeRestart(sc scenario.Scenario) *stoppedBeforeRestart {
	c := &stoppedBeforeRestart{waiting: map[string]bool{}}
	for _, call := range sc.Calls {
		if call.Op == scenario.OpStopJob {
			c.stopAt = sc.Start.Add(call.At.D())
			break
		}
	}
	return c
}

func (c *stoppedBeforeRestart) settled(v *prop.View) {
	if c.stopAt.IsZero() {
		return
	}
	for _, r := range v.New {
		if r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart {
			c.started = r.At
			c.inc, _ = v.World.Incarnation()
			clear(c.waiting)
		}
		if r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskRestoreFailed {
			c.waiting[r.Alloc+"/"+r.Task] = true
		}
	}
	if c.inc < 2 || !c.stopAt.Before(c.started) {
		return
	}
	contact, ok := v.World.FirstContact(c.inc)
	if !ok {
		return
	}
	for _, r := range v.New {
		// A start at the contact's own instant may have been under way
		// (its driver call held) when the runner was handed the stopped
		// alloc: AR-6's re-check came before it, and the kill then stops
		// the task (seed 1202). Not so for a task that failed restoring:
		// it waits for that contact (STATE-4), which hands it the stopped
		// alloc. Any later start is the runner's.
		if r.Kind == trace.KindDriver && drivers.Op(r.Op) == drivers.OpStart && !r.At.Before(contact.At) &&
			(r.At.After(contact.At) || c.waiting[r.Alloc+"/"+r.Task]) {
			v.Violatef(r.Alloc, r.Task, fmt.Sprintf("driver StartTask after client incarnation %d contacted the servers, the job stopped at %s while it was down",
				c.inc, prop.When(c.stopAt, nil)), "StartTask",
				"none: the first pull hands the runner the stopped alloc, and a task of a server-terminal alloc does not start (AR-5, AR-6, AR-10)")
			v.Reach("stopped-while-down")
			return
		}
	}
	v.Reach("stopped-while-down")
}

// checkNoRewrite: STATE-2 writes a task's task_state on every event or
// state change, and a restore loads it (STATE-3: no second Received), so
// a task that recovered its handle at the restart, and got no event and
// no state change then, has no task_state written at that instant: the
// restored state is not rewritten (SPEC-NOTES). Without it a runner that
// writes every restored task state back passes: the bytes are the same.
func checkNoRewrite(v *prop.View) {
	recovered := map[key]bool{}
	written := map[key]bool{}
	changed := map[key]bool{}
	restart := false
	for _, r := range v.New {
		k := key{Alloc: r.Alloc, Task: r.Task}
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			restart = true
		case r.Kind == trace.KindDriver && drivers.Op(r.Op) == drivers.OpRecover && r.Msg == "ok":
			recovered[k] = true
		case r.Kind == trace.KindStateDB && r.Op == "put task_state":
			written[k] = true
		case r.Kind == trace.KindTaskEvent || r.Kind == trace.KindTask:
			changed[k] = true
		}
	}
	if n, _ := v.World.Incarnation(); !restart || n < 2 {
		return
	}
	for _, k := range slices.SortedFunc(maps.Keys(recovered), func(a, b key) int { return strings.Compare(a.Alloc+"/"+a.Task, b.Alloc+"/"+b.Task) }) {
		if written[k] && !changed[k] {
			v.Violatef(k.Alloc, k.Task, "task_state written at the restore of a task that recovered its handle, with no event or state change", "written",
				"not written: a restored task state is loaded, not rewritten; task_state is written on an event or a state change (STATE-2, STATE-3)")
			return
		}
		if !changed[k] {
			v.Reach("recovered-not-rewritten")
		}
	}
}
