package alloc

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// restartCallResult: a restart of one task made through the servers
// (Allocations.Restart, routed to the client as API-7 routes its calls)
// answers with the runner's own verdict (AR-1: RestartTask's errors, a
// task not running refused). Every restart the caller is told succeeded
// appended the task's `Restart Signaled` at the call; a client that
// answers ok where its runner refused tells the caller of a restart that
// never happened.
var restartCallResult = prop.Property{
	ID:    "AR-1/restart-call-result",
	Specs: []string{"AR-1", "API-7"},
	Doc:   "a task restart made through the servers is answered ok only when the runner restarted the task: it got Restart Signaled at the call",
	Faults: []faults.Class{faults.DriverStartDelay, faults.DriverStartFailure, faults.DriverExit,
		faults.DriverStopHang, faults.ClientCrash, faults.DriverStopFailure},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := scenario.DrawWith(d, scenario.Options{MinDuration: 2 * time.Minute, MaxDuration: 4 * time.Minute, MaxCalls: 2, Exclude: env.Exclude()})
		allocs, tasks := firstAllocs(sc)
		if len(allocs) == 0 {
			return sc
		}
		// Several named restarts at drawn instants: the task may run,
		// wait dead, be pending (refused), belong to another group (no
		// such task runner) or to an alloc that should not run.
		for i := 0; i < d.IntRange("restart calls", 2, 6); i++ {
			sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(d.Duration("restart at", time.Second, sc.Duration.D()-time.Second, 100*time.Millisecond)),
				Op: scenario.OpRestart, Alloc: prop.Pick(d, "restart alloc", allocs), Task: prop.Pick(d, "restart task", tasks).Name})
		}
		slices.SortStableFunc(sc.Calls, func(a, b scenario.Call) int { return cmp.Compare(a.At, b.At) })
		return sc
	},
	Situations: []prop.Situation{
		{Name: "restart-accepted", Doc: "a restart call answered ok: the task got Restart Signaled"},
		{Name: "restart-refused", Doc: "a restart call the client answered with an error"},
	},
	New: func(scenario.Scenario) prop.Checker {
		oks, signaled := map[taskKey]int{}, map[taskKey]int{}
		due := map[taskKey]time.Time{} // the instant of a call answered ok, its event count not checked yet
		// check compares, once the instant of a call answered ok is over,
		// the calls answered ok with the Restart Signaled events the world
		// recorded from the runner's pushes: a call may return before its
		// runner pushed the event (pushes are asynchronous; one may wait
		// behind a held state DB write within the instant).
		check := func(v *prop.View, final bool) {
			for _, k := range sortedKeys(due) {
				if !final && !v.Now().After(due[k]) {
					continue
				}
				delete(due, k)
				if n := signaled[k]; n < oks[k] {
					v.Violatef(k.Alloc, k.Task, "Allocations.Restart calls answered ok", fmt.Sprintf("%d, with %d Restart Signaled events", oks[k], n),
						"one Restart Signaled per call answered ok: a call the runner refused answers with its error (AR-1)")
					return
				}
			}
		}
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, r := range v.New {
				if r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskRestartSignal {
					signaled[taskKey{Alloc: r.Alloc, Task: r.Task}]++
				}
			}
			if check(v, false); v.Failed() {
				return
			}
			for _, r := range v.New {
				if r.Kind != trace.KindAPI || r.Op != string(scenario.OpRestart) || r.Task == "" {
					continue
				}
				if r.Msg != "ok" {
					v.Reach("restart-refused")
					continue
				}
				v.Reach("restart-accepted")
				// A call may block while the task stops (its record is at
				// its return, its event at its start) and calls may
				// return out of order: count them. Each one answered ok
				// appended one Restart Signaled (a refused one may have
				// appended one too, if stopping the task failed).
				k := taskKey{Alloc: r.Alloc, Task: r.Task}
				oks[k]++
				due[k] = r.At
			}
		}, OnFinal: func(v *prop.View) { check(v, true) }}
	},
}
