package alloc

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// buildFailureReported: AR-3 and SYNC-1. When the alloc runner factory
// fails for an alloc (fault runner_build_failure; at a pull or at a
// restore, STATE-3 (3)), the client reports the alloc failed and does not
// run it: no task of it starts in that client incarnation (as Nomad's
// client, which marks such allocs failed and ignores them while the
// servers place them, hashicorp/nomad#5164), and, when that incarnation
// is the last one, the servers hold the alloc `failed` a minute after
// every fault healed. A later incarnation knows nothing of the failure
// (nothing of the alloc was persisted) and may build it anew if the
// servers never got the failed status.
var buildFailureReported = prop.Property{
	ID:       "AR-3/build-failure-reported",
	Specs:    []string{"AR-3", "SYNC-1", "STATE-3"},
	Doc:      "an alloc whose runner the factory failed to build is reported failed to the servers and not run by that client",
	Profiles: prop.Full | prop.ClientCommunication,
	Faults:   []faults.Class{faults.RunnerBuildFailure, faults.ClientCrash, faults.RPCFailure, faults.RPCLatency},
	Draw:     drawBuildFailures,
	Liveness: time.Minute,
	Situations: []prop.Situation{
		{Name: "build-failed", Doc: "the factory failed for an alloc the client pulled"},
		{Name: "restore-build-failed", Doc: "the factory failed for an alloc the client restored (STATE-3 (3))"},
		{Name: "reported-failed", Doc: "the servers hold such an alloc failed at the end"},
		{Name: "crash-after-failure", Doc: "the client crashed after a build failure: the next incarnation may build it anew"},
	},
	New: func(scenario.Scenario) prop.Checker {
		c := &buildChecker{failedIn: map[string]int{}, failedAt: map[string]time.Time{}}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

type buildChecker struct {
	inc     int       // client starts seen
	startAt time.Time // the running incarnation's start
	// failedIn and failedAt: alloc → the incarnation whose factory last
	// failed for it, and when.
	failedIn map[string]int
	failedAt map[string]time.Time
}

func (c *buildChecker) settled(v *prop.View) {
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			c.inc++
			c.startAt = r.At
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			for _, in := range c.failedIn {
				if in == c.inc {
					v.Reach("crash-after-failure")
					break
				}
			}
		case r.Kind == trace.KindFault && strings.HasPrefix(r.Op, string(faults.RunnerBuildFailure)+" "):
			c.failedIn[r.Alloc], c.failedAt[r.Alloc] = c.inc, r.At
			v.Reach("build-failed")
			if c.inc > 1 && r.At.Equal(c.startAt) {
				v.Reach("restore-build-failed")
			}
		case r.Kind == trace.KindDriver && r.Op == "StartTask":
			if in, ok := c.failedIn[r.Alloc]; ok && in == c.inc {
				v.Violatef(r.Alloc, r.Task, "driver StartTask by the client incarnation whose runner factory failed for the alloc at "+c.failedAt[r.Alloc].UTC().Format(time.RFC3339Nano),
					"a task started", "none: a failed placement is reported failed and not run (AR-3)")
				return
			}
		}
	}
}

func (c *buildChecker) final(v *prop.View) {
	for _, id := range slices.Sorted(maps.Keys(c.failedIn)) {
		if c.failedIn[id] != c.inc {
			continue
		}
		sa := v.ServerAlloc(id)
		if sa == nil {
			continue
		}
		if sa.ClientStatus == structs.AllocClientStatusFailed {
			v.Reach("reported-failed")
			continue
		}
		v.Violatef(id, "", "the servers' ClientStatus of the alloc a minute after healing, the runner factory having failed for it at "+c.failedAt[id].UTC().Format(time.RFC3339Nano),
			sa.ClientStatus, "failed: a factory error makes the client report the alloc failed (AR-3, SYNC-1)")
		return
	}
}

// drawBuildFailures draws a generated scenario with runner_build_failure
// (three runs in four), a crash (three in four) and two to four batch
// jobs placed during the run, so that the factory fails at pulls and at
// restores.
func drawBuildFailures(d *prop.Drawer, env prop.Env) scenario.Scenario {
	sc := scenario.DrawWith(d, scenario.Options{MinDuration: 2 * time.Minute, MaxDuration: 5 * time.Minute, MaxJobs: 3, MaxCalls: 3, Exclude: env.Exclude()})
	if env.Allows(faults.RunnerBuildFailure) && d.IntRange("build failures", 0, 3) > 0 {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.RunnerBuildFailure, Rate: float64(d.IntRange("build failure percent", 20, 60)) / 100})
	}
	secs := int(sc.Duration.D() / time.Second)
	if env.Allows(faults.ClientCrash) && !sc.Faults.Has(faults.ClientCrash) && d.IntRange("crash", 0, 3) > 0 {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.ClientCrash,
			At:  time.Duration(d.IntRange("crash at s", secs/5, secs/2)) * time.Second,
			For: time.Duration(d.IntRange("down for s", 1, 20)) * time.Second})
	}
	for i := range d.IntRange("late jobs", 2, 4) {
		name := fmt.Sprintf("late%d", i+1)
		j := &structs.Job{ID: name, Name: name, Type: structs.JobTypeBatch, TaskGroups: []*structs.TaskGroup{{
			Name: "g1", Count: 1, Tasks: []*structs.Task{{Name: "t1", Driver: "mock_driver", KillTimeout: time.Second, KillSignal: "SIGINT",
				Config: map[string]any{"run_for": d.Duration("late run for", time.Second, 10*time.Second, time.Second).String(), "exit_code": 0}}},
		}}}
		j.Canonicalize()
		at := time.Duration(d.IntRange("late job at s", secs/3, secs-10)) * time.Second
		sc.Jobs = append(sc.Jobs, scenario.JobAt{At: scenario.Duration(at), Job: j})
	}
	slices.SortStableFunc(sc.Jobs, func(a, b scenario.JobAt) int { return cmp.Compare(a.At, b.At) })
	return sc
}
