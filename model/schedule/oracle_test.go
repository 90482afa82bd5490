package schedule

import (
	"slices"
	"time"
)

// This file is a deliberately naive second implementation of SCHED-5..8,
// the oracle the property test compares Evaluate with. It shares nothing
// with the package: no cronexpr (fields are matched by the generator's own
// value sets, spec.go), no naive timeline, no gap arithmetic. It walks
// real instants minute by minute across a bounded horizon, asks the
// location for each minute's wall clock, and applies SCHED-6 literally:
//
//   - a wall clock seen for the first time is that date-time's instant
//     (later sightings are repeats and do not match);
//   - a wall clock the walk jumps over and never sees is in a gap and is
//     read with the offset in effect just before the jump.
//
// Everything it reports is decided inside the horizon; what cannot be
// decided there is reported unknown and not compared.

// oracleHorizon is how far around t START and END are collected; oraclePad
// is how much further the walk goes so that first sightings and gaps near
// the horizon's edges are judged correctly (offsets differ by at most 26 h).
const (
	oracleHorizon = 2 * 24 * time.Hour
	oraclePad     = 32 * time.Hour
)

// cronSpec is a schedule as a set of field predicates (spec.go).
type cronSpec interface {
	matchStart(c civil) bool
	matchEnd(c civil) bool
}

// civil is a wall-clock date-time at minute precision.
type civil struct {
	year, month, day, hour, minute int
	weekday                        int // 0 = Sunday
}

// known is an oracle answer: an instant, or undecidable inside the
// horizon (the horizon can never prove that no instant exists).
type known struct {
	ok   bool // decided
	unix int64
}

func decided(u int64) known { return known{ok: true, unix: u} }

type oracleResult struct {
	insideKnown bool
	inside      bool
	ws, we      known
	ns, ne      known
	windows     [][2]known // successive merged windows, while decided
}

// timeline is the oracle's START and END sets inside [lo, hi].
type timeline struct {
	lo, hi     int64
	starts     []int64
	ends       []int64
	misaligned bool // an offset with seconds: minute walk cannot judge
}

// oracleScratch holds the walk's buffers between checks.
type oracleScratch struct {
	firstSeen, gapAt []int64
}

// buildTimeline walks minute by minute and collects START and END.
func buildTimeline(sc *oracleScratch, loc *time.Location, spec cronSpec, t time.Time) timeline {
	center := t.Truncate(time.Minute).Unix()
	tl := timeline{
		lo: center - int64(oracleHorizon/time.Second),
		hi: center + int64(oracleHorizon/time.Second),
	}
	walkLo := tl.lo - int64(oraclePad/time.Second)
	walkHi := tl.hi + int64(oraclePad/time.Second)
	// Walls of the walk lie within 16 h of its instants.
	wallBase := walkLo - 16*3600
	size := (walkHi+16*3600-wallBase)/60 + 1
	if int64(cap(sc.firstSeen)) < size {
		sc.firstSeen, sc.gapAt = make([]int64, size), make([]int64, size)
	}
	firstSeen, gapAt := sc.firstSeen[:size], sc.gapAt[:size]
	const unset = int64(-1) << 62
	for i := range firstSeen {
		firstSeen[i], gapAt[i] = unset, unset
	}
	var prevWall, prevOff int64
	for u := walkLo; u <= walkHi; u += 60 {
		_, o := time.Unix(u, 0).In(loc).Zone()
		off := int64(o)
		if off%60 != 0 {
			tl.misaligned = true
			return tl
		}
		wall := u + off
		if i := (wall - wallBase) / 60; firstSeen[i] == unset {
			firstSeen[i] = u
		}
		if u > walkLo && wall-prevWall > 60 {
			for m := prevWall + 60; m < wall; m += 60 {
				if i := (m - wallBase) / 60; gapAt[i] == unset {
					gapAt[i] = m - prevOff
				}
			}
		}
		prevWall, prevOff = wall, off
	}
	for i := range firstSeen {
		u := firstSeen[i]
		if u == unset {
			u = gapAt[i] // never seen: a gap date-time, if jumped over
		}
		if u == unset || u < tl.lo || u > tl.hi {
			continue
		}
		c := civilOf(wallBase + int64(i)*60)
		if spec.matchStart(c) {
			tl.starts = append(tl.starts, u)
		}
		if spec.matchEnd(c) {
			tl.ends = append(tl.ends, u)
		}
	}
	slices.Sort(tl.starts)
	tl.starts = slices.Compact(tl.starts)
	slices.Sort(tl.ends)
	tl.ends = slices.Compact(tl.ends)
	return tl
}

func civilOf(wall int64) civil {
	t := time.Unix(wall, 0).UTC()
	return civil{
		year: t.Year(), month: int(t.Month()), day: t.Day(),
		hour: t.Hour(), minute: t.Minute(), weekday: int(t.Weekday()),
	}
}

// endAfter is E(S): the first END strictly after s, if decided.
func (tl timeline) endAfter(s int64) known {
	for _, e := range tl.ends {
		if e > s {
			return decided(e)
		}
	}
	return known{}
}

// startFrom is the first START at or after s, if decided: none in the
// horizon is undecided.
func (tl timeline) startFrom(s int64) known {
	for _, x := range tl.starts {
		if x >= s {
			return decided(x)
		}
	}
	return known{}
}

// evaluate answers SCHED-8 at t from the definitions, without shortcuts.
func (tl timeline) evaluate(t time.Time, windows int) oracleResult {
	var r oracleResult
	notAfter := func(x int64) bool { return !time.Unix(x, 0).After(t) }
	// L(t) = latest START <= t.
	var l known
	for _, s := range tl.starts {
		if notAfter(s) {
			l = decided(s)
		}
	}
	if !l.ok {
		return r
	}
	el := tl.endAfter(l.unix)
	if !el.ok {
		return r
	}
	r.insideKnown = true
	r.inside = time.Unix(el.unix, 0).After(t)
	var first known
	if r.inside {
		r.we = el
		// The earliest S with E(S) = WindowEnd; earlier starts outside the
		// horizon cannot share that end if an END lies between lo and it.
		for _, s := range tl.starts {
			if e := tl.endAfter(s); e.ok && e.unix == el.unix {
				if len(tl.ends) > 0 && tl.ends[0] <= s {
					r.ws = decided(s)
				}
				break
			}
		}
		first = r.ws
		r.ns = tl.startFrom(el.unix)
	} else {
		r.ns = known{}
		for _, s := range tl.starts {
			if time.Unix(s, 0).After(t) {
				r.ns = decided(s)
				break
			}
		}
		first = r.ns
	}
	if r.ns.ok {
		r.ne = tl.endAfter(r.ns.unix)
	}
	// Successive merged windows: each from the first start at or after
	// the previous end.
	for cur := first; cur.ok && len(r.windows) < windows; {
		end := tl.endAfter(cur.unix)
		if !end.ok {
			break
		}
		r.windows = append(r.windows, [2]known{cur, end})
		cur = tl.startFrom(end.unix)
	}
	return r
}
