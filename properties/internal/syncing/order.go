package syncing

import (
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// Properties lists the package's properties in suite order.
func Properties() []prop.Property {
	return []prop.Property{neverOlder, converges}
}

// neverOlder: SYNC-5.4 as far as states can be ordered without the
// runner's internals: per alloc, what the server receives never moves
// back: receive instants, each task's Restarts, its newest event time,
// and a task once finished stays finished; at the end, the server's view
// of each alloc's ClientStatus is linearizable (checkServerView). Crashes are left out: a crash
// after a failed state DB write restores an older persisted state by
// design (STATE-2, STATE-3).
var neverOlder = prop.Property{
	ID:       "SYNC-5/server-never-receives-older",
	Specs:    []string{"SYNC-5", "SYNC-3", "SYNC-1"},
	Doc:      "the server never receives an older state of an alloc after a newer one, through RPC failures, latency and partitions",
	Profiles: prop.Full | prop.ClientCommunication,
	Faults: []faults.Class{faults.RPCFailure, faults.RPCLatency, faults.RPCPartition, faults.DriverExit,
		faults.DriverStartFailure, faults.StateDBWriteFailure},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := scenario.DrawWith(d, scenario.Options{MinDuration: 2 * time.Minute, MaxDuration: 8 * time.Minute, MaxCalls: 2, Exclude: env.Exclude()})
		// One run in four adds a busy node whose calls often take a few
		// seconds and sometimes fail: newer states are pushed while a
		// call carrying an older one is in flight, and it fails.
		if d.IntRange("busy slow failing", 0, 3) == 0 {
			drawBusy(d, env, &sc, true)
			if env.Allows(faults.RPCLatency) {
				replace(&sc, faults.Fault{Class: faults.RPCLatency, Rate: float64(d.IntRange("slow rate percent", 20, 60)) / 100,
					Max: d.Duration("slow max", 2*time.Second, 5*time.Second, 100*time.Millisecond)})
			}
			if env.Allows(faults.RPCFailure) && !sc.Faults.Has(faults.RPCFailure) {
				sc.Faults = append(sc.Faults, faults.Fault{Class: faults.RPCFailure, Rate: float64(d.IntRange("rpc failure percent", 10, 50)) / 100})
			}
		}
		return sc
	},
	Situations: []prop.Situation{
		{Name: "failed-call", Doc: "an UpdateAlloc failed: its entries are re-inserted unless a newer one arrived"},
		{Name: "newer-during-failed-call", Doc: "a newer state of an alloc pushed while a call carrying an older one failed: the newer one kept"},
		{Name: "failed-after-delay", Doc: "a call that failed after the network held it (latency, partition): dropped, never delivered late"},
		{Name: "partition", Doc: "a partition cut the client off from the servers"},
		{Name: "several-updates", Doc: "the server received several states of one alloc"},
		{Name: "restarts-rise", Doc: "the server received a task's Restarts rising"},
		{Name: "finished-received", Doc: "the server received a finished task (FinishedAt), then a later state of its alloc"},
		{Name: "pull-during-update", Doc: "an alloc pull answered while an UpdateAlloc was in flight"},
	},
	New: func(scenario.Scenario) prop.Checker {
		seen := map[string]int{}
		var feed callFeed
		ps := newPushes()
		var index uint64 // the server's log index when its histories were last read
		return prop.Checks{OnFinal: checkServerView, OnSettled: func(v *prop.View) {
			reachOrder(v, &feed, ps)
			srv := v.World.Server()
			// A history grows only in a commit, which starts a new log
			// index: with none since the last read there is nothing new.
			idx := srv.Index()
			if idx == index {
				return
			}
			index = idx
			for _, a := range srv.Allocs() {
				from := max(seen[a.ID], 1) - 1 // the last one read, to compare with
				h := srv.History(a.ID, from)
				for j := 1; j < len(h); j++ {
					i := from + j
					prev, cur := h[j-1], h[j]
					v.Reach("several-updates")
					if cur.At.Before(prev.At) {
						v.Violatef(a.ID, "", "receive time of update "+itoa(i), cur.At.UTC(), "not before "+prev.At.UTC().String())
						return
					}
					for _, name := range structs.SortedTaskNames(cur.State.TaskStates) {
						ts := cur.State.TaskStates[name]
						old := prev.State.TaskStates[name]
						if old == nil || ts == nil {
							continue
						}
						if ts.Restarts > old.Restarts {
							v.Reach("restarts-rise")
						}
						if !old.FinishedAt.IsZero() {
							v.Reach("finished-received")
						}
						switch {
						case ts.Restarts < old.Restarts:
							v.Violatef(a.ID, name, "Restarts received", ts.Restarts, "at least the earlier "+itoa(int(old.Restarts)))
						case lastEvent(ts.Events) < lastEvent(old.Events):
							v.Violatef(a.ID, name, "newest event time received", time.Unix(0, lastEvent(ts.Events)).UTC(),
								"not before the earlier "+time.Unix(0, lastEvent(old.Events)).UTC().String())
						case !old.FinishedAt.IsZero() && ts.FinishedAt.IsZero():
							v.Violatef(a.ID, name, "FinishedAt received", "unset", "the earlier "+old.FinishedAt.UTC().String())
						}
						if v.Failed() {
							return
						}
					}
				}
				seen[a.ID] = from + len(h)
			}
		}}
	},
}

// reachOrder counts the faults and overlaps a run of neverOlder meets.
func reachOrder(v *prop.View, feed *callFeed, ps *pushes) {
	ps.next(v)
	for _, e := range feed.next(v.World) {
		if !e.Return || e.Call.OK() {
			continue
		}
		v.Reach("failed-call")
		if e.Call.Return.Sub(e.Call.Start) > 0 {
			v.Reach("failed-after-delay")
		}
		for _, en := range e.Call.Allocs {
			if ps.changedWithin(en.AllocID, en.State, e.Call.Start, e.Call.Return) {
				v.Reach("newer-during-failed-call")
			}
		}
	}
	for _, r := range v.New {
		if r.Kind == trace.KindFault && r.Op == string(faults.RPCPartition) && r.Msg == "fire" {
			v.Reach("partition")
		}
	}
	inc, _ := v.World.Incarnation()
	for _, r := range rpcRecords(v.New, structs.RPCNodeGetClientAllocs, "reply") {
		if _, ok := feed.inFlight(inc, r.At); ok {
			v.Reach("pull-during-update")
		}
	}
}
