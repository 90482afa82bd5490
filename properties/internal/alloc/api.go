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

// destroyAPI: AR-1's Destroy and Listener, called on a running alloc's
// runner directly (World.AllocRunner) once every task runs (the restart
// calls are AR-1/restart-api's). First a listener is opened and closed
// (Close ends the subscription, and the runner's later pushes go on),
// then Destroy, alone or followed by Shutdown, which must be ignored:
// Destroy returns without waiting for the kill (SPEC-NOTES), DestroyCh
// closes, and when it does every task is dead (Destroy kills the tasks,
// a Shutdown after it does not abandon the kill).
var destroyAPI = prop.Property{
	ID:    "AR-1/destroy-api",
	Specs: []string{"AR-1"},
	Doc:   "Destroy returns at once, kills every task and closes DestroyCh, a Shutdown after it being ignored; a closed listener ends its subscription",
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
		{Name: "destroy", Doc: "Destroy of a running alloc"},
		{Name: "destroy-then-shutdown", Doc: "Shutdown right after Destroy (ignored)"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		c := &apiChecker{at: sc.Start.Add(10 * time.Second)}
		c.variant = []string{"destroy", "destroy-then-shutdown"}[sc.Seed%2]
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

type apiChecker struct {
	at       time.Time
	variant  string
	alloc    string
	ar       interfaces.AllocRunner
	all      []string
	calledAt time.Time
	returned time.Time // when Destroy returned
	closed   bool      // DestroyCh seen closed
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
			ar.Destroy()
			c.returned = v.World.Now()
			if c.variant == "destroy-then-shutdown" {
				ar.Shutdown()
			}
		})
		if c.returned.After(c.calledAt) {
			v.Violatef(c.alloc, "", "Destroy() of a running alloc returned after", c.returned.Sub(c.calledAt),
				"0s: it returns at once and DestroyCh tells when it is done (AR-1, SPEC-NOTES)")
		}
		return
	}
}

// check: once DestroyCh closed, every task is dead.
func (c *apiChecker) check(v *prop.View) {
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

func stateOf(ts *structs.TaskState) string {
	if ts == nil {
		return "none"
	}
	return ts.State
}
