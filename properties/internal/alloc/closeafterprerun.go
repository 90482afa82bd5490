package alloc

import (
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/scenario"
)

// closeAfterPrerun: AR-1's Shutdown or Destroy, called on a runner
// directly (World.AllocRunner) while its prerun is inside the alloc_dir
// hook's Build, a port call with no context that takes a drawn latency
// (scenario.HookLatency). Run returns only after that call returned (it
// closes WaitCh on return), and ShutdownCh or DestroyCh close once the
// runner is done: none of the three may be closed while the Build is in
// flight. SPEC-NOTES.
var closeAfterPrerun = prop.Property{
	ID:    "AR-1/close-after-prerun",
	Specs: []string{"AR-1", "AR-4"},
	Doc:   "a Shutdown or Destroy during a prerun hook's call: WaitCh, ShutdownCh and DestroyCh close only after the call returned (Run returns after its prerun)",
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		a := mkTask("a", "main", runCfg(0, 0, d.Duration("a kill after", 100*time.Millisecond, 2*time.Second, 100*time.Millisecond)), 3*time.Second)
		j := mkJob("job1", structs.JobTypeService, structs.NewRestartPolicy(2, 5*time.Minute, time.Second, structs.RestartPolicyModeFail), a)
		j.Meta = map[string]string{metaCloseCall: prop.Pick(d, "call", []string{"shutdown", "destroy"})}
		sc := mkScenario(d, d.Duration("duration", time.Minute, 2*time.Minute, 30*time.Second), j)
		sc.HookLatency = &scenario.HookLatency{AllocDirBuild: scenario.Duration(d.Duration("alloc dir build", 5*time.Second, 30*time.Second, time.Second))}
		return sc
	},
	Liveness: 30 * time.Second,
	Situations: []prop.Situation{
		{Name: "shutdown-during-prerun", Doc: "Shutdown while the alloc_dir Build was in flight"},
		{Name: "destroy-during-prerun", Doc: "Destroy while the alloc_dir Build was in flight"},
		{Name: "closed-after-build", Doc: "the runner's channels closed after the Build returned"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		c := &closeChecker{variant: sc.Jobs[0].Job.Meta[metaCloseCall]}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.settled}
	},
}

// metaCloseCall is the job meta key naming the call (shutdown or
// destroy), so that a replay prints it.
const metaCloseCall = "allocsim_close_call"

type closeChecker struct {
	variant string
	alloc   string
	ar      interfaces.AllocRunner
	done    map[string]bool // channels seen closed
}

func (c *closeChecker) settled(v *prop.View) {
	if c.ar == nil {
		c.call(v)
		return
	}
	chans := []struct {
		name string
		ch   <-chan struct{}
	}{{"WaitCh", c.ar.WaitCh()}, {"ShutdownCh", c.ar.ShutdownCh()}, {"DestroyCh", c.ar.DestroyCh()}}
	for _, ch := range chans {
		if c.done[ch.name] || !prop.Closed(ch.ch) {
			continue
		}
		c.done[ch.name] = true
		if p, ok := c.buildInFlight(v); ok {
			v.Violatef(c.alloc, "", ch.name+" after "+c.variant+" ("+p.Op+" invoked at "+p.Invoke.Format(time.RFC3339)+")", "closed while the call is in flight",
				"closed only once it returned: Run returns after its prerun, and "+c.variant+" is done only then (AR-1)")
			return
		}
		v.Reach("closed-after-build")
	}
}

// call makes the call at the first instant an alloc's Build is in flight.
func (c *closeChecker) call(v *prop.View) {
	for _, a := range v.Allocs() {
		ar := v.World.AllocRunner(a.ID)
		if ar == nil {
			continue
		}
		c.alloc = a.ID
		if _, ok := c.buildInFlight(v); !ok {
			c.alloc = ""
			continue
		}
		c.ar, c.done = ar, map[string]bool{}
		v.Reach(c.variant + "-during-prerun")
		v.World.Do(func() {
			if c.variant == "shutdown" {
				ar.Shutdown()
			} else {
				ar.Destroy()
			}
		})
		return
	}
}

// buildInFlight returns the alloc's alloc_dir Build of the live
// incarnation that has not returned, if any.
func (c *closeChecker) buildInFlight(v *prop.View) (sim.PortCall, bool) {
	inc, _ := v.World.Incarnation()
	for _, p := range v.World.PortCalls() {
		if p.Alloc == c.alloc && p.Op == sim.PortAllocDirBuild && p.Incarnation == inc && !p.Returned {
			return p, true
		}
	}
	return sim.PortCall{}, false
}
