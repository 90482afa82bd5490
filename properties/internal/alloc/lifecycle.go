package alloc

import (
	"time"

	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// lifecycleStartOrder: every driver StartTask happens when AR-9's start
// condition (model/status.MayStart) holds. The condition is read at the
// instant's end: it only ever becomes true, so this misses nothing that
// held at the call and never blames a same-instant start.
var lifecycleStartOrder = prop.Property{
	ID:     "AR-9/lifecycle-start-order",
	Specs:  []string{"AR-9"},
	Doc:    "prestart tasks start first; main tasks once prestart non-sidecars completed and prestart sidecars run; poststart once main tasks run; poststop once all main tasks are dead",
	Faults: []faults.Class{faults.DriverStartDelay, faults.DriverExit},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		policy := structs.NewRestartPolicy(d.IntRange("attempts", 0, 2), 5*time.Minute, d.Duration("delay", 0, 5*time.Second, time.Second), structs.RestartPolicyModeFail)
		tasks := []*structs.Task{
			mkTask("pre", "prestart", runCfg(d.Duration("prestart run", time.Second, 10*time.Second, time.Second), prop.Pick(d, "prestart code", []int{0, 0, 1}), 0), time.Second),
			mkTask("main", "main", runCfg(d.Duration("main run", 0, 60*time.Second, 10*time.Second), 0, 0), time.Second),
		}
		for _, role := range []string{"prestart-sidecar", "poststart", "sidecar", "poststop"} {
			if d.Bool(role) {
				tasks = append(tasks, mkTask(role, role, runCfg(d.Duration(role+" run", 0, 8*time.Second, 4*time.Second), 0, 0), time.Second))
			}
		}
		if d.Bool("second main") {
			tasks = append(tasks, mkTask("main2", "main", runCfg(d.Duration("main2 run", 0, 60*time.Second, 10*time.Second), 0, 0), time.Second))
		}
		typ := prop.Pick(d, "job type", []string{structs.JobTypeBatch, structs.JobTypeService})
		sc := mkScenario(d, d.Duration("duration", 2*time.Minute, 4*time.Minute, time.Minute), mkJob("job1", typ, policy, tasks...))
		if env.Allows(faults.DriverStartDelay) && d.Bool("start delay") {
			sc.Faults = append(sc.Faults, faults.Fault{Class: faults.DriverStartDelay, Rate: 0.5, Max: 3 * time.Second})
		}
		return sc
	},
	Situations: []prop.Situation{
		{Name: "prestart-started", Doc: "a prestart task started"},
		{Name: "prestart-sidecar-started", Doc: "a prestart sidecar started"},
		{Name: "main-started", Doc: "a main task started"},
		{Name: "main-waits-for-failed-prestart", Doc: "a prestart task failed, so the main tasks wait"},
		{Name: "poststart-started", Doc: "a poststart task started"},
		{Name: "poststart-sidecar-started", Doc: "a poststart sidecar started"},
		{Name: "poststop-started", Doc: "a poststop task started, the main tasks dead"},
		{Name: "restarted", Doc: "a task started again after an exit"},
	},
	New: func(scenario.Scenario) prop.Checker {
		starts := map[taskKey]int{}
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, r := range driverOps(v) {
				if drivers.Op(r.Op) != drivers.OpStart {
					continue
				}
				_, tg := groupOf(v, r.Alloc)
				a := v.Alloc(r.Alloc)
				if tg == nil || a == nil {
					continue
				}
				t := tg.LookupTask(r.Task)
				if t == nil {
					continue
				}
				if !status.MayStart(t, tg.Tasks, a.TaskStates) {
					v.Violatef(r.Alloc, r.Task, "StartTask of a "+status.StageOf(t).String()+" task", "called", "only once its AR-9 start condition holds")
					return
				}
				reachStart(v, t, starts, taskKey{Alloc: r.Alloc, Task: r.Task})
			}
			for _, a := range v.Allocs() {
				_, tg := groupOf(v, a.ID)
				if tg == nil {
					continue
				}
				for _, t := range tg.Tasks {
					if s := a.TaskStates[t.Name]; t.IsPrestart() && !t.IsSidecar() && s != nil && s.State == structs.TaskStateDead && s.Failed {
						v.Reach("main-waits-for-failed-prestart")
					}
				}
			}
		}}
	},
}

// reachStart counts the stage of a task that started, and a restart.
func reachStart(v *prop.View, t *structs.Task, starts map[taskKey]int, k taskKey) {
	if starts[k]++; starts[k] > 1 {
		v.Reach("restarted")
	}
	switch {
	case t.IsPrestart() && t.IsSidecar():
		v.Reach("prestart-sidecar-started")
	case t.IsPrestart():
		v.Reach("prestart-started")
	case t.IsPoststart() && t.IsSidecar():
		v.Reach("poststart-sidecar-started")
	case t.IsPoststart():
		v.Reach("poststart-started")
	case t.IsPoststop():
		v.Reach("poststop-started")
	default:
		v.Reach("main-started")
	}
}
