package hookresources

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// classes are the faults the properties draw.
var classes = []faults.Class{faults.ClientCrash, faults.CSIMountLatency, faults.CSIMountFailure,
	faults.DriverRecoverFailure, faults.DriverExit}

// drawRestores draws a service job whose group has two or three CSI
// volumes that its tasks mount (two at least, so a partial map differs
// from the empty one), slow alloc and task dirs, CSI mounts that block
// and sometimes fail, and one to three client crashes, the first early
// (during the first prerun, often), so that restores race the CSI prerun
// and prestarts race both; sometimes an in-place job update (AR-10) and a
// job stop (a destroy) race them too.
func drawRestores(d *prop.Drawer, env prop.Env) scenario.Scenario {
	nvol := d.IntRange("volumes", 2, 3)
	tg := &structs.TaskGroup{Name: "g1", Count: d.IntRange("count", 1, 2), Volumes: map[string]*structs.VolumeRequest{}}
	aliases := make([]string, nvol)
	for i := range aliases {
		a := fmt.Sprintf("v%d", i+1)
		aliases[i] = a
		tg.Volumes[a] = &structs.VolumeRequest{Name: a, Type: structs.VolumeTypeCSI, Source: "vol-" + a}
	}
	for k := 1; k <= d.IntRange("tasks", 1, 2); k++ {
		t := &structs.Task{Name: fmt.Sprintf("t%d", k), Driver: "mock_driver", KillTimeout: 2 * time.Second, KillSignal: "SIGINT",
			Config: map[string]any{"kill_after": "500ms"}}
		first := d.IntRange("first mount", 0, nvol-2) // mounts aliases[first:], two or more
		for _, a := range aliases[first:] {
			t.VolumeMounts = append(t.VolumeMounts, &structs.VolumeMount{Volume: a, Destination: "/" + a})
		}
		tg.Tasks = append(tg.Tasks, t)
	}
	j := &structs.Job{ID: "job1", Name: "job1", Type: structs.JobTypeService, TaskGroups: []*structs.TaskGroup{tg}}
	j.Canonicalize()
	sc := scenario.Scenario{
		Start:    prop.Pick(d, "start", scenario.Starts),
		Duration: scenario.Duration(d.Duration("duration", 2*time.Minute, 4*time.Minute, time.Minute)),
		Jobs:     []scenario.JobAt{{Job: j}},
	}
	// Two runs in three have slow dirs and blocking mounts (the CSI
	// prerun then spans instants that restored prestarts race); the
	// third has none, so a restore's prerun and prestarts share one
	// instant (what the race detector sees under properties.WithFreeRunning).
	sc.HookLatency = &scenario.HookLatency{}
	if d.IntRange("latency", 0, 2) > 0 {
		sc.HookLatency.AllocDirBuild = scenario.Duration(d.Duration("alloc dir latency", 0, time.Second, 100*time.Millisecond))
		sc.HookLatency.TaskDirBuild = scenario.Duration(d.Duration("task dir latency", 0, 4*time.Second, 100*time.Millisecond))
		if env.Allows(faults.CSIMountLatency) {
			sc.Faults = append(sc.Faults, faults.Fault{Class: faults.CSIMountLatency,
				Rate: float64(d.IntRange("csi latency percent", 30, 100)) / 100,
				Max:  d.Duration("csi latency max", 500*time.Millisecond, 5*time.Second, 100*time.Millisecond)})
		}
	}
	if env.Allows(faults.CSIMountFailure) && d.IntRange("csi failures", 0, 3) == 0 {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.CSIMountFailure, Rate: float64(d.IntRange("csi failure percent", 5, 30)) / 100})
	}
	if env.Allows(faults.ClientCrash) {
		at := d.Duration("first crash", 100*time.Millisecond, 10*time.Second, 100*time.Millisecond)
		for i := 0; i < d.IntRange("crashes", 1, 3); i++ {
			sc.Faults = append(sc.Faults, faults.Fault{Class: faults.ClientCrash, At: at, For: d.Duration("down for", time.Second, 10*time.Second, time.Second)})
			at += d.Duration("next crash", 15*time.Second, 60*time.Second, time.Second)
		}
		if env.Allows(faults.DriverRecoverFailure) && d.IntRange("recover failures", 0, 2) == 0 {
			sc.Faults = append(sc.Faults, faults.Fault{Class: faults.DriverRecoverFailure, Rate: float64(d.IntRange("recover failure percent", 20, 60)) / 100})
		}
	}
	if d.IntRange("stop", 0, 3) == 0 {
		sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(d.Duration("stop at", 20*time.Second, 90*time.Second, time.Second)),
			Op: scenario.OpStopJob, Job: j.ID})
	}
	// An in-place job update (AR-10) racing the restores: the server
	// bumps every alloc's modify index, the runner's Update runs while
	// prerun and prestarts may be under way.
	if d.IntRange("update", 0, 2) == 0 {
		sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(d.Duration("update at", time.Second, 60*time.Second, 100*time.Millisecond)),
			Op: scenario.OpUpdateSchedule, Job: j.ID, Task: "t1"})
		slices.SortStableFunc(sc.Calls, func(a, b scenario.Call) int { return cmp.Compare(a.At, b.At) })
	}
	// Half the runs with slow mounts and no stop yet stop the job within
	// 5 s of a prerun's start (the first, or a restored one after a
	// crash), while its mounts may be in flight (a destroy racing the
	// CSI prerun).
	stopped := slices.ContainsFunc(sc.Calls, func(c scenario.Call) bool { return c.Op == scenario.OpStopJob })
	if !stopped && sc.Faults.Has(faults.CSIMountLatency) {
		if d.Bool("stop in prerun") {
			var base time.Duration
			if crashes := sc.Faults.Of(faults.ClientCrash); len(crashes) > 0 && d.Bool("stop in restored prerun") {
				c := prop.Pick(d, "stop after restart", crashes)
				base = c.At + c.For
			}
			sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(base + d.Duration("stop in prerun at", 100*time.Millisecond, 5*time.Second, 100*time.Millisecond)),
				Op: scenario.OpStopJob, Job: j.ID})
			slices.SortStableFunc(sc.Calls, func(a, b scenario.Call) int { return cmp.Compare(a.At, b.At) })
		}
	}
	return sc
}
