package syncing

import (
	"strconv"
	"time"

	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// minSpacing is SYNC-5.2's bound: without an urgent entry the loop sends
// only on every 5th 200 ms tick after the last success.
const minSpacing = syncpolicy.FullSyncEvery * syncpolicy.TickInterval

// spacedWithoutUrgent: SYNC-5.2. Consecutive UpdateAlloc calls of one
// client incarnation whose later call carries no urgent entry (SYNC-2 by
// syncpolicy.StatePriority against the incarnation's acknowledged state:
// what its restore loaded, then what its calls that returned without
// error carried) start at least 1 s apart; a retry after a failure is 5 s
// or more later anyway. It belongs to the full profile only: the 1 s
// spacing follows from the runner's own classification (GetUpdatePriority),
// and the client-communication profile admits runners that classify more
// eagerly than SYNC-2 (impl/minimal calls every state Urgent, so that
// every push rides the next tick).
var spacedWithoutUrgent = prop.Property{
	ID:       "SYNC-5/spaced-without-urgent",
	Specs:    []string{"SYNC-5", "SYNC-3", "SYNC-2"},
	Doc:      "consecutive UpdateAlloc calls of one client start at least 1s apart unless the later one carries a state urgent against the acknowledged one; after a successful call the next starts on its tick grid (k×200ms after its return, k a multiple of 5 without urgent entry)",
	Profiles: prop.Full,
	Faults:   spacedFaults,
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := scenario.DrawWith(d, syncOptions(env))
		drawBusy(d, env, &sc, true)
		drawHangs(d, env, &sc, false)
		drawHeavyFailure(d, env, &sc)
		return sc
	},
	Situations: []prop.Situation{
		{Name: "typical-call-spaced", Doc: "a call with no urgent entry after another: 5 ticks (1s) after it at least"},
		{Name: "urgent-call-soon", Doc: "a call carrying an urgent entry within 1s of the previous one"},
		{Name: "retry-after-failure", Doc: "a call after a failed one: the retry, 5s to 10s later"},
		{Name: "after-hanging-call", Doc: "a call after one in flight for 5s or more: ticks resume 200ms after its return"},
		{Name: "restarted-client", Doc: "consecutive calls of a restarted client, against what its restore loaded"},
		{Name: "clock-jump", Doc: "a clock jump between two calls"},
		{Name: "on-tick-grid", Doc: "a call after a successful one: on the tick grid of its return (a 5th tick without urgent entry)"},
	},
	New: func(scenario.Scenario) prop.Checker {
		c := &spacedChecker{acks: newAcks(), incs: newIncarnations(), prev: map[int]sim.SyncCall{}}
		return prop.Checks{OnSettled: c.settled}
	},
}

// spacedFaults leave out the driver faults that fail tasks for good: a
// dead node sends nothing to space.
var spacedFaults = []faults.Class{faults.RPCFailure, faults.RPCLatency, faults.RPCPartition, faults.ClientCrash,
	faults.ClockJump, faults.DriverStartDelay}

type spacedChecker struct {
	feed  callFeed
	acks  *acks
	incs  *incarnations
	prev  map[int]sim.SyncCall // incarnation → its latest call
	jumps []jump               // situations only
}

func (c *spacedChecker) settled(v *prop.View) {
	if inc, running := c.incs.observe(v); running {
		c.acks.start(v, inc, true)
	}
	c.jumps = append(c.jumps, jumpsIn(v.New)...)
	for _, e := range c.feed.next(v.World) {
		if e.Return {
			c.acks.apply(e)
			continue
		}
		call := e.Call
		if !call.Live {
			continue
		}
		prev, ok := c.prev[call.Incarnation]
		c.prev[call.Incarnation] = call
		if ok {
			c.reach(v, prev, call)
			if c.offTick(v, c.returned(prev), call) || c.earlyRetry(v, c.returned(prev), call) {
				return
			}
		}
		if !ok || call.Start.Sub(prev.Start) >= minSpacing || c.anyUrgent(call) {
			continue
		}
		alloc := firstAlloc(call)
		v.Violate(prop.Violation{At: call.Start, Alloc: alloc,
			What: "start of an UpdateAlloc of incarnation " + itoa(call.Incarnation) + " with no urgent entry (" + itoa(len(call.Allocs)) + " allocs)",
			Got:  at(call.Start) + ", " + call.Start.Sub(prev.Start).String() + " after the previous one (started " + at(prev.Start) + ")",
			Want: "at least " + minSpacing.String() + " after it (" + at(prev.Start.Add(minSpacing)) + ")"})
		return
	}
}

// returned is call as the feed last saw it (as it returned, if it did).
func (c *spacedChecker) returned(call sim.SyncCall) sim.SyncCall {
	for _, i := range c.feed.byInc[call.Incarnation] {
		if c.feed.calls[i].Seq == call.Seq {
			return c.feed.calls[i]
		}
	}
	return call
}

// offTick checks SYNC-3's tick grid between two consecutive calls of one
// incarnation when the earlier one succeeded: n is 0 and the ticker is
// re-phased to 200 ms after its return, so every later tick, idle or
// parked or not, falls on prev.Return + k×200 ms, and the counter n equals
// k until the next call (an empty batch re-phases from a tick, which
// keeps the grid). So call starts at k×200 ms after it, and, carrying no
// urgent entry, on a 5th tick: k a multiple of 5. Exempt: a clock jump in
// between (overdue ticks fire once on resuming).
func (c *spacedChecker) offTick(v *prop.View, prev, call sim.SyncCall) bool {
	if !prev.OK() || prev.Return.After(call.Start) || jumpedWithin(c.jumps, prev.Return, call.Start) {
		return false
	}
	gap := call.Start.Sub(prev.Return)
	want, every := "", syncpolicy.TickInterval
	switch {
	case gap%syncpolicy.TickInterval != 0:
		want = "on a tick: a multiple of " + syncpolicy.TickInterval.String() + " after it (SYNC-3: next tick 200 ms after the RPC returned)"
	case !c.anyUrgent(call) && gap%minSpacing != 0:
		want, every = "on a 5th tick: a multiple of "+minSpacing.String()+" after it (SYNC-3: n = 0 on success; n mod 5 ≠ 0 and nothing Urgent → nothing)", minSpacing
	default:
		v.Reach("on-tick-grid")
		return false
	}
	alloc := firstAlloc(call)
	v.Violate(prop.Violation{At: call.Start, Alloc: alloc,
		What: "start of an UpdateAlloc of incarnation " + itoa(call.Incarnation) + " (" + itoa(len(call.Allocs)) + " allocs, urgent entry: " + strconv.FormatBool(c.anyUrgent(call)) + ")",
		Got:  at(call.Start) + ", " + gap.String() + " after the previous call returned without error (" + at(prev.Return) + ")",
		Want: want + ", e.g. " + at(prev.Return.Add((gap/every+1)*every))})
	return true
}

// earlyRetry checks SYNC-3's failure step between two consecutive calls
// of one incarnation when the earlier one failed: the next tick, hence
// the next call, comes RetryBase (5 s) or more after it returned, urgent
// entries or not. Exempt: a clock jump in between.
func (c *spacedChecker) earlyRetry(v *prop.View, prev, call sim.SyncCall) bool {
	if !prev.Returned || prev.OK() || prev.Return.After(call.Start) || jumpedWithin(c.jumps, prev.Return, call.Start) {
		return false
	}
	if gap := call.Start.Sub(prev.Return); gap < syncpolicy.RetryBase {
		alloc := firstAlloc(call)
		v.Violate(prop.Violation{At: call.Start, Alloc: alloc,
			What: "start of the UpdateAlloc of incarnation " + itoa(call.Incarnation) + " after a failed one (" + prev.Err + ")",
			Got:  at(call.Start) + ", " + gap.String() + " after the failed call returned (" + at(prev.Return) + ")",
			Want: "at least " + syncpolicy.RetryBase.String() + " after it (SYNC-3: after a failure the next tick comes 5 s + uniform[0, 5 s) later), " + at(prev.Return.Add(syncpolicy.RetryBase)) + " or later"})
		return true
	}
	return false
}

// reach counts what the spacing of call after prev depends on.
func (c *spacedChecker) reach(v *prop.View, prev, call sim.SyncCall) {
	for _, i := range c.feed.byInc[prev.Incarnation] {
		if c.feed.calls[i].Seq == prev.Seq {
			prev = c.feed.calls[i] // as it returned, if it did
		}
	}
	switch {
	case !c.anyUrgent(call):
		v.Reach("typical-call-spaced")
	case call.Start.Sub(prev.Start) < minSpacing:
		v.Reach("urgent-call-soon")
	}
	if prev.Returned && prev.Err != "" {
		v.Reach("retry-after-failure")
	}
	if prev.Returned && prev.Return.Sub(prev.Start) >= 5*time.Second {
		v.Reach("after-hanging-call")
	}
	if call.Incarnation > 1 {
		v.Reach("restarted-client")
	}
	if jumpedWithin(c.jumps, prev.Start, call.Start) {
		v.Reach("clock-jump")
	}
}

// anyUrgent reports whether call carries a state urgent against its
// incarnation's acknowledged one.
func (c *spacedChecker) anyUrgent(call sim.SyncCall) bool {
	for _, en := range call.Allocs {
		if urgent(en.State, c.acks.of(call.Incarnation, en.AllocID)) {
			return true
		}
	}
	return false
}
