package restore

import (
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

// failedRestore: STATE-3 (4). An alloc restored with task state whose
// runner's Restore fails (here: its alloc dir is gone, `allocation
// directory is inaccessible`) is reported failed (SetClientStatus) and
// destroyed: the tasks its Restore recovered are killed, and that client
// does not run it again while the servers keep it placed here (a client
// restarted later may, if the servers never got the failed status).
var failedRestore = prop.Property{
	ID:     "STATE-3/failed-restore",
	Specs:  []string{"STATE-3", "AR-1"},
	Doc:    "an alloc whose restore fails is reported failed to the server, its recovered tasks are killed (Destroy) and it is not run again, nor fetched again while its index stays",
	Faults: []faults.Class{faults.ClientCrash, faults.AllocDirLoss, faults.StateDBWriteFailure},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := drawCrashes(d, env)
		if env.Allows(faults.AllocDirLoss) {
			sc.Faults = append(sc.Faults, faults.Fault{Class: faults.AllocDirLoss, Rate: float64(d.IntRange("alloc dir loss percent", 30, 100)) / 100})
		}
		// One run in two crashes again right after the first restart,
		// while the failed restores' Destroys still kill the recovered
		// tasks: the client's Shutdown must wait for them (it returns
		// only when all of its goroutines have ended, interfaces.Client).
		if first := sc.Faults[0]; d.Bool("crash during destroy") {
			sc.Faults = append(sc.Faults, faults.Fault{Class: faults.ClientCrash, At: first.At + first.For + d.Duration("crash after restart", 100*time.Millisecond, 400*time.Millisecond, 100*time.Millisecond),
				For: d.Duration("down again for", time.Second, 10*time.Second, time.Second)})
		}
		last := sc.Faults.Of(faults.ClientCrash)
		drawLatePlacements(d, &sc, last[len(last)-1].At+last[len(last)-1].For)
		return sc
	},
	Liveness: time.Minute,
	Situations: []prop.Situation{
		{Name: "restore-failed", Doc: "an alloc with task state lost its alloc dir at a restart: its Restore failed"},
		{Name: "recovered-then-killed", Doc: "a task of such an alloc was running at the crash: recovered by Restore, killed by Destroy"},
		{Name: "lost-without-state", Doc: "an alloc the restore does not load with task state lost its dir: skipped by the restore, run anew (STATE-3 (1), (2))"},
		{Name: "several-allocs-lost", Doc: "two allocs lost their dirs at one restart"},
		{Name: "crash-during-destroy", Doc: "a crash while a failed restore's Destroy still kills recovered tasks"},
		{Name: "later-fetch", Doc: "an incarnation's Alloc.GetAllocs after its first one (late placements): nothing it fetched before at the same index is fetched again"},
	},
	New: func(scenario.Scenario) prop.Checker {
		c := &failedChecker{stored: &loadable{}, failed: map[string]time.Time{}, failIn: map[string]int{}, live: map[key]bool{}}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

type failedChecker struct {
	stored *loadable            // what the state DB holds for the next restore
	loaded map[string]bool      // alloc → this incarnation's restore loaded it with task state
	failed map[string]time.Time // alloc → the restart whose Restore of it failed, while no later incarnation ran it
	inc    int                  // client starts seen
	failIn map[string]int       // alloc → the incarnation whose Restore of it failed
	live   map[key]bool         // task → running on a driver of this incarnation (started or recovered, not exited or destroyed)
	fetch  fetches
}

// reachCrash counts a crash while a task of a failed restore still runs.
func (c *failedChecker) reachCrash(v *prop.View) {
	for k := range c.live {
		if _, ok := c.failed[k.Alloc]; ok {
			v.Reach("crash-during-destroy")
		}
	}
}

func (c *failedChecker) settled(v *prop.View) {
	lost := 0
	// The trace orders an instant's records by kind and alloc, not by
	// when they happened: a task recovered and killed at one instant
	// ended then.
	started, ended := map[key]bool{}, map[key]bool{}
	for _, r := range v.New {
		k := key{Alloc: r.Alloc, Task: r.Task}
		if c.fetch.settled(v, r); v.Failed() {
			return
		}
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			c.reachCrash(v)
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			// A task of an earlier incarnation runs on for this one only
			// once it recovers it (one whose alloc was skipped, STATE-3
			// (2), is nobody's to kill).
			clear(c.live)
			c.inc++
			c.loaded = c.stored.started()
		case r.Kind == trace.KindFault && strings.HasPrefix(r.Op, string(faults.AllocDirLoss)+" "):
			if lost++; lost > 1 {
				v.Reach("several-allocs-lost")
			}
			if !c.loaded[r.Alloc] {
				v.Reach("lost-without-state")
				continue
			}
			if _, ok := c.failed[r.Alloc]; !ok {
				c.failed[r.Alloc], c.failIn[r.Alloc] = r.At, c.inc
			}
			c.fetch.restoreFailed(r.Alloc)
			v.Reach("restore-failed")
		case r.Kind == trace.KindDriver && (r.Op == "StartTask" || r.Op == "RecoverTask") && r.Msg == "ok":
			started[k] = true
			at, ok := c.failed[r.Alloc]
			if ok && r.Op == "StartTask" && c.failIn[r.Alloc] < c.inc {
				// A later incarnation knows nothing of the failure (the
				// destroy deleted the bucket): the servers still place
				// the alloc here unless they got the failed status, and
				// the new client runs it anew.
				delete(c.failed, r.Alloc)
				started[k] = true
				continue
			}
			if ok && r.Op == "StartTask" {
				v.Violatef(r.Alloc, r.Task, "driver StartTask after the alloc's restore failed at "+at.UTC().Format(time.RFC3339Nano), "a task started", "none: the alloc is reported failed and not run again (STATE-3 (4))")
				return
			}
			if ok {
				v.Reach("recovered-then-killed")
			}
		case r.Kind == trace.KindDriver && (r.Op == "Exit" || r.Op == "DestroyTask"):
			ended[k] = true
		}
	}
	for k := range started {
		c.live[k] = true
	}
	for k := range ended {
		delete(c.live, k)
	}
	c.stored.settled(v)
}

func (c *failedChecker) final(v *prop.View) {
	for _, id := range slices.Sorted(maps.Keys(c.failed)) {
		for _, k := range slices.SortedFunc(maps.Keys(c.live), func(a, b key) int { return strings.Compare(a.Alloc+"/"+a.Task, b.Alloc+"/"+b.Task) }) {
			if k.Alloc == id {
				v.Violatef(k.Alloc, k.Task, "driver task after the alloc's restore failed, a minute after healing", "still running", "killed: a failed restore destroys the runner (STATE-3 (4))")
				return
			}
		}
		sa := v.ServerAlloc(id)
		if sa == nil {
			continue
		}
		if sa.ClientStatus != structs.AllocClientStatusFailed {
			v.Violatef(id, "", "the server's ClientStatus after the alloc's restore failed, a minute after healing", sa.ClientStatus, structs.AllocClientStatusFailed+" (SetClientStatus(failed), STATE-3 (4))")
			return
		}
	}
}
