package timeline

import (
	"cmp"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/sim/scenario"
)

// maxWindows is how many windows a lane keeps (a schedule that opens
// every minute of a week would otherwise draw ten thousand).
const maxWindows = 400

// version is a schedule of one task from an instant on: a job
// registration or an update_schedule call (the world's order: jobs
// before calls at one instant, each in scenario order).
type version struct {
	at       time.Time
	schedule *schedule.Schedule
}

// versions lists the schedules the scenario gives task of group in job,
// skipping registrations the server rejected and updates that failed.
func versions(sc scenario.Scenario, job, group, task string, rejected map[string][]time.Time, failed []time.Time) []version {
	var out []version
	for _, j := range sc.Jobs {
		at := sc.Start.Add(j.At.D())
		if j.Job == nil || j.Job.ID != job || slices.ContainsFunc(rejected[job], at.Equal) {
			continue
		}
		v := version{at: at}
		for _, tg := range j.Job.TaskGroups {
			if tg == nil || tg.Name != group {
				continue
			}
			if t := tg.LookupTask(task); t != nil {
				v.schedule = t.Schedule
			}
		}
		out = append(out, v)
	}
	for _, c := range sc.Calls {
		at := sc.Start.Add(c.At.D())
		if c.Op != scenario.OpUpdateSchedule || c.Job != job || c.Task != task || slices.ContainsFunc(failed, at.Equal) {
			continue
		}
		out = append(out, version{at: at, schedule: c.Schedule})
	}
	slices.SortStableFunc(out, func(a, b version) int { return a.at.Compare(b.at) })
	return out
}

// spans turns versions into the schedules in effect within [from, to).
func spans(vs []version, from, to time.Time) []ScheduleSpan {
	var out []ScheduleSpan
	for i, v := range vs {
		end := to
		if i+1 < len(vs) && vs[i+1].at.Before(to) {
			end = vs[i+1].at
		}
		start := later(v.at, from)
		if v.schedule == nil || !start.Before(end) {
			continue
		}
		out = append(out, ScheduleSpan{From: start, To: end, Schedule: v.schedule})
	}
	return out
}

// laneWindows sets the lane's zone and windows from its schedule spans.
func laneWindows(l *Lane, local *time.Location) {
	l.Zone = local
	for i, s := range l.Schedules {
		c, err := schedule.Compile(s.Schedule, local)
		if err != nil {
			l.ScheduleError = err.Error()
			continue
		}
		if i == 0 {
			l.Zone = c.Location()
		}
		ws, truncated := windows(c, s.From, s.To, maxWindows-len(l.Windows))
		l.Windows = append(l.Windows, ws...)
		l.WindowsTruncated = l.WindowsTruncated || truncated
	}
	slices.SortStableFunc(l.Windows, func(a, b Window) int { return cmp.Or(a.From.Compare(b.From), a.To.Compare(b.To)) })
}

// windows lists the merged windows of c that overlap [from, to), at
// most room of them, each clipped to it, and whether more overlap.
func windows(c *schedule.Compiled, from, to time.Time, room int) ([]Window, bool) {
	var out []Window
	at := from
	for {
		ws := c.NextWindows(at, 16)
		if len(ws) == 0 {
			return out, false
		}
		for _, w := range ws {
			if !w.Start.Before(to) {
				return out, false
			}
			if len(out) >= room {
				return out, true
			}
			win := Window{Start: w.Start, End: w.End, From: later(w.Start, from), To: to}
			if !w.End.IsZero() && w.End.Before(to) {
				win.To = w.End
			}
			out = append(out, win)
			if w.End.IsZero() || !w.End.Before(to) || !w.End.After(at) {
				return out, false
			}
			at = w.End
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
