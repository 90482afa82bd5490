package restore

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

// gcDeletesState: an alloc the servers garbage-collect (a terminal one
// leaving its node's alloc list, scenario op gc_alloc) is destroyed by
// its client, and Destroy deletes its state DB bucket (AR-1, STATE-2):
// by the end of the run the bucket is gone, also when the client was down
// at the GC (the restarted client restores it, then its first pull
// destroys it), and nothing of the alloc is written after that delete
// (STATE-2: no later PersistState resurrects it). Once destroyed, the
// alloc is unknown to the running client: API-7's client lookup answers
// `Unknown allocation "<id>"` (and Client.AllocRunner has none), so that
// the agent routes a call on it to the servers, as Nomad's client drops
// an alloc the servers removed from its allocs when it destroys the runner.
var gcDeletesState = prop.Property{
	ID:     "STATE-2/gc-deletes-state",
	Specs:  []string{"STATE-2", "AR-1"},
	Doc:    "an alloc the servers garbage-collect is destroyed: its state DB bucket is deleted and nothing of it is written afterwards",
	Faults: []faults.Class{faults.ClientCrash},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := drawCrashes(d, env)
		j := sc.Jobs[0].Job
		stop := d.Duration("stop at", 10*time.Second, 60*time.Second, time.Second)
		sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(stop), Op: scenario.OpStopJob, Job: j.ID})
		tg := j.TaskGroups[0]
		for i := 0; i < tg.Count; i++ {
			for k := 0; k < d.IntRange("gc calls", 1, 3); k++ {
				sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(stop + d.Duration("gc after stop", time.Second, 90*time.Second, 500*time.Millisecond)),
					Op: scenario.OpGCAlloc, Alloc: fmt.Sprintf("%s.%s[%d]", j.ID, tg.Name, i)})
			}
		}
		slices.SortStableFunc(sc.Calls, func(a, b scenario.Call) int { return cmp.Compare(a.At, b.At) })
		return sc
	},
	Liveness: time.Minute,
	Situations: []prop.Situation{
		{Name: "gc-destroyed", Doc: "an alloc garbage-collected, its bucket deleted by the client's Destroy"},
		{Name: "gc-not-terminal", Doc: "a gc_alloc on an alloc not yet terminal on the server: nothing happens"},
		{Name: "gc-while-down", Doc: "an alloc garbage-collected while the client was down: destroyed after the restart"},
		{Name: "several-gcs", Doc: "two allocs garbage-collected"},
		{Name: "gc-unknown-to-client", Doc: "a client running at the end asked about an alloc it destroyed after the GC"},
	},
	New: func(scenario.Scenario) prop.Checker {
		c := &gcChecker{gcAt: map[string]time.Time{}, deleted: map[string]time.Time{}}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

type gcChecker struct {
	gcAt    map[string]time.Time // alloc → when the servers garbage-collected it
	deleted map[string]time.Time // alloc → its bucket's delete after the GC
	up      bool
}

func (c *gcChecker) settled(v *prop.View) {
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			c.up = true
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			c.up = false
		case r.Kind == trace.KindAPI && r.Op == string(scenario.OpGCAlloc):
			if _, ok := c.gcAt[r.Alloc]; !ok && r.Msg == "ok" {
				if sa := v.ServerAlloc(r.Alloc); sa != nil && !(sa.ServerTerminal() && sa.ClientTerminal()) {
					v.Reach("gc-not-terminal")
				}
			}
		case r.Kind == trace.KindJob && r.Op == string(scenario.OpGCAlloc):
			c.gcAt[r.Alloc] = r.At
			if len(c.gcAt) > 1 {
				v.Reach("several-gcs")
			}
			if !c.up {
				v.Reach("gc-while-down")
			}
		case r.Kind == trace.KindStateDB && r.Alloc != "":
			gc, ok := c.gcAt[r.Alloc]
			if !ok {
				continue
			}
			// The trace orders an instant's writes by key, not by when
			// they were made: only a later instant's write is after
			// the delete for sure.
			if at, done := c.deleted[r.Alloc]; done && r.At.After(at) {
				v.Violatef(r.Alloc, r.Task, "state DB write after the alloc's bucket was deleted at "+at.UTC().Format(time.RFC3339Nano), r.Op,
					"none: a destroyed runner writes nothing more (STATE-2)")
				return
			}
			if _, done := c.deleted[r.Alloc]; !done && strings.HasPrefix(r.Op, "delete") && r.Task == "" && r.Msg == "ok" && !r.At.Before(gc) {
				c.deleted[r.Alloc] = r.At
				v.Reach("gc-destroyed")
			}
		}
	}
}

func (c *gcChecker) final(v *prop.View) {
	for _, id := range slices.Sorted(maps.Keys(c.gcAt)) {
		if _, ok := c.deleted[id]; !ok {
			v.Violatef(id, "", "the alloc's state DB bucket a minute after healing, the servers having garbage-collected it at "+c.gcAt[id].UTC().Format(time.RFC3339Nano),
				"not deleted", "deleted: the client destroys a runner whose alloc left the servers, and Destroy deletes the bucket (AR-1, STATE-2)")
			return
		}
	}
	if !c.up {
		return
	}
	cl := v.World.Client()
	if cl == nil {
		return
	}
	for _, id := range slices.Sorted(maps.Keys(c.gcAt)) {
		v.Reach("gc-unknown-to-client")
		if _, ok := cl.AllocRunner(id); ok {
			v.Violatef(id, "", "the running client's AllocRunner of an alloc it destroyed after the servers garbage-collected it, a minute after healing",
				"a runner", "none: the alloc left the servers, so the agent must route calls on it to them (API-7)")
			return
		}
		var reply structs.AllocGetPauseStateResponse
		err := cl.ClientRPC(structs.RPCClientGetPauseState, &structs.AllocGetPauseStateRequest{AllocID: id}, &reply)
		if want := fmt.Sprintf(structs.FmtUnknownAllocation, id); err == nil || !strings.Contains(err.Error(), want) {
			v.Violatef(id, "", "the running client's "+structs.RPCClientGetPauseState+" of an alloc it destroyed after the servers garbage-collected it, a minute after healing",
				fmt.Sprint(err), want+" (API-7: the client's lookup knows no such alloc)")
			return
		}
	}
}
