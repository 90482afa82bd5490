package syncing

import (
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/server"
)

// settleTime is how long before the end of the liveness phase a client
// state must have been the latest for the server to be required to have
// it: 5 ticks of 200 ms (SYNC-3) with room for an RPC's latency.
const settleTime = 2 * time.Second

// converges: SYNC-5.3. After the faults heal, the world runs on for a
// minute (a failed call's retry waits at most 10 s, SYNC-3); then for
// every alloc the state the runner had pushed by settleTime before the
// end, or a later one, must have reached the server. Crashes are left out
// here (STATE-3 covers what a restart sends).
var converges = prop.Property{
	ID:       "SYNC-5/converges-after-healing",
	Specs:    []string{"SYNC-5", "SYNC-3"},
	Doc:      "once faults heal, the server's stored state of every alloc converges to what the client last computed",
	Profiles: prop.Full | prop.ClientCommunication,
	Faults: []faults.Class{faults.RPCFailure, faults.RPCLatency, faults.RPCPartition, faults.DriverExit,
		faults.DriverStartFailure, faults.StateDBWriteFailure},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := scenario.DrawWith(d, scenario.Options{MinDuration: 2 * time.Minute, MaxDuration: 6 * time.Minute, MaxCalls: 2, Exclude: env.Exclude()})
		// Most runs also fail many calls, up to the end, so that the
		// last states computed under faults are the ones a lost batch
		// would keep from the server.
		if env.Allows(faults.RPCFailure) && !sc.Faults.Has(faults.RPCFailure) && d.IntRange("heavy rpc failure", 0, 3) > 0 {
			rate := float64(d.IntRange("rpc failure percent", 20, 80)) / 100
			sc.Faults = append(sc.Faults, faults.Fault{Class: faults.RPCFailure, Rate: rate})
		}
		// Half the runs add a busy node whose calls often take a few
		// seconds, to the end: a call is often in flight when the faults
		// heal.
		if d.Bool("busy slow") {
			drawBusy(d, env, &sc, true)
			if env.Allows(faults.RPCLatency) {
				replace(&sc, faults.Fault{Class: faults.RPCLatency, Rate: float64(d.IntRange("slow rate percent", 30, 70)) / 100,
					Max: d.Duration("slow max", 2*time.Second, 5*time.Second, 100*time.Millisecond)})
			}
		}
		return sc
	},
	Liveness: time.Minute,
	Situations: []prop.Situation{
		{Name: "pending-at-heal", Doc: "an alloc whose latest state had not reached the server when the faults healed"},
		{Name: "converged-at-heal", Doc: "an alloc whose latest state the server already had when the faults healed"},
		{Name: "retry-pending-at-heal", Doc: "an UpdateAlloc failed under 10s before healing: its retry comes after"},
		{Name: "call-in-flight-at-heal", Doc: "an UpdateAlloc in flight when the faults healed"},
		{Name: "changed-after-heal", Doc: "an alloc's state changed in the liveness phase"},
		{Name: "failures-to-the-end", Doc: "RPC failures drawn for the whole scenario, up to the healing"},
		{Name: "partition-healed", Doc: "a partition in the run, healed"},
		{Name: "unknown-at-heal", Doc: "an alloc placed on the node of which the client had pushed no state when the faults healed (its pulls failed)"},
	},
	New: func(scenario.Scenario) prop.Checker {
		c := &convergeChecker{pushed: map[string][]pushedState{}}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

// pushedState is a client state and the instant it became the latest.
type pushedState struct {
	at    time.Time
	state *structs.AllocState
}

type convergeChecker struct {
	pushed map[string][]pushedState // alloc → the distinct states the runner pushed, in order
	ids    []string                 // allocs in the order first seen (sorted per instant)
	healed bool                     // the liveness phase was seen
	placed []string                 // the allocs the server placed on the node when the faults healed
	read   readAllocs
}

func (c *convergeChecker) settled(v *prop.View) {
	if v.Phase == prop.Liveness && !c.healed {
		c.healed = true
		c.reachHeal(v)
	}
	for _, a := range v.Allocs() {
		if c.read.unchanged(a) {
			continue
		}
		st := a.SharedClientState() // a is the world's snapshot, never changed
		h := c.pushed[a.ID]
		if h == nil {
			c.ids = append(c.ids, a.ID)
		}
		if n := len(h); n > 0 && equal(h[n-1].state, st) {
			continue
		}
		if c.healed {
			v.Reach("changed-after-heal")
		}
		c.pushed[a.ID] = append(h, pushedState{at: v.Now(), state: st})
	}
}

// reachHeal counts, at the first instant after healing, where the sync
// stood.
func (c *convergeChecker) reachHeal(v *prop.View) {
	srv := v.World.Server()
	c.placed = srv.NodeAllocIDs(v.World.NodeID())
	for _, id := range c.placed {
		if len(c.pushed[id]) == 0 {
			v.Reach("unknown-at-heal")
		}
	}
	for _, id := range c.ids {
		h := c.pushed[id]
		got := srv.History(id, 0)
		if len(h) == 0 || srv.SharedAlloc(id) == nil {
			continue
		}
		if reached(got, h[len(h)-1:]) {
			v.Reach("converged-at-heal")
		} else {
			v.Reach("pending-at-heal")
		}
	}
	now := v.Now()
	calls := v.World.SyncCalls(0)
	for _, call := range calls {
		if call.InFlight(now) {
			v.Reach("call-in-flight-at-heal")
		}
	}
	if n := len(calls); n > 0 && calls[n-1].Returned && calls[n-1].Err != "" && now.Sub(calls[n-1].Return) < retryMax {
		v.Reach("retry-pending-at-heal")
	}
	for _, f := range v.Scenario.Faults {
		switch {
		case f.Class == faults.RPCFailure && f.At == 0 && f.For == 0:
			v.Reach("failures-to-the-end")
		case f.Class == faults.RPCPartition:
			v.Reach("partition-healed")
		}
	}
}

func (c *convergeChecker) final(v *prop.View) {
	cutoff := v.Now().Add(-settleTime)
	srv := v.World.Server()
	// An alloc placed on the node before the faults healed reaches the
	// client once they have: it runs every alloc placed on it (SCOPE-1),
	// whose runner's first state (AR-6: Received, pending) is pushed and
	// synced like any other. A client that stops pulling after a failed
	// pull never learns of it.
	for _, id := range c.placed {
		if len(c.pushed[id]) == 0 && len(srv.History(id, 0)) == 0 {
			v.Violatef(id, "", "client state of an alloc placed on the node before the faults healed, a minute after healing", "none (the client never ran it)", "one, pushed and received by the server")
			return
		}
	}
	for _, id := range c.ids {
		h := c.pushed[id]
		// The state that was the latest at the cutoff, and every later one.
		first := 0
		for i, p := range h {
			if !p.at.After(cutoff) {
				first = i
			}
		}
		if h[first].at.After(cutoff) {
			continue // first pushed after the cutoff
		}
		if srv.SharedAlloc(id) == nil {
			continue // not the server's (never placed here)
		}
		got := srv.History(id, 0)
		if reached(got, h[first:]) {
			continue
		}
		want := h[first].state
		last := "none"
		if n := len(got); n > 0 {
			last = describe(got[n-1].State)
		}
		v.Violatef(id, "", "the server's newest state "+settleTime.String()+" before the end, a minute after healing", last,
			describe(want)+" (the client's since "+h[first].at.UTC().Format(time.RFC3339Nano)+") or a later one")
		return
	}
}

// reached reports whether the server received any of the states (at or
// after the first became the latest).
func reached(got []server.Received, states []pushedState) bool {
	for _, r := range got {
		if r.At.Before(states[0].at) {
			continue
		}
		for _, p := range states {
			if equal(r.State, p.state) {
				return true
			}
		}
	}
	return false
}

// equal is SYNC-2's equality: no difference of any priority.
func equal(a, b *structs.AllocState) bool {
	return a != nil && b != nil && syncpolicy.StatePriority(a, b) == syncpolicy.None
}

func describe(s *structs.AllocState) string {
	if s == nil {
		return "none"
	}
	out := s.ClientStatus
	for _, name := range structs.SortedTaskNames(s.TaskStates) {
		ts := s.TaskStates[name]
		if ts == nil {
			continue
		}
		out += " " + name + "=" + ts.State
		if ts.Restarts > 0 {
			out += "/restarts=" + itoa(int(ts.Restarts))
		}
		out += "/events=" + itoa(len(ts.Events))
	}
	return out
}
