package restore

import (
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// handleCleared: local_state's TaskHandle (STATE-1) is written after the
// driver start (STATE-2) and cleared after every exit (SPEC-NOTES: a
// restore never re-attaches to an exited task, STATE-4). At every settled
// instant, a task whose run ended (pending for a restart, or dead) has no
// handle in the state DB storage, as a restore would load it.
var handleCleared = prop.Property{
	ID:     "STATE-1/handle-cleared-at-exit",
	Specs:  []string{"STATE-1", "STATE-2", "STATE-4", "AR-6"},
	Doc:    "once a task's run ended (restarting or dead), its persisted local_state holds no driver handle",
	Faults: []faults.Class{faults.ClientCrash, faults.DriverRecoverFailure},
	Draw:   drawHandle,
	Situations: []prop.Situation{
		{Name: "running-handle", Doc: "a running task has its handle persisted"},
		{Name: "restarting-cleared", Doc: "a task waiting for its restart after an exit"},
		{Name: "dead-cleared", Doc: "a task dead after it ran"},
		{Name: "dead-after-failed-recovery", Doc: "a task whose recovery failed (Failed Restoring Task) dead before it started again"},
		{Name: "dead-after-terminal-recovery-failed", Doc: "a task dead with no event ending its last run (one running at the crash whose recovery failed in a server-terminal alloc)"},
	},
	New: func(scenario.Scenario) prop.Checker {
		last := map[key]string{}
		f := newFeed()
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, ne := range f.Next(v) {
				if t := ne.Event.Type; t == structs.TaskStarted || runEnds[t] {
					last[ne.Key] = t
				}
			}
			checkHandles(v, last)
		}}
	},
}

// drawHandle draws, one run in two, drawCrashesStopped's crashes (with
// failing recoveries: a task whose recovery failed may be killed before
// it starts again, when its job was stopped while the client was down);
// else a job whose tasks exit on their own after a while (some failing),
// restarted within policy after a delay, then dead.
func drawHandle(d *prop.Drawer, env prop.Env) scenario.Scenario {
	switch d.IntRange("variant", 0, 2) {
	case 1:
		return drawCrashesStopped(d, env)
	case 2:
		return drawStopThenCrash(d)
	}
	var tasks []*structs.Task
	for i, name := range []string{"a", "b"} {
		if i > 0 && !d.Bool("second task") {
			break
		}
		tasks = append(tasks, task(name, nil,
			map[string]any{"run_for": d.Duration(name+" run for", time.Second, 20*time.Second, time.Second).String(), "exit_code": d.IntRange(name+" exit code", 0, 1)}))
	}
	typ := prop.Pick(d, "type", []string{structs.JobTypeService, structs.JobTypeBatch})
	policy := structs.NewRestartPolicy(d.IntRange("attempts", 0, 2), 5*time.Minute, d.Duration("delay", time.Second, 15*time.Second, time.Second), structs.RestartPolicyModeFail)
	j := &structs.Job{ID: "job1", Name: "job1", Type: typ, TaskGroups: []*structs.TaskGroup{{Name: "g1", Count: 1, RestartPolicy: policy, Tasks: tasks}}}
	j.Canonicalize()
	return scenario.Scenario{Start: prop.Pick(d, "start", scenario.Starts), Duration: scenario.Duration(d.Duration("duration", time.Minute, 2*time.Minute, 30*time.Second)),
		Jobs: []scenario.JobAt{{Job: j}}}
}

// checkHandles: last is each task's last Started or run-ending event.
// A task that ran and is dead, or pending after its run exited, has no
// persisted handle. A task pending after Failed Restoring Task is not
// checked: its recovery failed, no run of it exited here (a restore
// would find a dead handle and recover nothing, STATE-4).
// drawStopThenCrash: the job is stopped before the first 60 s snapshot
// while its task takes 25 s to stop, so that the snapshot writes the
// stopped alloc; the client crashes after it, during the stop, and every
// recovery fails: the restored task's recovery fails in a server-terminal
// alloc (STATE-4: no Failed Restoring Task), and it ends dead without
// running again.
func drawStopThenCrash(d *prop.Drawer) scenario.Scenario {
	main := &structs.Task{Name: "main", Driver: "mock_driver", KillTimeout: 30 * time.Second, KillSignal: "SIGINT",
		Config: map[string]any{"kill_after": "25s"}}
	j := &structs.Job{ID: "job1", Name: "job1", Type: structs.JobTypeService, TaskGroups: []*structs.TaskGroup{{Name: "g1", Count: 1, Tasks: []*structs.Task{main}}}}
	j.Canonicalize()
	stop := d.Duration("stop at", 45*time.Second, 55*time.Second, 100*time.Millisecond)
	crash := stop + d.Duration("crash into the stop", 16*time.Second, 24*time.Second, 100*time.Millisecond)
	return scenario.Scenario{Start: prop.Pick(d, "start", scenario.Starts), Duration: scenario.Duration(3 * time.Minute),
		Jobs:  []scenario.JobAt{{Job: j}},
		Calls: []scenario.Call{{At: scenario.Duration(stop), Op: scenario.OpStopJob, Job: "job1"}},
		Faults: faults.Plan{{Class: faults.ClientCrash, At: crash, For: d.Duration("down for", time.Second, 10*time.Second, time.Second)},
			{Class: faults.DriverRecoverFailure, Rate: 1}}}
}

func checkHandles(v *prop.View, last map[key]string) {
	for _, a := range v.Allocs() {
		for _, name := range structs.SortedTaskNames(a.TaskStates) {
			ts := a.TaskStates[name]
			ev, ran := last[key{Alloc: a.ID, Task: name}]
			if ts == nil || !ran || ts.State == structs.TaskStatePending && ev == structs.TaskRestoreFailed {
				continue
			}
			ls, err := v.World.TaskLocalState(a.ID, name)
			if err != nil || ls == nil {
				continue
			}
			switch {
			case ts.State == structs.TaskStateRunning:
				if ls.TaskHandle != nil {
					v.Reach("running-handle")
				}
				continue
			case ts.State == structs.TaskStateDead:
				v.Reach("dead-cleared")
				if ev == structs.TaskRestoreFailed {
					v.Reach("dead-after-failed-recovery")
				}
				if ev == structs.TaskStarted {
					v.Reach("dead-after-terminal-recovery-failed")
				}
			default:
				v.Reach("restarting-cleared")
			}
			if ls.TaskHandle != nil {
				v.Violatef(a.ID, name, "persisted local_state TaskHandle of a "+ts.State+" task whose run ended", "a handle",
					"none: the handle is cleared after every exit, so a restore never re-attaches to an exited task (STATE-2, STATE-4, SPEC-NOTES)")
				return
			}
		}
	}
}
