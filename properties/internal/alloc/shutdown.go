package alloc

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// shutdownAPI: AR-1's Shutdown, called on a running alloc's runner
// directly (World.AllocRunner) once task a runs, while task b's driver
// start may still be in flight (a StartTask that blocks) and a CSI volume
// may be mounted. Shutdown returns without waiting on the clock
// (SPEC-NOTES, as Destroy: ShutdownCh tells when it is done), the tasks
// keep running (no stop, no destroy, no Killing), no postrun runs (AR-4:
// postrun is not for a shutdown, so nothing is unmounted) and ShutdownCh
// closes (unless a driver call was in flight: without a context, it is
// waited for).
var shutdownAPI = prop.Property{
	ID:    "AR-1/shutdown-api",
	Specs: []string{"AR-1", "AR-4"},
	Doc:   "Shutdown returns at once, leaves every task running (no stop, no Killing), runs no postrun (no CSI unmount) and closes ShutdownCh",
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		a := mkTask("a", "main", runCfg(0, 0, d.Duration("a kill after", 100*time.Millisecond, 2*time.Second, 100*time.Millisecond)), 3*time.Second)
		tasks := []*structs.Task{a}
		if d.Bool("b") {
			// b's StartTask blocks, one run in two for an hour: still in
			// flight at the call (the first instant after 10 s).
			cfg := runCfg(0, 0, 0)
			cfg["start_block_for"] = d.Duration("b start block", time.Second, 40*time.Second, time.Second).String()
			if d.Bool("b blocks for long") {
				cfg["start_block_for"] = "1h"
			}
			tasks = append(tasks, mkTask("b", "main", cfg, 3*time.Second))
		}
		j := mkJob("job1", structs.JobTypeService, structs.NewRestartPolicy(2, 5*time.Minute, time.Second, structs.RestartPolicyModeFail), tasks...)
		if d.Bool("csi") {
			tg := j.TaskGroups[0]
			tg.Volumes = map[string]*structs.VolumeRequest{"v1": {Name: "v1", Type: structs.VolumeTypeCSI, Source: "vol-v1"}}
			a.VolumeMounts = []*structs.VolumeMount{{Volume: "v1", Destination: "/v1"}}
		}
		return mkScenario(d, d.Duration("duration", time.Minute, 2*time.Minute, 30*time.Second), j)
	},
	Liveness: 30 * time.Second,
	Situations: []prop.Situation{
		{Name: "shutdown", Doc: "Shutdown of a running alloc"},
		{Name: "start-in-flight", Doc: "a task's driver StartTask was in flight at the Shutdown"},
		{Name: "csi-mounted", Doc: "the alloc had a CSI volume mounted at the Shutdown"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		c := &shutdownChecker{at: sc.Start.Add(10 * time.Second)}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

type shutdownChecker struct {
	at       time.Time
	alloc    string
	ar       interfaces.AllocRunner
	calledAt time.Time
	inFlight bool // a driver start was in flight at the call: Shutdown waits for it (it has no context)
}

func (c *shutdownChecker) settled(v *prop.View) {
	if c.ar != nil {
		c.check(v)
		return
	}
	if v.Now().Before(c.at) {
		return
	}
	for _, a := range v.Allocs() {
		ar := v.World.AllocRunner(a.ID)
		if ar == nil || a.TaskStates["a"] == nil || a.TaskStates["a"].State != structs.TaskStateRunning {
			continue
		}
		c.alloc, c.ar, c.calledAt = a.ID, ar, v.Now()
		v.Reach("shutdown")
		if ts := a.TaskStates["b"]; ts != nil && ts.State == structs.TaskStatePending {
			v.Reach("start-in-flight")
			c.inFlight = true
		}
		if c.mounted(v) {
			v.Reach("csi-mounted")
		}
		var returned time.Time
		v.World.Do(func() {
			ar.Shutdown()
			returned = v.World.Now()
		})
		if returned.After(c.calledAt) {
			v.Violatef(c.alloc, "", "Shutdown() of a running alloc returned after", returned.Sub(c.calledAt),
				"0s: it returns at once and ShutdownCh tells when it is done (AR-1, SPEC-NOTES)")
		}
		return
	}
}

// mounted reports whether a CSI mount of the alloc returned ok before the
// call.
func (c *shutdownChecker) mounted(v *prop.View) bool {
	for _, p := range v.World.PortCalls() {
		if p.Alloc == c.alloc && p.Op == sim.PortCSIMount && p.Returned && p.Err == "" {
			return true
		}
	}
	return false
}

// check: after the call, the alloc's tasks are left alone and no postrun
// unmounts its volumes.
func (c *shutdownChecker) check(v *prop.View) {
	for _, r := range v.New {
		if r.Alloc != c.alloc {
			continue
		}
		switch {
		case r.Kind == trace.KindDriver && (drivers.Op(r.Op) == drivers.OpStop || drivers.Op(r.Op) == drivers.OpDestroy):
			v.Violatef(c.alloc, r.Task, "driver "+r.Op+" after Shutdown", r.Op, "none: a shut-down runner leaves its tasks running (AR-1)")
			return
		case r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskKilling:
			v.Violatef(c.alloc, r.Task, "event after Shutdown", r.Msg, "none: a shutdown kills nothing (AR-1)")
			return
		}
	}
	for _, p := range v.World.PortCalls() {
		if p.Alloc == c.alloc && p.Op == sim.PortCSIUnmount && !p.Invoke.Before(c.calledAt) {
			v.Violatef(c.alloc, "", fmt.Sprintf("CSI volume %q unmounted after Shutdown", p.Task), "unmounted",
				"mounted: postrun (csi_hook's unmount) does not run on shutdown (AR-4)")
			return
		}
	}
}

func (c *shutdownChecker) final(v *prop.View) {
	if c.ar == nil {
		return
	}
	c.check(v)
	if c.inFlight {
		return
	}
	select {
	case <-c.ar.ShutdownCh():
	default:
		v.Violatef(c.alloc, "", fmt.Sprintf("ShutdownCh at the run's end, Shutdown called at %s", c.calledAt.Format(time.RFC3339)), "open",
			"closed: Shutdown closes ShutdownCh once it is done (AR-1)")
	}
}
