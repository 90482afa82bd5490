package restore

import (
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

// shutdownWrites: STATE-2's writes "on shutdown", at a graceful client
// restart (an agent restart, client_restart: Shutdown with the state DB,
// the servers and the driver still there). While the client shuts down,
// it writes the `alloc` of every alloc it runs, and each task runner
// that ran writes its `local_state`; a failed write counts (it is
// logged). Every other restart the suite draws is a crash, which writes
// nothing: without a graceful one, a runner that forgets these writes
// passes, and only a state DB write lost earlier would tell (its
// shutdown write would have repaired it). A graceful stop is also where
// Shutdown cancels calls in flight: the world reports a Shutdown that
// returns before a call it cancelled ended (a goroutine outlived it).
var shutdownWrites = prop.Property{
	ID:     "STATE-2/shutdown-writes",
	Specs:  []string{"STATE-2"},
	Doc:    "a graceful client restart writes, during Shutdown, the alloc entry of every alloc the client runs and the local_state of every task runner that ran; Shutdown returns with no call of the client in flight",
	Faults: []faults.Class{faults.ClientRestart, faults.ClientCrash, faults.RPCLatency, faults.StateDBWriteFailure, faults.DriverRecoverFailure},
	Draw:   drawRestarts,
	Situations: []prop.Situation{
		{Name: "alloc-written-at-stop", Doc: "an alloc the stopping client ran got its alloc entry written during Shutdown"},
		{Name: "local-state-written-at-stop", Doc: "a task runner that ran wrote its local_state during Shutdown"},
		{Name: "restored-after-stop", Doc: "the client started again after a graceful stop and restored from the state DB"},
		{Name: "crash-after-stop", Doc: "a crash in a later incarnation than a graceful stop"},
		{Name: "update-in-flight-at-stop", Doc: "a Node.UpdateAlloc in flight when Shutdown began, ended by it (the sync loop must end before Shutdown returns)"},
	},
	New: func(scenario.Scenario) prop.Checker {
		c := &shutdownChecker{allocs: map[string]bool{}, tasks: map[key]bool{}}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

// drawRestarts draws drawCrashes' scenario with its first restart
// graceful (client_restart) and a second one graceful on some runs. On
// one run in two the group also has a task that fails every few seconds
// and restarts after a second, so that updates keep coming, and every
// call takes up to seconds (rpc_latency on all calls): an update is then
// often in flight when Shutdown begins, and Shutdown must wait for the
// sync loop that makes it.
func drawRestarts(d *prop.Drawer, env prop.Env) scenario.Scenario {
	sc := drawCrashes(d, env)
	if env.Allows(faults.RPCLatency) && d.Bool("stop during calls") {
		tg := sc.Jobs[0].Job.TaskGroups[0]
		tg.Tasks = append(tg.Tasks, task("flaky", nil,
			map[string]any{"run_for": d.Duration("flaky run", time.Second, 3*time.Second, 100*time.Millisecond).String(), "exit_code": 1}))
		tg.RestartPolicy = structs.NewRestartPolicy(1000, time.Hour, time.Second, structs.RestartPolicyModeDelay)
		sc.Jobs[0].Job.Canonicalize()
		sc.Faults[0].At = d.Duration("stop at", 4*time.Second, 30*time.Second, 10*time.Millisecond)
		latency := faults.Fault{Class: faults.RPCLatency, Rate: 1, Max: d.Duration("latency max", 2*time.Second, 6*time.Second, 100*time.Millisecond)}
		if i := slices.IndexFunc(sc.Faults, func(f faults.Fault) bool { return f.Class == faults.RPCLatency }); i >= 0 {
			sc.Faults[i] = latency
		} else {
			sc.Faults = append(sc.Faults, latency)
		}
	}
	first := true
	for i, f := range sc.Faults {
		if f.Class != faults.ClientCrash {
			continue
		}
		if first || d.Bool("graceful restart") {
			sc.Faults[i].Class = faults.ClientRestart
		}
		first = false
	}
	return sc
}

// shutdownChecker follows one incarnation at a time: what it ran, and
// during a graceful stop what Shutdown wrote.
type shutdownChecker struct {
	allocs   map[string]bool // allocs the incarnation runs: added (`alloc` written) or prerun (alloc_dir Build), not destroyed
	tasks    map[key]bool    // task runners that ran in it: a prestart (task_dir Build) or a local_state write
	stopping bool            // between a client_stop and the next client_start
	stopped  bool            // a graceful stop happened
	wantA    map[string]bool // the stop's alloc entries not written yet
	wantT    map[key]bool    // the stop's local_state entries not written yet
}

func (c *shutdownChecker) settled(v *prop.View) {
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStop:
			c.stopping, c.stopped = true, true
			c.wantA, c.wantT = maps.Clone(c.allocs), maps.Clone(c.tasks)
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			if c.stopped {
				v.Reach("crash-after-stop")
			}
			c.forget()
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			if c.stopping {
				if c.check(v); v.Failed() {
					return
				}
				v.Reach("restored-after-stop")
			}
			c.stopping = false
			c.forget()
		case r.Kind == trace.KindRPC && r.Op == "Node.UpdateAlloc" && r.Msg == "fail" && c.stopping:
			v.Reach("update-in-flight-at-stop")
		case r.Kind == trace.KindStateDB:
			c.write(v, r)
		case r.Kind == trace.KindPort && r.Op == trace.PortAllocDirBuild:
			c.allocs[r.Alloc] = true
		case r.Kind == trace.KindPort && r.Op == trace.PortTaskDirBuild:
			c.tasks[key{Alloc: r.Alloc, Task: r.Task}] = true
		}
	}
}

// write follows one state DB write record.
func (c *shutdownChecker) write(v *prop.View, r trace.Record) {
	k := key{Alloc: r.Alloc, Task: r.Task}
	switch {
	case r.Op == "put alloc":
		c.allocs[r.Alloc] = true
		if c.stopping && c.wantA[r.Alloc] {
			delete(c.wantA, r.Alloc)
			v.Reach("alloc-written-at-stop")
		}
	case r.Op == "put local_state":
		c.tasks[k] = true
		if c.stopping && c.wantT[k] {
			delete(c.wantT, k)
			v.Reach("local-state-written-at-stop")
		}
	case strings.HasPrefix(r.Op, "delete") && r.Task == "":
		// Destroy deleted the alloc's bucket: the runner is gone.
		delete(c.allocs, r.Alloc)
		for t := range c.tasks {
			if t.Alloc == r.Alloc {
				delete(c.tasks, t)
			}
		}
	}
}

// check reports an alloc or a task runner of the stopped incarnation
// whose STATE-2 shutdown write did not come while it shut down.
func (c *shutdownChecker) check(v *prop.View) {
	for _, id := range slices.Sorted(maps.Keys(c.wantA)) {
		v.Violatef(id, "", "alloc entry writes while the client shut down gracefully (an alloc it ran)", "none",
			"one: STATE-2 writes `alloc` on shutdown")
		return
	}
	for _, k := range slices.SortedFunc(maps.Keys(c.wantT), func(a, b key) int { return strings.Compare(a.Alloc+"/"+a.Task, b.Alloc+"/"+b.Task) }) {
		v.Violatef(k.Alloc, k.Task, "local_state writes while the client shut down gracefully (a task runner that ran)", "none",
			fmt.Sprintf("one: STATE-2 writes `local_state` on shutdown (%s ran in the stopped incarnation)", k.Task))
		return
	}
}

// final checks a graceful stop that the run ended before any restart.
func (c *shutdownChecker) final(v *prop.View) {
	if c.stopping {
		c.check(v)
	}
}

// forget starts a new incarnation: it has run nothing yet.
func (c *shutdownChecker) forget() {
	c.allocs, c.tasks = map[string]bool{}, map[key]bool{}
}
