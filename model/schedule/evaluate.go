package schedule

import "time"

// Every instant a match can map to lies well inside [searchMin, searchMax]
// (cronexpr years 1970..2099, offsets within maxOffset, gaps within
// maxJump), so clamping an evaluation instant to it changes no answer and
// keeps all arithmetic far from overflow.
var (
	searchMin = naiveMin - 2*day
	searchMax = naiveMax + 3*day
)

// evaluation is one goroutine's view of a Compiled: START and END with
// private cronexpr copies.
type evaluation struct {
	start, end instants
}

func (c *Compiled) evaluation() evaluation {
	z := zone{loc: c.loc}
	return evaluation{
		start: instants{cron: newNaiveCron(c.start, c.startB), zone: z},
		end:   instants{cron: newNaiveCron(c.end, c.endB), zone: z},
	}
}

// current reports whether u is inside a window and, if so, the start of
// its merged window (SCHED-5, SCHED-8). With e the latest END at or before
// u, a window [S, E(S)) holds u exactly when e <= S <= u: an END in (S, u]
// would have closed it, and an END at S does not (E(S) is strictly after
// S). Every such S has E(S) = the first END after u, and so does no
// earlier start; the merged window therefore begins at the earliest START
// at or after e (or at the first START of all when no END precedes u).
func (ev evaluation) current(u int64) (windowStart int64, inside bool) {
	from := searchMin
	if e, ok := ev.end.atOrBefore(u); ok {
		from = e - 1
	}
	s, ok := ev.start.after(from)
	if !ok || s > u {
		return 0, false
	}
	return s, true
}

// Evaluate is SPEC SCHED-8 at instant at (sub-second part kept: a boundary
// at second s is reached once at >= s).
func (c *Compiled) Evaluate(at time.Time) Result {
	ev := c.evaluation()
	u := clamp(at.Unix())
	var r Result
	var next int64
	var hasNext bool
	if ws, inside := ev.current(u); inside {
		r.Inside = true
		r.WindowStart = c.instant(ws)
		we, closes := ev.end.after(u)
		if !closes {
			return r // the window never closes: nothing comes next
		}
		r.WindowEnd = c.instant(we)
		next, hasNext = ev.start.after(we - 1) // a start at WindowEnd is next
	} else {
		next, hasNext = ev.start.after(u)
	}
	if !hasNext {
		return r
	}
	r.NextStart = c.instant(next)
	if ne, ok := ev.end.after(next); ok {
		r.NextEnd = c.instant(ne)
	}
	return r
}

// NextWindows lists up to n merged windows (SCHED-8): the one holding at,
// if at is inside, then each next one starting at or after the previous
// one's end. The list stops early when no start follows or a window never
// closes (its End is zero). n <= 0 gives an empty list.
func (c *Compiled) NextWindows(at time.Time, n int) []Window {
	out := make([]Window, 0, min(max(n, 0), 256))
	if n <= 0 {
		return out
	}
	ev := c.evaluation()
	u := clamp(at.Unix())
	s, ok := ev.current(u)
	if !ok {
		s, ok = ev.start.after(u)
	}
	for ok && len(out) < n {
		// From a merged window's first start, E(s) is its end: later
		// starts sharing that end add nothing.
		e, closes := ev.end.after(s)
		w := Window{Start: c.instant(s)}
		if !closes {
			return append(out, w)
		}
		w.End = c.instant(e)
		out = append(out, w)
		s, ok = ev.start.after(e - 1)
	}
	return out
}

// instant turns seconds into a time in the schedule's zone.
func (c *Compiled) instant(sec int64) time.Time {
	return time.Unix(sec, 0).In(c.loc)
}

func clamp(u int64) int64 {
	return min(max(u, searchMin), searchMax)
}
