package alloc

import (
	"fmt"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// stopRetries: AR-6's kill path stops the driver task with retries, a
// job stop meeting StopTask calls that fail (driver_stop_failure, every
// call or some). After the i-th failed attempt of a kill the next comes
// status.KillRetryDelay(i) later, at most status.KillAttempts in all;
// after the last failure the task gets `Killed` with its KillError at
// once, not before. Without it a runner that retries at once, or never,
// or forever, passes: the other properties see a kill's events, not its attempts.
var stopRetries = prop.Property{
	ID:     "AR-6/stop-retries",
	Specs:  []string{"AR-6"},
	Doc:    "a kill whose StopTask calls fail retries after min(4^i × 5s, 2m), five attempts at most, then appends Killed with the kill error",
	Faults: []faults.Class{faults.DriverStopFailure},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		tasks := []*structs.Task{mkTask("t1", "main", runCfg(0, 0, d.Duration("t1 kill after", 100*time.Millisecond, time.Second, 100*time.Millisecond)), 3*time.Second)}
		if d.Bool("second main") {
			tasks = append(tasks, mkTask("t2", "main", runCfg(0, 0, d.Duration("t2 kill after", 100*time.Millisecond, time.Second, 100*time.Millisecond)), 2*time.Second))
		}
		if d.Bool("sidecar") {
			tasks = append(tasks, mkTask("s1", "sidecar", runCfg(0, 0, 500*time.Millisecond), time.Second))
		}
		stop := d.Duration("stop at", 10*time.Second, time.Minute, time.Second)
		sc := mkScenario(d, stop+6*time.Minute, mkJob("job1", structs.JobTypeService, structs.NewRestartPolicy(0, 5*time.Minute, time.Second, structs.RestartPolicyModeFail), tasks...))
		sc.Calls = []scenario.Call{{At: scenario.Duration(stop), Op: scenario.OpStopJob, Job: "job1"}}
		if env.Allows(faults.DriverStopFailure) {
			sc.Faults = append(sc.Faults, faults.Fault{Class: faults.DriverStopFailure, Rate: prop.Pick(d, "stop failure rate", []float64{1, 0.6})})
		}
		return sc
	},
	Situations: []prop.Situation{
		{Name: "retried", Doc: "a failed StopTask retried after its delay"},
		{Name: "recovered-after-failures", Doc: "a StopTask succeeded after failed attempts of the same kill"},
		{Name: "gave-up", Doc: "the last attempt failed: Killed with the kill error"},
	},
	New: func(scenario.Scenario) prop.Checker {
		f := newFeed()
		failed := map[taskKey]int{}         // consecutive failed attempts of the kill under way
		lastFail := map[taskKey]time.Time{} // the last one's instant
		return prop.Checks{OnSettled: func(v *prop.View) {
			evs := f.Next(v)
			gaveUp := map[taskKey]bool{}
			for _, r := range driverOps(v) {
				k := taskKey{Alloc: r.Alloc, Task: r.Task}
				if drivers.Op(r.Op) != drivers.OpStop {
					continue
				}
				if n := failed[k]; n > 0 {
					if n >= status.KillAttempts {
						v.Violatef(k.Alloc, k.Task, fmt.Sprintf("StopTask after %d failed attempts of one kill", n), "another attempt",
							fmt.Sprintf("none: the kill path gives up after %d (AR-6)", status.KillAttempts))
						return
					}
					if want := lastFail[k].Add(status.KillRetryDelay(n - 1)); !r.At.Equal(want) {
						v.Violatef(k.Alloc, k.Task, fmt.Sprintf("StopTask retry after failed attempt %d (at %s)", n, prop.When(lastFail[k], nil)),
							prop.When(r.At, nil), fmt.Sprintf("%s, %s later (AR-6: min(4^i × 5s, 2m))", prop.When(want, nil), status.KillRetryDelay(n-1)))
						return
					}
					v.Reach("retried")
				}
				if strings.Contains(r.Msg, "error=") {
					failed[k]++
					lastFail[k] = r.At
					if failed[k] == status.KillAttempts {
						gaveUp[k] = true
					}
					continue
				}
				if failed[k] > 0 {
					v.Reach("recovered-after-failures")
				}
				failed[k] = 0
			}
			for _, ne := range evs {
				if ne.Event.Type == structs.TaskKilled && ne.Event.KillError != "" && !gaveUp[ne.Key] {
					v.Violatef(ne.Key.Alloc, ne.Key.Task, fmt.Sprintf("Killed with a kill error after %d failed StopTask attempts of the kill", failed[ne.Key]),
						ne.Event.KillError, fmt.Sprintf("a retry: the kill path gives up only after %d failed attempts (AR-6)", status.KillAttempts))
					return
				}
			}
			for _, k := range sortedKeys(gaveUp) {
				var killed *structs.TaskEvent
				for _, ne := range evs {
					if ne.Key == k && ne.Event.Type == structs.TaskKilled {
						killed = ne.Event
					}
				}
				if killed == nil || killed.KillError == "" {
					v.Violatef(k.Alloc, k.Task, fmt.Sprintf("event after the %d-th failed StopTask of a kill", status.KillAttempts), "no Killed with a KillError",
						"Killed with the kill error (AR-6, DATA-8)")
					return
				}
				v.Reach("gave-up")
			}
		}}
	},
}
