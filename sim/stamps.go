package sim

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
)

// The stamp check: DET-1's clock rule and SYNC-1's "pushed at once". A
// runner that reads a clock not in step with the world's is caught where
// the world observes a pushed alloc: every stamp the world has not seen
// before for that alloc (a task event's Time, a task state's StartedAt,
// FinishedAt and LastRestart, the deployment status's Timestamp) must be
// the virtual now of the instant it is pushed. The time package inside
// the simulation is the bubble's clock, kept in step with the world's
// (instep.go), so reading it is fine; a clock of its own (an offset, a
// fixed instant, a clock built outside the run) is not. That is exact,
// not a tolerance: the clock moves only between settled instants, and
// SYNC-1 pushes every change at once, so a change made at an instant is
// pushed at that instant (a push a step later within the instant carries
// the same virtual time). A stamp of an earlier instant of the run is a
// change pushed late: SYNC-1's verdict, not DET-1's. The one sound
// exception is restored state: a
// stamp pushed by incarnation n > 1 that is no later than the instant it
// started and not before the run's start may come from the state DB
// (made by an earlier incarnation and persisted, but never pushed, or
// pushed so long ago that the world forgot it, e.g. an older snapshot
// left by a failed state DB write), and passes.
//
// "Not seen before" is by value: events by their fields (with how many
// equal events one push held), state times per field, over the pushes
// the world observed of that alloc (across incarnations), so an older
// copy pushed late by another goroutine, or a restored event the world
// already saw, is not new. Only the run's first offending stamp is
// reported, with a count, at Close.

// stampEvent identifies a task event by value (its Details aside).
type stampEvent struct {
	typ, msg, display                  string
	restart, kill, setupErr, driverErr string
	at                                 int64
	exit, signal                       int
	fails                              bool
}

func eventKey(e *structs.TaskEvent) stampEvent {
	return stampEvent{typ: e.Type, msg: e.Message, display: e.DisplayMessage,
		restart: e.RestartReason, kill: e.KillReason, setupErr: e.SetupError, driverErr: e.DriverError,
		at: e.Time, exit: e.ExitCode, signal: e.Signal, fails: e.FailsTask}
}

// stateField names the task state times checked, in check order.
var stateFields = [...]string{"StartedAt", "FinishedAt", "LastRestart"}

// recentStamps is how many recent values of one time field are
// remembered (an older copy pushed late carries one of them).
const recentStamps = 4

// taskStamps is what the world has seen of one task's stamps.
type taskStamps struct {
	events map[stampEvent]int // most equal events in one push
	times  [len(stateFields)][]int64
}

// allocStamps is what the world has seen of one alloc's stamps.
type allocStamps struct {
	tasks      map[string]*taskStamps
	deployment []int64
}

// stampOffense is one stamp that broke the rule.
type stampOffense struct {
	now         time.Time
	alloc, task string
	ord         int // field order within the task: events first, by position
	what, got   string
	msg         string
}

// stampLog is one of the run's stamp verdicts: the first offense (the
// earliest instant, then by alloc, task and field, so it does not depend
// on which goroutine pushed first) and how many there were.
type stampLog struct {
	first    *stampOffense
	count    int
	reported bool
}

// pushStamps is a push's context: when, by which incarnation.
type pushStamps struct {
	now, incStart, runStart time.Time
	inc                     int
}

// checkStamps checks the new stamps of pushed alloc a against what the
// world saw of it (s) and remembers them. Called with w.mu held. prev is
// the world's copy of the alloc's previous push (nil: none): a task state
// a shares with it (CopySkipJobReusing shares only a state equal in every
// field) was checked and remembered as it is at that push, so checking it
// again finds nothing new and changes nothing; it is skipped.
func (w *World) checkStamps(s *allocStamps, a, prev *structs.Allocation, p pushStamps) {
	if s.tasks == nil {
		s.tasks = map[string]*taskStamps{}
	}
	for _, name := range structs.SortedTaskNames(a.TaskStates) {
		ts := a.TaskStates[name]
		if ts == nil || prev != nil && prev.TaskStates[name] == ts {
			continue
		}
		t := s.tasks[name]
		if t == nil {
			t = &taskStamps{events: map[stampEvent]int{}}
			s.tasks[name] = t
		}
		var prevTS *structs.TaskState
		if prev != nil {
			prevTS = prev.TaskStates[name]
		}
		w.checkTaskStamps(t, a.ID, name, ts, prevTS, p)
	}
	if d := a.DeploymentStatus; d != nil && !d.Timestamp.IsZero() {
		if at := d.Timestamp.UnixNano(); remember(&s.deployment, at) {
			w.checkStamp(p, a.ID, "", 0, "DeploymentStatus.Timestamp", d.Timestamp)
		}
	}
}

// checkTaskStamps checks one pushed task state ts against what the world
// saw of the task (t); prevTS is the task's state in the world's copy of
// the alloc's previous push (nil: none). An event of ts that is one of
// prevTS's (the copy shares an event equal to one of the previous copy's)
// was counted at that push, so a value all of whose events are such, each
// held once, was seen at least as many times as ts holds it: only the
// values of the other events can be new, and only those are counted (hashing every event's value at every push was
// 2 % of a conformance check's CPU).
func (w *World) checkTaskStamps(t *taskStamps, alloc, task string, ts, prevTS *structs.TaskState, p pushStamps) {
	var inline [4]stampEvent
	fresh := inline[:0] // the values of events not shared with prevTS
	oldest, found := int64(0), false
	for i, e := range ts.Events {
		if e == nil {
			continue
		}
		if !found || e.Time < oldest {
			oldest, found = e.Time, true
		}
		// Shared, and held once: an event ts holds twice counts twice,
		// once more than the previous push may have.
		if prevTS != nil && slices.Contains(prevTS.Events, e) && !slices.Contains(ts.Events[:i], e) {
			continue
		}
		if k := eventKey(e); !slices.Contains(fresh, k) {
			fresh = append(fresh, k)
		}
	}
	if len(fresh) > 0 {
		// The push's counts of those values, in a map the world reuses
		// (w.mu is held).
		counts := w.stampCounts
		if counts == nil {
			counts = map[stampEvent]int{}
			w.stampCounts = counts
		}
		clear(counts)
		for i, e := range ts.Events {
			if e == nil {
				continue
			}
			k := eventKey(e)
			if !slices.Contains(fresh, k) {
				continue
			}
			counts[k]++
			// checkStamp's first test, made before its message is built.
			if at := time.Unix(0, e.Time); counts[k] > t.events[k] && !at.Equal(p.now) {
				w.checkStamp(p, alloc, task, i, fmt.Sprintf("TaskEvent %q.Time", e.Type), at)
			}
		}
		for k, n := range counts {
			t.events[k] = max(t.events[k], n)
		}
	}
	// Forget events older than the push's oldest: they left the
	// MaxTaskEvents window (DATA-6).
	for k := range t.events {
		if k.at < oldest {
			delete(t.events, k)
		}
	}
	for i, v := range [...]time.Time{ts.StartedAt, ts.FinishedAt, ts.LastRestart} {
		if !v.IsZero() && remember(&t.times[i], v.UnixNano()) {
			w.checkStamp(p, alloc, task, len(ts.Events)+i, "TaskState."+stateFields[i], v)
		}
	}
}

// remember adds at to the recent values and reports whether it is new.
func remember(recent *[]int64, at int64) bool {
	for _, v := range *recent {
		if v == at {
			return false
		}
	}
	if len(*recent) == recentStamps {
		*recent = (*recent)[1:]
	}
	*recent = append(*recent, at)
	return true
}

// checkStamp applies the rule to one new stamp at and logs an offense.
func (w *World) checkStamp(p pushStamps, alloc, task string, ord int, what string, at time.Time) {
	if at.Equal(p.now) {
		return
	}
	restorable := p.inc > 1 && !at.Before(p.runStart) && !at.After(p.incStart)
	if restorable {
		return
	}
	want := "want the world's virtual now " + instant(p.now)
	if p.inc > 1 {
		want += fmt.Sprintf(" or, restored from an earlier incarnation, an instant from %s to %s",
			instant(p.runStart), instant(p.incStart))
	}
	loc := alloc
	if task != "" {
		loc += "/" + task
	}
	o := &stampOffense{now: p.now, alloc: alloc, task: task, ord: ord, what: what, got: instant(at),
		msg: fmt.Sprintf("%s @%s: %s = %s, %s (the runner read a clock other than the injected one, or one not in step with it)",
			loc, instant(p.now), what, instant(at), want)}
	l := &w.stamps[stampClock]
	if !at.Before(p.runStart) && at.Before(p.now) {
		// A stamp of an earlier instant of the run: a change pushed
		// after the instant it was made, a behaviour of SYNC-1, not a
		// clock.
		o.msg = fmt.Sprintf("%s @%s: %s = %s, pushed %s after the instant it was made; want it pushed at that instant (every change is pushed at once)",
			loc, instant(p.now), what, instant(at), p.now.Sub(at))
		l = &w.stamps[stampLate]
	}
	l.count++
	if l.first == nil || o.before(l.first) {
		l.first = o
	}
}

func (o *stampOffense) before(p *stampOffense) bool {
	return cmp.Or(o.now.Compare(p.now), cmp.Compare(o.alloc, p.alloc), cmp.Compare(o.task, p.task),
		cmp.Compare(o.ord, p.ord), cmp.Compare(o.what, p.what), cmp.Compare(o.got, p.got)) < 0
}

// The two verdicts of the stamp check.
const (
	stampClock = iota // DET-1: a stamp that is no instant of the run's past
	stampLate         // SYNC-1: a stamp of an earlier instant, pushed late
)

// stampRule is each verdict's rule, as its message starts.
var stampRule = [...]string{stampClock: "DET-1", stampLate: "SYNC-1"}

// reportStamps reports the run's stamp verdicts once each, as
// violations; the world calls it when it observes the closing run.
func (w *World) reportStamps() {
	for kind := range w.stamps {
		w.mu.Lock()
		l := &w.stamps[kind]
		if l.reported || l.first == nil {
			w.mu.Unlock()
			continue
		}
		l.reported = true
		first, n := l.first, l.count
		w.mu.Unlock()
		count := "the only such stamp in the run"
		if n > 1 {
			count = fmt.Sprintf("the first of %d such stamps in the run", n)
		}
		// Flushed first, so the violation follows this instant's records.
		w.rec.Flush()
		w.violation("%s (runner %q, seed %d): %s; %s", stampRule[kind], w.cfg.Factory.Name, w.sc.Seed, first.msg, count)
	}
}
