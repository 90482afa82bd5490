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
	Doc:    "a kill (or restart) whose StopTask calls fail retries after min(4^i × 5s, 2m), five attempts at most, then appends Killed with the kill error; once the run exits, no retry",
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
		if d.Bool("t1 exits between attempts") {
			// t1 ends by itself inside the first retry delay (5 s) after a
			// failed stop: the stop is then done, no retry may follow.
			tasks[0].Config = runCfg(stop+d.Duration("t1 exits after the stop", time.Second, 4*time.Second, 500*time.Millisecond), 1, 0)
			if d.Bool("restart t1 instead") {
				// A restart's stop (AR-1 RestartTask) runs beside the task
				// loop, which sees the exit and starts the next run: a
				// retry of the failed stop would stop that run.
				sc.Calls = []scenario.Call{{At: scenario.Duration(stop), Op: scenario.OpRestart, Alloc: "job1.g1[0]", Task: "t1"}}
			}
		}
		return sc
	},
	Situations: []prop.Situation{
		{Name: "retried", Doc: "a failed StopTask retried after its delay"},
		{Name: "recovered-after-failures", Doc: "a StopTask succeeded after failed attempts of the same kill"},
		{Name: "gave-up", Doc: "the last attempt failed: Killed with the kill error"},
		{Name: "ended-between-attempts", Doc: "the run exited by itself after a failed attempt: no retry follows"},
	},
	New: func(scenario.Scenario) prop.Checker {
		f := newFeed()
		failed := map[taskKey]int{}         // consecutive failed attempts of the kill under way
		lastFail := map[taskKey]time.Time{} // the last one's instant
		stops := map[taskKey][]stopAttempt{}
		return prop.Checks{OnFinal: func(v *prop.View) { retryAfterExit(v, stops, f.History) }, OnSettled: func(v *prop.View) {
			evs := f.Next(v)
			gaveUp := map[taskKey]bool{}
			for _, r := range driverOps(v) {
				k := taskKey{Alloc: r.Alloc, Task: r.Task}
				if drivers.Op(r.Op) != drivers.OpStop {
					continue
				}
				stops[k] = append(stops[k], stopAttempt{at: r.At, failed: strings.Contains(r.Msg, "error=") && !strings.Contains(r.Msg, drivers.ErrTaskNotFound.Error())})
				if _, exited := exitIn(f.History[k], lastFail[k], r.At.Add(-time.Nanosecond)); failed[k] > 0 && exited {
					failed[k] = 0 // the stopped run ended meanwhile: a new stop (retryAfterExit checks the old)
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

// exitIn returns the first Terminated among events after from and at or
// before to, by the events' own instants.
func exitIn(events []*structs.TaskEvent, from, to time.Time) (time.Time, bool) {
	for _, e := range events {
		if t := time.Unix(0, e.Time).UTC(); e.Type == structs.TaskTerminated && t.After(from) && !t.After(to) {
			return t, true
		}
	}
	return time.Time{}, false
}

// stopAttempt is one StopTask call of a task: when, and whether it failed.
type stopAttempt struct {
	at     time.Time
	failed bool
}

// retryAfterExit checks, once the run is over, what follows each failed
// StopTask of a stop: the retry, at its delay, while the run it stops
// is live; none once that run exited by itself within the delay (a retry
// would stop the task's next run: the task ID stays). A runner that
// gives up after one failure, or takes the failure for a stop, never
// retries; one that forgets the run retries into the next. The exits
// come from the events' own instants: a runner may push them later than
// they happened.
func retryAfterExit(v *prop.View, stops map[taskKey][]stopAttempt, history map[prop.TaskKey][]*structs.TaskEvent) {
	if v.Failed() {
		return
	}
	for _, k := range sortedKeys(stops) {
		ops := stops[k]
		n := 0 // consecutive failed attempts of one stop
		for i, a := range ops {
			if !a.failed {
				n = 0
				continue
			}
			n++
			if n >= status.KillAttempts {
				n = 0
				continue
			}
			due := a.at.Add(status.KillRetryDelay(n - 1))
			retried := i+1 < len(ops) && ops[i+1].at.Equal(due)
			exit, exited := exitIn(history[k], a.at, due)
			switch {
			case exited && exit.Before(due):
				v.Reach("ended-between-attempts")
				if retried {
					v.Violatef(k.Alloc, k.Task, fmt.Sprintf("StopTask at %s, %s after failed attempt %d, though the run it stopped exited at %s", prop.When(due, nil), status.KillRetryDelay(n-1), n, prop.When(exit, nil)),
						"a retry", "none: a stop's retries are for its own run; the task ID stays, so a retry would stop the next run (AR-6)")
					return
				}
			case !exited && !retried && due.Before(v.Now()):
				v.Violatef(k.Alloc, k.Task, fmt.Sprintf("StopTask retry after failed attempt %d (at %s), the run still live", n, prop.When(a.at, nil)),
					"none", fmt.Sprintf("%s, %s later (AR-6: min(4^i × 5s, 2m))", prop.When(due, nil), status.KillRetryDelay(n-1)))
				return
			}
			if !retried {
				n = 0
			}
		}
	}
}
