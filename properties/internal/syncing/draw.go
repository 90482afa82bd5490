package syncing

import (
	"cmp"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// Hanging calls: most sync-timing scenarios make some client-server calls
// take 10 s to a minute (an rpc_latency fault with a max of hangMin to
// hangMax: a drawn latency is uniform up to the max), so that an
// UpdateAlloc stays in flight while runners push and a blocking producer
// or a deadline that ignores the call in flight shows.
const (
	hangMin = 10 * time.Second
	hangMax = 60 * time.Second
)

// syncFaults are the fault classes the sync-timing properties draw:
// every RPC fault, crashes and clock jumps, and the driver and state DB
// faults that change task states. A failed acknowledged_state write is
// fine: the properties take a restarted client's acknowledged states
// from the state DB, as its restore does (STATE-3).
var syncFaults = []faults.Class{faults.RPCFailure, faults.RPCLatency, faults.RPCPartition, faults.ClientCrash,
	faults.ClockJump, faults.DriverExit, faults.DriverStartFailure, faults.DriverStartDelay, faults.DriverRecoverFailure,
	faults.StateDBWriteFailure}

// syncOptions bound the sync-timing scenarios: 90 s to 3 minutes (a
// deadline is at most 10 s past a call's return; the mutants show within
// the first minute), up to two API calls, the env's faults.
func syncOptions(env prop.Env) scenario.Options {
	return scenario.Options{MinDuration: 90 * time.Second, MaxDuration: 3 * time.Minute, MaxCalls: 2, Exclude: env.Exclude()}
}

// drawSync draws a scenario within syncOptions with the env's faults,
// then, on most draws, a busy node and hanging calls and, on some, heavy
// RPC failure.
func drawSync(d *prop.Drawer, env prop.Env) scenario.Scenario {
	sc := scenario.DrawWith(d, syncOptions(env))
	drawBusy(d, env, &sc, false)
	drawHangs(d, env, &sc, false)
	drawHeavyFailure(d, env, &sc)
	return sc
}

// drawBusy, on most draws or always, makes the node busy: a service job "busy"
// whose two or three main tasks each exit every few seconds and restart
// after a short delay (mode delay, so they never give up within the
// run), so that while one restarts the others run, the alloc stays
// running and the sync loop has typical updates (no ClientStatus change)
// every second or so to batch; and most task starts take up to a few
// seconds.
func drawBusy(d *prop.Drawer, env prop.Env, sc *scenario.Scenario, always bool) {
	if !always && d.IntRange("busy", 0, 5) == 0 {
		return
	}
	tg := &structs.TaskGroup{Name: "g1", Count: d.IntRange("busy count", 1, 2),
		RestartPolicy: structs.NewRestartPolicy(100, 30*time.Minute,
			d.Duration("busy restart delay", time.Second, 5*time.Second, 100*time.Millisecond), structs.RestartPolicyModeDelay)}
	for i := 1; i <= d.IntRange("busy tasks", 2, 3); i++ {
		tg.Tasks = append(tg.Tasks, &structs.Task{
			Name: "t" + itoa(i), Driver: "mock_driver", KillTimeout: time.Second, KillSignal: "SIGTERM",
			Config: map[string]any{
				"run_for":   d.Duration("busy run for", 2*time.Second, 15*time.Second, 100*time.Millisecond).String(),
				"exit_code": 1,
			},
		})
	}
	job := &structs.Job{ID: "busy", Name: "busy", Type: structs.JobTypeService, TaskGroups: []*structs.TaskGroup{tg}}
	job.Canonicalize()
	at := d.Duration("busy at", 0, 30*time.Second, time.Second)
	sc.Jobs = append(sc.Jobs, scenario.JobAt{At: scenario.Duration(at), Job: job})
	slices.SortStableFunc(sc.Jobs, func(a, b scenario.JobAt) int { return cmp.Compare(a.At, b.At) })
	if env.Allows(faults.DriverStartDelay) && !sc.Faults.Has(faults.DriverStartDelay) {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.DriverStartDelay,
			Rate: float64(d.IntRange("busy start delay percent", 30, 100)) / 100,
			Max:  d.Duration("busy start delay max", 500*time.Millisecond, 3*time.Second, 100*time.Millisecond)})
	}
}

// replace puts f in the plan instead of the plan's entry of its class.
func replace(sc *scenario.Scenario, f faults.Fault) {
	sc.Faults = slices.DeleteFunc(sc.Faults, func(x faults.Fault) bool { return x.Class == f.Class })
	sc.Faults = append(sc.Faults, f)
}

// drawHangs makes some calls hang (hangMin..hangMax) on three draws in
// four, or always: the plan's rpc_latency, if it has one, is replaced (a
// plan holds one entry per per-call class).
func drawHangs(d *prop.Drawer, env prop.Env, sc *scenario.Scenario, always bool) {
	if !env.Allows(faults.RPCLatency) || !always && d.IntRange("hang", 0, 3) == 0 {
		return
	}
	f := faults.Fault{Class: faults.RPCLatency,
		Rate: float64(d.IntRange("hang rate percent", 5, 30)) / 100,
		Max:  d.Duration("hang max", hangMin, hangMax, time.Second)}
	replace(sc, f)
}

// drawHeavyFailure fails 20 to 70 % of the calls on one draw in three,
// when the plan has no rpc_failure yet.
func drawHeavyFailure(d *prop.Drawer, env prop.Env, sc *scenario.Scenario) {
	if !env.Allows(faults.RPCFailure) || sc.Faults.Has(faults.RPCFailure) || d.IntRange("heavy rpc failure", 0, 2) > 0 {
		return
	}
	rate := float64(d.IntRange("rpc failure percent", 20, 70)) / 100
	sc.Faults = append(sc.Faults, faults.Fault{Class: faults.RPCFailure, Rate: rate})
}

// drawCrash adds a client crash in the middle of the run (once the
// client has allocs), restarting after 1 to 30 s.
func drawCrash(d *prop.Drawer, env prop.Env, sc *scenario.Scenario) {
	if !env.Allows(faults.ClientCrash) {
		return
	}
	secs := int(sc.Duration.D() / time.Second)
	sc.Faults = append(sc.Faults, faults.Fault{Class: faults.ClientCrash,
		At:  time.Duration(d.IntRange("crash at s", secs/4, secs*3/4)) * time.Second,
		For: time.Duration(d.IntRange("crash restart after s", 1, 30)) * time.Second})
}
