package sched

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// runCheck checks that the driver starts the scheduled task exactly when
// the oracle says it should run (within the configured start latency)
// and stops it exactly when it should stop (SCHED-5, SCHED-6, PAUSE-3).
type runCheck struct {
	o       *oracle.Oracle
	latency time.Duration
	killAt  time.Time // the alloc kill (AllocKill), zero for none
	changes []oracle.Change
	next    int
	starts  []time.Time
	exits   []time.Time
	stops   []time.Time
	alloc   string
}

func newRunCheck(sc scenario.Scenario, latency time.Duration) *runCheck {
	o := oracle.New(sc, jobID, taskName)
	return &runCheck{o: o, latency: latency, changes: o.Changes(), killAt: AllocKill(sc)}
}

// AllocKill is the instant of the scenario's first stop_job or
// evict_alloc of the package's job, zero for none: from then on the task
// may die (an alloc kill, AR-9, PAUSE-8) and no start is due.
func AllocKill(sc scenario.Scenario) time.Time {
	for _, c := range sc.Calls {
		if c.Op == scenario.OpStopJob && c.Job == jobID || c.Op == scenario.OpEvictAlloc && c.Alloc == AllocName {
			return sc.Start.Add(c.At.D())
		}
	}
	return time.Time{}
}

// killed reports whether the alloc kill happened by t.
func (c *runCheck) killed(t time.Time) bool { return !c.killAt.IsZero() && !t.Before(c.killAt) }

// RunChecker is runCheck as a prop.Checker for the job and task of the
// package's scenarios.
func RunChecker(sc scenario.Scenario, latency time.Duration) prop.Checker {
	c := newRunCheck(sc, latency)
	return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
}

func (c *runCheck) settled(v *prop.View) {
	for _, r := range v.New {
		if r.Kind != trace.KindDriver || r.Task != c.o.Task {
			continue
		}
		c.alloc = r.Alloc
		switch r.Op {
		case "StartTask":
			c.starts = append(c.starts, r.At)
			if !c.o.Run(r.At) && (c.latency == 0 || !c.o.Run(r.At.Add(-c.latency))) {
				v.Violatef(r.Alloc, r.Task, "driver StartTask while the task should be paused (stored state "+
					fmt.Sprintf("%q", c.o.Stored(r.At))+")", "StartTask", "no start")
				return
			}
		case "StopTask":
			c.stops = append(c.stops, r.At)
			if c.o.Run(r.At) && !c.killed(r.At) {
				v.Violatef(r.Alloc, r.Task, "driver StopTask while the task should run", "StopTask "+r.Msg, "no stop")
				return
			}
		case "Exit":
			c.exits = append(c.exits, r.At)
		}
	}
	if a := v.Alloc(c.alloc); a != nil {
		if ts := a.TaskStates[c.o.Task]; ts != nil && ts.State == structs.TaskStateDead && !c.killed(v.Now()) {
			v.Violatef(a.ID, c.o.Task, "task state", ts.State, "pending or running (a scheduled task never dies here)")
			return
		}
	}
	c.due(v, v.Now(), false)
}

func (c *runCheck) final(v *prop.View) { c.due(v, v.Now(), true) }

// due checks every change whose deadline has passed at now.
func (c *runCheck) due(v *prop.View, now time.Time, final bool) {
	for ; c.next < len(c.changes); c.next++ {
		ch := c.changes[c.next]
		if c.killed(ch.At) {
			return // the alloc was killed: nothing is due any more
		}
		deadline := ch.At
		if ch.Run {
			deadline = ch.At.Add(c.latency)
		}
		if !now.After(deadline) && !(final && !deadline.After(now) && deadline.Before(c.o.End)) {
			return
		}
		if ch.Run {
			if !c.alive(ch.At) && !within(c.starts, ch.At, deadline) {
				v.Violate(prop.Violation{At: deadline, Alloc: c.alloc, Task: c.o.Task,
					What: fmt.Sprintf("driver StartTask in [%s, +%s] (the task should run from then, stored state %q)",
						prop.When(ch.At, nil), c.latency, ch.Stored),
					Got: "none", Want: "StartTask"})
				return
			}
		} else if c.alive(ch.At) && !within(c.stops, ch.At, ch.At) {
			v.Violate(prop.Violation{At: ch.At, Alloc: c.alloc, Task: c.o.Task,
				What: fmt.Sprintf("driver StopTask at the instant the task should pause (stored state %q)", ch.Stored),
				Got:  "none", Want: "StopTask"})
			return
		}
	}
}

// alive reports whether the task had a live handle just before t.
func (c *runCheck) alive(t time.Time) bool {
	var last time.Time
	for _, s := range c.starts {
		if s.Before(t) {
			last = s
		}
	}
	if last.IsZero() {
		return false
	}
	for _, e := range c.exits {
		if !e.Before(last) && e.Before(t) {
			return false
		}
	}
	return true
}

func within(ts []time.Time, lo, hi time.Time) bool {
	for _, t := range ts {
		if !t.Before(lo) && !t.After(hi) {
			return true
		}
	}
	return false
}
