package alloc

import (
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/scenario"
)

// runAfterStop: AR-1's Run called after Shutdown or Destroy, as a client
// whose goroutine reaches Run late does (the reference client calls Run
// in a goroutine of its own, which may first run after the client shut
// the runner down). A spare runner (World.SpareRunner: the factory under
// test, the Config of a running alloc's runner under a new alloc ID, on
// ports of its own) is shut down or destroyed before it ever ran; once
// ShutdownCh or DestroyCh closed, WaitCh is closed too, and Run returns
// at once having done nothing: it pushes no alloc (a run's first act).
// SPEC-NOTES.
var runAfterStop = prop.Property{
	ID:    "AR-1/run-after-stop",
	Specs: []string{"AR-1"},
	Doc:   "a Run after Shutdown or Destroy returns at once and does nothing (no push); WaitCh is closed once the Shutdown or Destroy is done",
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		a := mkTask("a", "main", runCfg(0, 0, d.Duration("a kill after", 100*time.Millisecond, 2*time.Second, 100*time.Millisecond)), 3*time.Second)
		j := mkJob("job1", structs.JobTypeService, structs.NewRestartPolicy(2, 5*time.Minute, time.Second, structs.RestartPolicyModeFail), a)
		j.Meta = map[string]string{metaStopCall: prop.Pick(d, "call", []string{"shutdown", "destroy"})}
		return mkScenario(d, d.Duration("duration", time.Minute, 2*time.Minute, 30*time.Second), j)
	},
	Situations: []prop.Situation{
		{Name: "run-after-shutdown", Doc: "Run of a runner shut down before it ran"},
		{Name: "run-after-destroy", Doc: "Run of a runner destroyed before it ran"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		c := &runAfterChecker{at: sc.Start.Add(10 * time.Second), call: sc.Jobs[0].Job.Meta[metaStopCall]}
		return prop.Checks{OnSettled: c.settled}
	},
}

// metaStopCall is the job meta key naming the call before Run (shutdown
// or destroy), so that a replay prints it.
const metaStopCall = "allocsim_stop_call"

type runAfterChecker struct {
	at   time.Time
	call string
	done bool
}

func (c *runAfterChecker) settled(v *prop.View) {
	if c.done || v.Now().Before(c.at) {
		return
	}
	for _, a := range v.Allocs() {
		if v.World.AllocRunner(a.ID) == nil {
			continue
		}
		c.done = true
		spare, err := v.World.SpareRunner(a.ID)
		if err != nil {
			v.Violatef(a.ID, "", "a runner built with the Config of this alloc's runner under a new ID", err.Error(), "built (AR-3)")
			return
		}
		c.check(v, a.ID, spare)
		return
	}
}

func (c *runAfterChecker) check(v *prop.View, id string, spare *sim.Spare) {
	ar := spare.Runner
	v.World.Do(func() {
		if c.call == "shutdown" {
			ar.Shutdown()
		} else {
			ar.Destroy()
		}
	})
	done := ar.ShutdownCh()
	if c.call == "destroy" {
		done = ar.DestroyCh()
	}
	if !prop.Closed(done) {
		v.Violatef(id, "", c.call+" of a runner that never ran", "not done at the next settled instant", "done: nothing ran, nothing to wait for (AR-1)")
		return
	}
	if !prop.Closed(ar.WaitCh()) {
		v.Violatef(id, "", "WaitCh after "+c.call+" of a runner that never ran", "open", "closed: Run will do nothing (AR-1)")
		return
	}
	pushes := spare.Pushes()
	v.Reach("run-after-" + c.call)
	v.World.Do(ar.Run)
	if n := spare.Pushes() - pushes; n > 0 {
		v.Violatef(id, "", "allocs pushed by Run after "+c.call, n, "0: a Run after Shutdown or Destroy returns at once and does nothing (AR-1)")
	}
}
