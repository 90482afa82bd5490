package mutants

import (
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/hashicorp/cronexpr"
)

// This file holds the schedule mutants' evaluators (each a
// taskrunner.ScheduleEvaluator). model/schedule is the reference and is
// not changed; sched-utc wraps it, sched-dst-naive and sched-nomad-window
// re-derive SCHED-5 windows on their own (naiveEval) so that exactly one
// rule differs.

// evalUTC is sched-utc's evaluator: the schedule's Timezone is replaced by
// UTC (SCHED-4 broken), everything else is the reference's.
func evalUTC(s *schedule.Schedule, at time.Time, local *time.Location) (schedule.Result, error) {
	if s != nil && s.Cron != nil {
		c := *s.Cron
		c.Timezone = "UTC"
		s = &schedule.Schedule{Cron: &c}
	}
	return schedule.Evaluate(s, at, local)
}

// evalDSTNaive is sched-dst-naive's evaluator: SCHED-5 windows with a
// start or end in a spring-forward gap read with the post-gap offset
// (SCHED-6 broken: New York 2024-03-10 02:30 is 01:30 EST, not 03:30 EDT).
func evalDSTNaive(s *schedule.Schedule, at time.Time, local *time.Location) (schedule.Result, error) {
	e, err := newNaiveEval(s, local, true)
	if err != nil {
		return schedule.Result{}, err
	}
	return e.evaluate(at), nil
}

// naiveEval is a direct reading of SCHED-5/6/8: cron expressions are
// matched on naive local date-times (encoded in UTC) and mapped to
// instants; postGap selects the defect of sched-dst-naive. Day-of-week
// fields are matched by cronexpr as is (model/schedule also repairs
// cronexpr's `5-7` and `05` readings, SCHED-3; the mutant schedules used
// by the suite do not need that).
type naiveEval struct {
	loc        *time.Location
	start, end *cronexpr.Expression
	postGap    bool
}

// scanSlack bounds how far (in naive time) a match can map from its
// instant: more than any offset change of one transition.
const scanSlack = 3 * time.Hour

// lookBack is how far back a window's start can lie (48 naive hours, the
// hint of SCHED-8).
const lookBack = 50 * time.Hour

func newNaiveEval(s *schedule.Schedule, local *time.Location, postGap bool) (*naiveEval, error) {
	c, err := schedule.Compile(s, local) // the reference's errors, in its order
	if err != nil {
		return nil, err
	}
	start, err := cronexpr.Parse(s.Cron.Start)
	if err != nil {
		return nil, err
	}
	end, err := cronexpr.Parse(s.Cron.End + " * * * *")
	if err != nil {
		return nil, err
	}
	return &naiveEval{loc: c.Location(), start: start, end: end, postGap: postGap}, nil
}

// naive is u's local wall-clock date-time, encoded in UTC.
func (e *naiveEval) naive(u time.Time) time.Time {
	l := u.In(e.loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// resolve maps naive date-time n to its instant (SCHED-6): the first of
// its occurrences; in a gap, read with the pre-gap offset (postGap: the
// post-gap offset, the defect).
func (e *naiveEval) resolve(n time.Time) time.Time {
	ns := n.Unix()
	offset := func(u int64) int64 { _, o := time.Unix(u, 0).In(e.loc).Zone(); return int64(o) }
	pre, post := offset(ns-86400), offset(ns+86400)
	var found []int64
	for _, o := range []int64{pre, post} {
		if u := ns - o; offset(u) == o {
			found = append(found, u)
		}
	}
	if len(found) > 0 {
		return time.Unix(slices.Min(found), 0).In(e.loc)
	}
	if e.postGap {
		return time.Unix(ns-post, 0).In(e.loc)
	}
	return time.Unix(ns-pre, 0).In(e.loc)
}

// first is the earliest instant of expr's matches after u (strict) or at
// or after u; zero if none.
func (e *naiveEval) first(expr *cronexpr.Expression, u time.Time, orAt bool) time.Time {
	var best, bestN time.Time
	for n := expr.Next(e.naive(u).Add(-scanSlack - time.Second)); !n.IsZero(); n = expr.Next(n) {
		if !best.IsZero() && n.After(bestN.Add(scanSlack)) {
			break
		}
		s := e.resolve(n)
		if (s.After(u) || (orAt && s.Equal(u))) && (best.IsZero() || s.Before(best)) {
			best, bestN = s, n
		}
	}
	return best
}

// last is the latest instant of expr's matches before u (strict) or at or
// before u, looking back lookBack; zero if none.
func (e *naiveEval) last(expr *cronexpr.Expression, u time.Time, orAt bool) time.Time {
	var best time.Time
	limit := e.naive(u).Add(scanSlack)
	for n := expr.Next(e.naive(u).Add(-lookBack)); !n.IsZero() && !n.After(limit); n = expr.Next(n) {
		s := e.resolve(n)
		if (s.Before(u) || (orAt && s.Equal(u))) && s.After(best) {
			best = s
		}
	}
	return best
}

// evaluate is SCHED-8 on this evaluator's instants.
func (e *naiveEval) evaluate(at time.Time) schedule.Result {
	var r schedule.Result
	if l := e.last(e.start, at, true); !l.IsZero() {
		if w := e.first(e.end, l, false); w.IsZero() || at.Before(w) {
			r.Inside, r.WindowEnd, r.WindowStart = true, w, l
			if p := e.last(e.end, w, false); !w.IsZero() && !p.IsZero() {
				r.WindowStart = e.first(e.start, p, true)
			}
		}
	}
	switch {
	case !r.Inside:
		r.NextStart = e.first(e.start, at, false)
	case !r.WindowEnd.IsZero():
		r.NextStart = e.first(e.start, r.WindowEnd, true)
	}
	if !r.NextStart.IsZero() {
		r.NextEnd = e.first(e.end, r.NextStart, false)
	}
	return r
}
