package syncing

import (
	"cmp"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/scenario"
)

// retryMax is the longest SYNC-3 retry delay: the tick after a failed
// UpdateAlloc comes at most this long after it returned.
const retryMax = syncpolicy.RetryBase + syncpolicy.RetryJitter

// lateReport is how long a late urgent state is waited for, so that its
// violation can say when it was sent, before it is reported as not sent.
const lateReport = 30 * time.Second

// urgentFirstTick: SYNC-5.1. Every state a runner pushes that is Urgent
// against its incarnation's acknowledged state (SYNC-2 by
// syncpolicy.StatePriority: its ClientStatus differs; with nothing
// acknowledged only failed) must be carried (it or a newer state of the
// alloc) by an UpdateAlloc that starts within one tick, 200 ms, of the
// push, or of the incarnation's first server contact if it was pushed
// before; an UpdateAlloc in flight moves that to 200 ms after it
// returned, a failed one to the retry tick (at most 10 s after it
// returned). A state superseded before its deadline by one that is not
// urgent, or no longer urgent once a returning call changed the
// acknowledged state, is no longer owed. Exempt, because the spec cannot
// decide them: a push whose incarnation crashed before the deadline, a
// deadline a clock jump overlaps (overdue ticks fire once on resuming),
// and allocs the client holds no runner for at the deadline (SYNC-3 sends
// those never urgent). Acknowledged states across a restart are those the
// restore loaded (the persisted acknowledged_state).
var urgentFirstTick = prop.Property{
	ID:       "SYNC-5/urgent-rides-first-tick",
	Specs:    []string{"SYNC-5", "SYNC-2", "SYNC-3"},
	Doc:      "a ClientStatus change against the acknowledged state is sent on the first tick after it is pushed (servers contacted), or on the tick after the call in flight, or on the retry tick",
	Profiles: prop.Full | prop.ClientCommunication,
	Faults:   syncFaults,
	Draw:     drawSync,
	Situations: []prop.Situation{
		{Name: "status-change-acked", Doc: "a ClientStatus change against the acknowledged state: Urgent"},
		{Name: "failed-none-acked", Doc: "failed with nothing acknowledged: Urgent"},
		{Name: "restored-acked-state", Doc: "urgent against the acknowledged state a restore loaded (a restarted client)"},
		{Name: "pushed-before-contact", Doc: "an urgent state pushed before the servers were contacted: due a tick after the contact"},
		{Name: "call-in-flight", Doc: "an urgent state pushed while an UpdateAlloc was in flight: due a tick after it returns"},
		{Name: "during-retry-backoff", Doc: "an urgent state pushed in a retry backoff: due on the retry tick"},
		{Name: "urgent-call-failed", Doc: "the UpdateAlloc carrying an urgent state failed: it rides the retry"},
		{Name: "superseded-before-deadline", Doc: "an owed urgent state superseded before its deadline by one not urgent"},
		{Name: "acked-meanwhile", Doc: "an owed state no longer urgent once a returning call changed the acknowledged state"},
		{Name: "exempt-crash", Doc: "the pushing incarnation crashed before the deadline (exempt)"},
		{Name: "exempt-clock-jump", Doc: "a clock jump overlaps the deadline (exempt: overdue ticks fire once)"},
		{Name: "exempt-no-runner", Doc: "no runner for the alloc at the deadline (exempt: sent never urgent)"},
	},
	New: func(scenario.Scenario) prop.Checker {
		c := &urgentChecker{acks: newAcks(), incs: newIncarnations(), hist: map[string][]*structs.AllocState{}}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

// owed is one urgent state an UpdateAlloc owes.
type owed struct {
	alloc string
	inc   int
	state *structs.AllocState
	// idx is the state's position in the alloc's history.
	idx    int
	pushAt time.Time
	// acked is the ClientStatus it was urgent against ("" for none).
	acked string
	// late is set once its deadline passed unsent; deadline and why are
	// then fixed.
	late     bool
	deadline time.Time
	why      string
}

type urgentChecker struct {
	feed  callFeed
	acks  *acks
	incs  *incarnations
	jumps []jump
	// hist holds every distinct state seen of each alloc, in order; last
	// is the latest.
	hist map[string][]*structs.AllocState
	open []*owed
	// stats, for tests: obligations made, met in time, exempt.
	made, met, exempted int
	// carried are the calls that carried an owed state (situations only).
	carried map[int]bool
	read    readAllocs
}

func (c *urgentChecker) settled(v *prop.View) {
	inc, running := c.incs.observe(v)
	if running {
		c.acks.start(v, inc, true)
	}
	c.jumps = append(c.jumps, jumpsIn(v.New)...)
	events := c.feed.next(v.World)
	for _, e := range events {
		if e.Return {
			if !e.Call.OK() && c.carried[e.Index] {
				v.Reach("urgent-call-failed")
			}
			c.acks.apply(e)
			c.reconsider(v, e.Call)
			continue
		}
		if c.discharge(v, e.Index, e.Call) {
			return
		}
	}
	c.observePushes(v, inc, events)
	c.checkDeadlines(v)
}

// observePushes records the states pushed since the previous instant
// (the latest of each alloc: within one instant the newest wins, as in
// the buffer) and what each owes.
func (c *urgentChecker) observePushes(v *prop.View, inc int, events []callEvent) {
	for _, a := range v.Allocs() {
		if c.read.unchanged(a) {
			continue
		}
		st := a.SharedClientState() // a is the world's snapshot, never changed
		h := c.hist[a.ID]
		if n := len(h); n > 0 && equal(h[n-1], st) {
			continue
		}
		c.hist[a.ID] = append(h, st)
		acked := c.acks.of(inc, a.ID)
		if !urgent(st, acked) {
			// A state the client may hold supersedes what was owed.
			n := len(c.open)
			c.open = slices.DeleteFunc(c.open, func(o *owed) bool { return o.alloc == a.ID && !c.due(v, o) })
			if len(c.open) < n {
				v.Reach("superseded-before-deadline")
			}
			continue
		}
		o := &owed{alloc: a.ID, inc: inc, state: st, idx: len(h), pushAt: v.Now()}
		c.made++
		if acked != nil {
			o.acked = acked.ClientStatus
		}
		c.reachOwed(v, o, acked)
		if !c.sentWith(o, events) {
			c.open = append(c.open, o)
		} else {
			c.met++
		}
	}
}

// sentWith reports whether a call that started at this instant carries
// o's state.
func (c *urgentChecker) sentWith(o *owed, events []callEvent) bool {
	for _, e := range events {
		if !e.Return && e.Call.Incarnation == o.inc && !e.Call.Start.Before(o.pushAt) && c.carries(o, e.Call) {
			c.carry(e.Index)
			return true
		}
	}
	return false
}

// carry notes that call idx carried an owed state.
func (c *urgentChecker) carry(idx int) {
	if c.carried == nil {
		c.carried = map[int]bool{}
	}
	c.carried[idx] = true
}

// reachOwed counts what an urgent state owed at its push is urgent
// against and what its deadline waits for.
func (c *urgentChecker) reachOwed(v *prop.View, o *owed, acked *structs.AllocState) {
	switch {
	case acked == nil:
		v.Reach("failed-none-acked")
	default:
		v.Reach("status-change-acked")
		if o.inc > 1 && c.acks.at[incAlloc{o.inc, o.alloc}].IsZero() {
			v.Reach("restored-acked-state")
		}
	}
	if contact, ok := v.World.FirstContact(o.inc); !ok || contact.At.After(o.pushAt) {
		v.Reach("pushed-before-contact")
	}
	idx := c.feed.byInc[o.inc]
	if len(idx) == 0 {
		return
	}
	switch last := c.feed.calls[idx[len(idx)-1]]; {
	case !last.Returned || last.Return.After(o.pushAt):
		v.Reach("call-in-flight")
	case last.Err != "" && last.Return.Add(retryMax).After(o.pushAt):
		v.Reach("during-retry-backoff")
	}
}

// carries reports whether call carries o's state or a newer one of its
// alloc.
func (c *urgentChecker) carries(o *owed, call sim.SyncCall) bool {
	h := c.hist[o.alloc]
	for _, en := range call.Allocs {
		if en.AllocID != o.alloc {
			continue
		}
		for _, s := range h[o.idx:] {
			if equal(en.State, s) {
				return true
			}
		}
	}
	return false
}

// discharge settles what the call starting now carries; a late state
// is a violation, reported with the instant it was sent.
func (c *urgentChecker) discharge(v *prop.View, idx int, call sim.SyncCall) bool {
	var late []*owed
	c.open = slices.DeleteFunc(c.open, func(o *owed) bool {
		if o.inc != call.Incarnation || call.Start.Before(o.pushAt) || !c.carries(o, call) {
			return false
		}
		c.carry(idx)
		if !o.late {
			d, why, ok := c.deadline(v, o, idx)
			if !ok || !call.Start.After(d) {
				c.met++
				return true // in time (or not decidable)
			}
			if c.exempt(v, o, d) {
				c.exempted++
				return true
			}
			o.deadline, o.why = d, why
		}
		late = append(late, o)
		return true
	})
	if len(late) == 0 {
		return false
	}
	c.report(v, late[0], "sent "+at(call.Start)+", "+call.Start.Sub(late[0].pushAt).String()+" after the push")
	return true
}

// reconsider drops what a returned call made no longer urgent: the
// acknowledged state changed, and the alloc's latest state is not urgent
// against the new one (the client may hold it).
func (c *urgentChecker) reconsider(v *prop.View, call sim.SyncCall) {
	if !call.OK() {
		return
	}
	n := len(c.open)
	c.open = slices.DeleteFunc(c.open, func(o *owed) bool {
		if o.inc != call.Incarnation || c.due(v, o) {
			return false
		}
		h := c.hist[o.alloc]
		return !urgent(h[len(h)-1], c.acks.of(o.inc, o.alloc))
	})
	if len(c.open) < n {
		v.Reach("acked-meanwhile")
	}
}

// deadline is when a call carrying o must have started, and why: 200 ms
// after the push or the first contact, moved past every UpdateAlloc of
// the incarnation that starts by then (200 ms after one returned; after a
// failed one, to the retry: the next call, or at most 10 s). Only calls
// before index limit count (limit < 0: all). ok is false while it cannot
// be told: no contact yet, or a call that counts still in flight.
func (c *urgentChecker) deadline(v *prop.View, o *owed, limit int) (d time.Time, why string, ok bool) {
	contact, has := v.World.FirstContact(o.inc)
	if !has {
		return time.Time{}, "", false
	}
	d, why = o.pushAt.Add(syncpolicy.TickInterval), "one tick (200ms) after the push"
	if contact.At.After(o.pushAt) {
		d, why = contact.At.Add(syncpolicy.TickInterval), "one tick (200ms) after the first server contact at "+at(contact.At)
	}
	idx := c.feed.byInc[o.inc]
	for i, j := range idx {
		if limit >= 0 && j >= limit {
			break
		}
		call := c.feed.calls[j]
		if call.Start.After(d) {
			break
		}
		if !call.Returned {
			return time.Time{}, "", false
		}
		end, reason := call.Return.Add(syncpolicy.TickInterval), "one tick (200ms) after the UpdateAlloc in flight returned at "+at(call.Return)
		if !call.OK() {
			end, reason = call.Return.Add(retryMax), "the retry tick after the UpdateAlloc that failed at "+at(call.Return)+" (at most 10s)"
			if i+1 < len(idx) && c.feed.calls[idx[i+1]].Start.Before(end) {
				end = c.feed.calls[idx[i+1]].Start // the retry went out then
			}
		}
		if end.After(d) {
			d, why = end, reason
		}
	}
	return d, why, true
}

// due reports whether o's deadline passed before this instant (or it
// is late already): what happens now no longer excuses it.
func (c *urgentChecker) due(v *prop.View, o *owed) bool {
	if o.late {
		return true
	}
	d, _, ok := c.deadline(v, o, -1)
	return ok && d.Before(v.Now())
}

// exempt reports whether the spec cannot decide o by deadline d.
func (c *urgentChecker) exempt(v *prop.View, o *owed, d time.Time) bool {
	stopped, jumped, runnerless := c.incs.stoppedBy(o.inc, d), jumpedWithin(c.jumps, o.pushAt, d), !hasRunner(v, o.inc, o.alloc)
	for _, x := range []struct {
		on   bool
		name string
	}{{stopped, "exempt-crash"}, {jumped, "exempt-clock-jump"}, {runnerless, "exempt-no-runner"}} {
		if x.on {
			v.Reach(x.name)
		}
	}
	return stopped || jumped || runnerless
}

// checkDeadlines marks what passed its deadline unsent late, and
// reports a late state once it waited lateReport or its incarnation
// stopped.
func (c *urgentChecker) checkDeadlines(v *prop.View) {
	now := v.Now()
	slices.SortFunc(c.open, func(a, b *owed) int {
		return cmp.Or(a.pushAt.Compare(b.pushAt), cmp.Compare(a.alloc, b.alloc), cmp.Compare(a.idx, b.idx))
	})
	var drop []*owed
	for _, o := range c.open {
		if !o.late {
			d, why, ok := c.deadline(v, o, -1)
			if !ok || now.Before(d) {
				continue
			}
			if c.exempt(v, o, d) {
				c.exempted++
				drop = append(drop, o)
				continue
			}
			o.late, o.deadline, o.why = true, d, why
		}
		switch {
		case c.incs.stoppedBy(o.inc, now):
			c.report(v, o, "not sent before incarnation "+itoa(o.inc)+" stopped at "+at(c.incs.stopped[o.inc]))
			return
		case now.Sub(o.deadline) >= lateReport:
			c.report(v, o, "not sent by "+at(now)+", "+now.Sub(o.pushAt).String()+" after the push")
			return
		}
	}
	c.open = slices.DeleteFunc(c.open, func(o *owed) bool { return slices.Contains(drop, o) })
}

func (c *urgentChecker) final(v *prop.View) {
	for _, o := range c.open {
		if o.late {
			c.report(v, o, "not sent by the end of the run")
			return
		}
	}
}

func (c *urgentChecker) report(v *prop.View, o *owed, got string) {
	acked := o.acked
	if acked == "" {
		acked = "none"
	}
	v.Violate(prop.Violation{At: o.deadline, Alloc: o.alloc,
		What: "UpdateAlloc carrying the urgent state pushed " + at(o.pushAt) + " by incarnation " + itoa(o.inc) +
			" (ClientStatus " + o.state.ClientStatus + ", acknowledged " + acked + ")",
		Got: got, Want: "started by " + at(o.deadline) + ", " + o.why})
}
