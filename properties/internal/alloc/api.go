package alloc

import (
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// runnerAPI: AR-1's calls a client makes on a running alloc's runner,
// handed to it directly (World.AllocRunner) once every task runs. First a
// listener is opened and closed (AR-1 Listener: Close ends the
// subscription, and the runner's later pushes go on), then one of:
//
//   - restart-task, restart-running, restart-all: RestartTask of one
//     task, RestartRunning, RestartAll with a nil event; exactly the
//     selected tasks get `Restart Signaled` (every task runs, so
//     RestartRunning and RestartAll select them all);
//   - destroy, destroy-then-shutdown: Destroy (then Shutdown, which must be
//     ignored); Destroy returns without waiting for the kill
//     (SPEC-NOTES), DestroyCh closes, and when it does every task is
//     dead (killed: Destroy kills the tasks, a Shutdown after it does not
//     abandon the kill).
var runnerAPI = prop.Property{
	ID:    "AR-1/runner-api",
	Specs: []string{"AR-1"},
	Doc:   "RestartTask, RestartRunning and RestartAll give exactly the selected tasks Restart Signaled; Destroy returns at once, kills every task and closes DestroyCh, a Shutdown after it being ignored; a closed listener ends its subscription",
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		var tasks []*structs.Task
		for i, name := range []string{"a", "b"} {
			if i > 0 && !d.Bool("second task") {
				break
			}
			tasks = append(tasks, mkTask(name, "main", runCfg(0, 0, d.Duration(name+" kill after", 100*time.Millisecond, 2*time.Second, 100*time.Millisecond)), 3*time.Second))
		}
		return mkScenario(d, d.Duration("duration", time.Minute, 2*time.Minute, 30*time.Second),
			mkJob("job1", structs.JobTypeService, structs.NewRestartPolicy(2, 5*time.Minute, time.Second, structs.RestartPolicyModeFail), tasks...))
	},
	// The call may come at the run's last instant: the kill it causes
	// plays out in the liveness phase.
	Liveness: 30 * time.Second,
	Situations: []prop.Situation{
		{Name: "listener-closed", Doc: "a listener was opened and closed before the runner pushed again"},
		{Name: "restart-task", Doc: "RestartTask of one running task"},
		{Name: "restart-running", Doc: "RestartRunning with every task running"},
		{Name: "restart-all", Doc: "RestartAll with every task running"},
		{Name: "destroy", Doc: "Destroy of a running alloc"},
		{Name: "destroy-then-shutdown", Doc: "Shutdown right after Destroy (ignored)"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		c := &apiChecker{at: sc.Start.Add(10 * time.Second)}
		c.variant = []string{"restart-task", "restart-running", "restart-all", "destroy", "destroy-then-shutdown"}[sc.Seed%5]
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

type apiChecker struct {
	at       time.Time
	variant  string
	alloc    string
	ar       interfaces.AllocRunner
	selected []string // tasks that must get Restart Signaled
	checked  bool     // the restart was checked
	all      []string
	calledAt time.Time
	returned time.Time // when Destroy returned
	closed   bool      // DestroyCh seen closed
	err      error
}

func (c *apiChecker) settled(v *prop.View) {
	if c.ar != nil {
		c.check(v)
		return
	}
	if v.Now().Before(c.at) {
		return
	}
	for _, a := range v.Allocs() {
		ar := v.World.AllocRunner(a.ID)
		if ar == nil || a.ClientStatus != structs.AllocClientStatusRunning {
			continue
		}
		var names []string
		running := true
		for name, ts := range a.TaskStates {
			names = append(names, name)
			running = running && ts != nil && ts.State == structs.TaskStateRunning
		}
		if !running {
			continue
		}
		slices.Sort(names)
		c.alloc, c.ar, c.all, c.calledAt = a.ID, ar, names, v.Now()
		v.Reach("listener-closed")
		v.Reach(c.variant)
		v.World.Do(func() {
			l := ar.Listener()
			l.Close()
			switch c.variant {
			case "restart-task":
				c.selected = names[:1]
				c.err = ar.RestartTask(names[0], nil)
			case "restart-running":
				c.selected = names
				c.err = ar.RestartRunning(nil)
			case "restart-all":
				c.selected = names
				c.err = ar.RestartAll(nil)
			default:
				ar.Destroy()
				c.returned = v.World.Now()
				if c.variant == "destroy-then-shutdown" {
					ar.Shutdown()
				}
			}
		})
		if c.err != nil {
			v.Violatef(c.alloc, "", c.variant+" of a running alloc", c.err, "nil (AR-1)")
		}
		if c.returned.After(c.calledAt) {
			v.Violatef(c.alloc, "", "Destroy() of a running alloc returned after", c.returned.Sub(c.calledAt),
				"0s: it returns at once and DestroyCh tells when it is done (AR-1, SPEC-NOTES)")
		}
		return
	}
}

// check compares the runner's state with what the call asks for.
func (c *apiChecker) check(v *prop.View) {
	if c.selected != nil {
		if c.checked {
			return
		}
		a := v.Alloc(c.alloc)
		if a == nil {
			return
		}
		for _, name := range c.all {
			got := countEvents(a.TaskStates[name], structs.TaskRestartSignal)
			want := slices.Contains(c.selected, name)
			if got == 0 && want || got > 0 && !want {
				v.Violatef(c.alloc, name, fmt.Sprintf("%q events after %s (tasks %q selected)", structs.TaskRestartSignal, c.variant, c.selected), got,
					map[bool]string{true: "1 or more: the call restarts the task (AR-1)", false: "0: the call does not select the task (AR-1)"}[want])
				return
			}
		}
		c.checked = true // once, after the call's instant
		return
	}
	if c.closed || c.returned.IsZero() {
		return
	}
	select {
	case <-c.ar.DestroyCh():
	default:
		return
	}
	c.closed = true
	a := c.ar.Alloc()
	for _, name := range c.all {
		if ts := a.TaskStates[name]; ts == nil || ts.State != structs.TaskStateDead {
			v.Violatef(c.alloc, name, "task state when DestroyCh closed ("+c.variant+")", stateOf(ts),
				"dead: Destroy kills every task before it closes DestroyCh, and a Shutdown after Destroy is ignored (AR-1)")
			return
		}
	}
}

func (c *apiChecker) final(v *prop.View) {
	if c.ar == nil || c.returned.IsZero() || c.closed {
		return
	}
	c.check(v)
	if !c.closed {
		v.Violatef(c.alloc, "", fmt.Sprintf("DestroyCh at the run's end, Destroy called at %s", c.calledAt.Format(time.RFC3339)), "open",
			"closed: Destroy closes DestroyCh once it is done (AR-1)")
	}
}

func countEvents(ts *structs.TaskState, typ string) int {
	n := 0
	if ts != nil {
		for _, e := range ts.Events {
			if e.Type == typ {
				n++
			}
		}
	}
	return n
}

func stateOf(ts *structs.TaskState) string {
	if ts == nil {
		return "none"
	}
	return ts.State
}
