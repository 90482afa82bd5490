package telem

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// Properties lists the package's properties in suite order.
func Properties() []prop.Property {
	return []prop.Property{labels, oneEmission, elapsed, disable}
}

// telemFaults: everything but state DB write failures, whose failed
// hook-state writes make a prestart pass stop between hooks without a
// port call to see it by (STATE-2).
var telemFaults = []faults.Class{faults.DriverStartDelay, faults.DriverStartFailure, faults.DriverExit,
	faults.DriverStopHang, faults.ClientCrash, faults.DriverRecoverFailure, faults.CSIMountLatency,
	faults.CSIMountFailure, faults.RPCLatency, faults.RPCPartition, faults.ClockJump}

// draw draws a run whose jobs each get a namespace of their own (or the
// default one) and whose alloc and task dir Builds take virtual time of at
// least minLatency (with nanoseconds, TELEM-4).
func draw(d *prop.Drawer, env prop.Env, minLatency time.Duration, disable bool) scenario.Scenario {
	sc := scenario.DrawWith(d, scenario.Options{MinDuration: 2 * time.Minute, MaxDuration: 8 * time.Minute,
		MaxCalls: 2, Exclude: env.Exclude()})
	for _, j := range sc.Jobs {
		if d.Bool("own namespace") {
			j.Job.Namespace = "ns-" + j.Job.ID
		}
	}
	lat := func(label string) scenario.Duration {
		us := d.IntRange(label+" us", int(minLatency/time.Microsecond), 3_000_000)
		return scenario.Duration(time.Duration(us)*time.Microsecond + time.Duration(d.IntRange(label+" ns", 0, 999)))
	}
	sc.HookLatency = &scenario.HookLatency{AllocDirBuild: lat("alloc dir build"), TaskDirBuild: lat("task dir build")}
	sc.DisableAllocationHookMetrics = disable
	// One node in three has a class (TELEM-2: node_class is the class,
	// "none" only when empty).
	if d.IntRange("node class", 0, 2) == 0 {
		sc.NodeClass = prop.Pick(d, "node class name", []string{"batch-large", "gpu"})
	}
	return sc
}

// final runs check once, at the end of the run.
func final(check func(v *prop.View, o observed) bool) func(scenario.Scenario) prop.Checker {
	return func(scenario.Scenario) prop.Checker {
		return prop.Checks{OnFinal: func(v *prop.View) { check(v, observe(v.World)) }}
	}
}

var labels = prop.Property{
	ID:         "TELEM-2/exact-labels",
	Specs:      []string{"TELEM-2", "TELEM-1"},
	Doc:        "every hook metric carries exactly node_id, datacenter, node_class (none if the node has none), node_pool, the alloc's namespace and hook_name, in order",
	Faults:     telemFaults,
	Draw:       func(d *prop.Drawer, env prop.Env) scenario.Scenario { return draw(d, env, 0, false) },
	Situations: labelSituations,
	New: final(func(v *prop.View, o observed) bool {
		reachLabels(v, o)
		base := telemetry.BaseLabels{NodeID: v.World.NodeID(), Datacenter: sim.Datacenter, NodeClass: v.World.NodeClass(), NodePool: sim.NodePool}
		for _, e := range o.ems {
			order := telemetry.PrestartHookOrder()
			if e.kind == telemetry.AllocHook {
				order = telemetry.PrerunHookOrder()
			}
			if !e.known || !slices.Contains(order, e.hook) {
				v.Violatef("", "", "hook metric", e.String(), "a TELEM-1 name with a hook_name of its kind")
				return true
			}
			want := fmt.Sprint(telemetry.HookLabels(base, e.ns, e.hook))
			got := make([]telemetry.Label, 0, len(e.Labels))
			for _, l := range e.Labels {
				got = append(got, telemetry.Label{Name: l.Name, Value: l.Value})
			}
			if fmt.Sprint(got) != want {
				v.Violatef("", "", "labels of "+e.Name+" at "+e.At.UTC().Format(time.RFC3339Nano), fmt.Sprint(got), want)
				return true
			}
		}
		// The namespace is the alloc's: dir hooks emit in the namespace
		// of the alloc whose Build returned then.
		for _, h := range [][2]string{{sim.PortAllocDirBuild, telemetry.HookAllocDir}, {sim.PortTaskDirBuild, telemetry.HookTaskDir}} {
			want, _ := o.dirHooks(h[0], h[1])
			if compare(v, o, "namespace label of "+h[1]+" (the Build's alloc's)", anyOutcome(want), anyOutcome(o.counters(h[1]))) {
				return true
			}
		}
		return false
	}),
}

func anyOutcome(m multiset) multiset {
	out := multiset{}
	for s, n := range m {
		s.metric = "run"
		out[s] += n
	}
	return out
}

var oneEmission = prop.Property{
	ID:    "TELEM-3/one-emission-per-hook-execution",
	Specs: []string{"TELEM-3", "TELEM-1", "AR-4", "AR-5", "STATE-4"},
	Doc: "every prerun and prestart hook execution emits one elapsed sample and one success-or-failed counter; " +
		"the first failure stops the pass, Done hooks and allocs that should not run emit nothing",
	Faults: telemFaults,
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := draw(d, env, 0, false)
		// One run in four has a task its validate hook rejects (a negative
		// kill timeout): the first prestart hook fails and the pass stops
		// there (TELEM-3), which no fault class makes happen.
		if d.IntRange("validate failure", 0, 3) == 0 {
			var tasks []*structs.Task
			for _, j := range sc.Jobs {
				for _, tg := range j.Job.TaskGroups {
					tasks = append(tasks, tg.Tasks...)
				}
			}
			if len(tasks) > 0 {
				prop.Pick(d, "validate failure task", tasks).KillTimeout = -time.Second
			}
		}
		return sc
	},
	Situations: emissionSituations,
	New: func(scenario.Scenario) prop.Checker {
		last := map[string]string{}
		return prop.Checks{
			OnSettled: func(v *prop.View) {
				reachTerminalRestore(v)
				checkShouldRun(v, last, v.World.PortCalls())
			},
			OnFinal: func(v *prop.View) {
				o := observe(v.World)
				reachEmissions(v, o)
				_ = checkShape(v, o) || checkCounts(v, o)
			},
		}
	},
}

var elapsed = prop.Property{
	ID:         "TELEM-4/elapsed-is-virtual-duration",
	Specs:      []string{"TELEM-4", "TELEM-3"},
	Doc:        "every elapsed sample is float32(ns/1e6) of the hook's virtual duration, blocking included, to the nanosecond",
	Faults:     telemFaults,
	Draw:       func(d *prop.Drawer, env prop.Env) scenario.Scenario { return draw(d, env, time.Microsecond, false) },
	Situations: elapsedSituations,
	New: final(func(v *prop.View, o observed) bool {
		reachElapsed(v, o)
		for _, h := range [][2]string{{sim.PortAllocDirBuild, telemetry.HookAllocDir}, {sim.PortTaskDirBuild, telemetry.HookTaskDir}} {
			_, want := o.dirHooks(h[0], h[1])
			_, got := o.actual(h[1], false)
			if compare(v, o, h[1]+" elapsed (the Build's virtual duration)", want, got) {
				return true
			}
		}
		_, want := o.csiRuns()
		_, got := o.actual(telemetry.HookCSI, false)
		if compare(v, o, "csi_hook elapsed (from the alloc dir Build's return to its last mount's)", want, got) {
			return true
		}
		for _, e := range o.ems {
			switch e.hook {
			case telemetry.HookValidate, telemetry.HookVolumes, telemetry.HookAwaitPrevAllocs, telemetry.HookMigrateDisk:
				if e.metric == telemetry.MetricElapsed && e.Value != 0 {
					v.Violatef("", "", e.hook+" elapsed at "+e.At.UTC().Format(time.RFC3339Nano)+" (a hook taking no virtual time)",
						fmt.Sprintf("%v ms", e.Value), fmt.Sprintf("%v ms", math.Float32frombits(0)))
					return true
				}
			}
		}
		return false
	}),
}

var disable = prop.Property{
	ID:         "TELEM-5/disable-switch",
	Specs:      []string{"TELEM-5"},
	Doc:        "with DisableAllocationHookMetrics set, no hook metric is emitted",
	Faults:     telemFaults,
	Draw:       func(d *prop.Drawer, env prop.Env) scenario.Scenario { return draw(d, env, 0, true) },
	Situations: disableSituations,
	New: func(scenario.Scenario) prop.Checker {
		check := func(v *prop.View) {
			if ems := v.World.HookEmissions(); len(ems) > 0 {
				v.Violatef("", "", "hook metrics emitted with disable_allocation_hook_metrics", ems[0].String(), "none")
			} else if ms := v.World.Metrics(); len(ms) > 0 {
				v.Violatef("", "", "hook metrics in the sink with disable_allocation_hook_metrics", ms[0].String(), "none")
			}
		}
		return prop.Checks{OnSettled: check, OnFinal: func(v *prop.View) {
			reachDisable(v)
			check(v)
		}}
	},
}
