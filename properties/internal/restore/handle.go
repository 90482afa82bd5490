package restore

import (
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// handleCleared: local_state's TaskHandle (STATE-1) is written after the
// driver start (STATE-2) and cleared after every exit (SPEC-NOTES: a
// restore never re-attaches to an exited task, STATE-4). At every settled
// instant, a task whose run ended (pending for a restart, or dead) has no
// handle in the state DB storage, as a restore would load it.
var handleCleared = prop.Property{
	ID:    "STATE-1/handle-cleared-at-exit",
	Specs: []string{"STATE-1", "STATE-2", "STATE-4", "AR-6"},
	Doc:   "once a task's run ended (restarting or dead), its persisted local_state holds no driver handle",
	Draw:  drawHandle,
	Situations: []prop.Situation{
		{Name: "running-handle", Doc: "a running task has its handle persisted"},
		{Name: "restarting-cleared", Doc: "a task waiting for its restart after an exit"},
		{Name: "dead-cleared", Doc: "a task dead after it ran"},
	},
	New: func(scenario.Scenario) prop.Checker {
		ran := map[key]bool{}
		f := newFeed()
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, ne := range f.Next(v) {
				if ne.Event.Type == structs.TaskStarted {
					ran[ne.Key] = true
				}
			}
			checkHandles(v, ran)
		}}
	},
}

// drawHandle draws a job whose tasks exit on their own after a while
// (some failing), restarted within policy after a delay, then dead.
func drawHandle(d *prop.Drawer, env prop.Env) scenario.Scenario {
	var tasks []*structs.Task
	for i, name := range []string{"a", "b"} {
		if i > 0 && !d.Bool("second task") {
			break
		}
		tasks = append(tasks, &structs.Task{Name: name, Driver: "mock_driver", KillTimeout: 2 * time.Second, KillSignal: "SIGINT",
			Config: map[string]any{"run_for": d.Duration(name+" run for", time.Second, 20*time.Second, time.Second).String(), "exit_code": d.IntRange(name+" exit code", 0, 1)}})
	}
	typ := prop.Pick(d, "type", []string{structs.JobTypeService, structs.JobTypeBatch})
	policy := structs.NewRestartPolicy(d.IntRange("attempts", 0, 2), 5*time.Minute, d.Duration("delay", time.Second, 15*time.Second, time.Second), structs.RestartPolicyModeFail)
	j := &structs.Job{ID: "job1", Name: "job1", Type: typ, TaskGroups: []*structs.TaskGroup{{Name: "g1", Count: 1, RestartPolicy: policy, Tasks: tasks}}}
	j.Canonicalize()
	return scenario.Scenario{Start: prop.Pick(d, "start", scenario.Starts), Duration: scenario.Duration(d.Duration("duration", time.Minute, 2*time.Minute, 30*time.Second)),
		Jobs: []scenario.JobAt{{Job: j}}}
}

func checkHandles(v *prop.View, ran map[key]bool) {
	for _, a := range v.Allocs() {
		for _, name := range structs.SortedTaskNames(a.TaskStates) {
			ts := a.TaskStates[name]
			if ts == nil || !ran[key{Alloc: a.ID, Task: name}] {
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
