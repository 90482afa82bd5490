package mutants

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/hashicorp/cronexpr"
)

// evalNomadWindow is sched-nomad-window's evaluator: the window algorithm
// of Nomad 1.8–1.10 as SPEC SCHED-10 describes it (written from that
// description), instead of SCHED-5's windows:
//
//   - the window considered at t is the one opened by the earliest start
//     in the last 24 absolute hours, (t-24h, t] (so on a 23-hour DST day
//     the first hour after the start reads yesterday's, closed, window:
//     "outside"; with several daily starts the earliest one is used);
//   - the start instant itself is outside (inside needs start < t < end);
//   - the window's end is the end time on the start's own local date; an
//     end not after the start (overnight windows, start == end) is the
//     error `end cannot be sooner than start; end="<t>", start="<t>"`,
//     unless the start is on its month's last day (#23329), where the
//     end is the next end after the start;
//   - a schedule without cron is dropped silently: the task is never
//     paused.
//
// cronexpr runs in the schedule's zone, as Nomad's did (gap times are
// skipped, overlap times repeat). Zone and parse errors are the
// reference's (SCHED-8).
func evalNomadWindow(s *schedule.Schedule, at time.Time, local *time.Location) (schedule.Result, error) {
	if s == nil || s.Cron == nil {
		return schedule.Result{Inside: true}, nil
	}
	c, err := schedule.Compile(s, local)
	if err != nil {
		return schedule.Result{}, err
	}
	start, err := cronexpr.Parse(s.Cron.Start)
	if err != nil {
		return schedule.Result{}, err
	}
	end, err := cronexpr.Parse(s.Cron.End + " * * * *")
	if err != nil {
		return schedule.Result{}, err
	}
	t := at.In(c.Location())
	var r schedule.Result
	st := start.Next(t.Add(-24 * time.Hour))
	if st.IsZero() {
		return r, nil // no future start (SCHED-9)
	}
	en, err := nomadEnd(end, st)
	if err != nil {
		return schedule.Result{}, err
	}
	switch {
	case st.Before(t) && t.Before(en):
		r.Inside, r.WindowStart, r.WindowEnd = true, st, en
		r.NextStart = start.Next(en.Add(-time.Nanosecond))
	case st.Equal(t):
		r.NextStart = t.Add(time.Nanosecond) // the start instant is outside
	case st.After(t):
		r.NextStart = st
	default:
		r.NextStart = start.Next(t)
	}
	if !r.NextStart.IsZero() {
		r.NextEnd, _ = nomadEnd(end, r.NextStart)
	}
	return r, nil
}

// nomadEnd is the end of the window opened at st: the end time on st's
// local date, which must lie after st unless st is its month's last day.
func nomadEnd(end *cronexpr.Expression, st time.Time) (time.Time, error) {
	midnight := time.Date(st.Year(), st.Month(), st.Day(), 0, 0, 0, 0, st.Location())
	en := end.Next(midnight.Add(-time.Nanosecond))
	if en.After(st) {
		return en, nil
	}
	if st.AddDate(0, 0, 1).Day() == 1 { // the month's last day (#23329)
		return end.Next(st), nil
	}
	return time.Time{}, fmt.Errorf("end cannot be sooner than start; end=%q, start=%q",
		en.Format(time.RFC3339), st.Format(time.RFC3339))
}
