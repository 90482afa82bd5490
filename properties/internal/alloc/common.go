package alloc

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// taskKey names one task of one alloc; newEvent is one appended event
// (prop.EventFeed).
type (
	taskKey  = prop.TaskKey
	newEvent = prop.SeenEvent
)

func newFeed() *prop.EventFeed { return prop.NewEventFeed() }

// firstAllocs names the first alloc of every group of sc's jobs
// ("<job>.<group>[0]", as API calls name them) and lists every task.
func firstAllocs(sc scenario.Scenario) (allocs []string, tasks []*structs.Task) {
	for _, ja := range sc.Jobs {
		for _, tg := range ja.Job.TaskGroups {
			tasks = append(tasks, tg.Tasks...)
			allocs = append(allocs, fmt.Sprintf("%s.%s[0]", ja.Job.ID, tg.Name))
		}
	}
	return allocs, tasks
}

// groupOf is alloc id's job and task group (the server's), or nils.
func groupOf(v *prop.View, id string) (*structs.Job, *structs.TaskGroup) {
	a := v.ServerAlloc(id)
	if a == nil || a.Job == nil {
		return nil, nil
	}
	return a.Job, a.Job.LookupTaskGroup(a.TaskGroup)
}

// driverOps returns the driver records of v.New.
func driverOps(v *prop.View) []trace.Record {
	var out []trace.Record
	for _, r := range v.New {
		if r.Kind == trace.KindDriver {
			out = append(out, r)
		}
	}
	return out
}

// killEvent reports whether typ is one of the AR-9 kill-rule events.
func killRuleEvent(typ string) bool {
	return typ == structs.TaskSiblingFailed || typ == structs.TaskLeaderDead || typ == structs.TaskMainDead
}

// maxKillTimeout is the client's max_kill_timeout (DATA-4).
const maxKillTimeout = 30 * time.Second

// Scenario building blocks: small hand-shaped jobs whose choices all come
// from the Drawer, so failures shrink.

func mkTask(name, role string, cfg map[string]any, killTimeout time.Duration) *structs.Task {
	t := &structs.Task{Name: name, Driver: "mock_driver", KillTimeout: killTimeout, KillSignal: "SIGINT", Config: cfg}
	switch role {
	case "prestart":
		t.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart}
	case "prestart-sidecar":
		t.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart, Sidecar: true}
	case "poststart":
		t.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPoststart}
	case "sidecar":
		t.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPoststart, Sidecar: true}
	case "poststop":
		t.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPoststop}
	}
	return t
}

// runCfg is a mock driver config: run for runFor (0: forever) then exit
// with code; a stop signal ends it after killAfter.
func runCfg(runFor time.Duration, code int, killAfter time.Duration) map[string]any {
	cfg := map[string]any{}
	if runFor > 0 {
		cfg["run_for"] = runFor.String()
		cfg["exit_code"] = code
	}
	if killAfter > 0 {
		cfg["kill_after"] = killAfter.String()
	}
	return cfg
}

func mkJob(id, typ string, policy *structs.RestartPolicy, tasks ...*structs.Task) *structs.Job {
	j := &structs.Job{ID: id, Name: id, Type: typ, TaskGroups: []*structs.TaskGroup{{Name: "g1", Count: 1, RestartPolicy: policy, Tasks: tasks}}}
	j.Canonicalize()
	return j
}

// mkScenario is a run of dur from a drawn start with jobs registered at 0.
func mkScenario(d *prop.Drawer, dur time.Duration, jobs ...*structs.Job) scenario.Scenario {
	s := scenario.Scenario{Start: prop.Pick(d, "start", scenario.Starts), Duration: scenario.Duration(dur)}
	for _, j := range jobs {
		s.Jobs = append(s.Jobs, scenario.JobAt{Job: j})
	}
	return s
}
