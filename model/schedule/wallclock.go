package schedule

import "time"

// This file is the wall-clock side of SPEC SCHED-6: how a zone's offsets
// change over time, and which instant a local date-time names.
//
// Instants and naive local date-times are both int64 seconds. A naive
// date-time is the wall clock written as if it were UTC (the "naive
// timeline" of SCHED-8's hint), which has no DST: cronexpr can search it
// without skipping or repeating anything.

const (
	// beginningOfTime and endOfTime stand for unbounded zone periods.
	beginningOfTime = int64(-1) << 62
	endOfTime       = int64(1) << 62

	hour = int64(3600)
	day  = 24 * hour

	// maxOffset bounds |UTC offset| in the tz database since 1970 (-12h to
	// +14h), with margin.
	maxOffset = 16 * hour
	// maxJump bounds one transition's change of offset (the largest, a date
	// line crossing such as Pacific/Apia in 2011, is 24h), with margin.
	maxJump = 26 * hour
)

// period is one stretch of constant UTC offset in a zone: instants in
// [start, end) read as wall clock instant+offset.
type period struct {
	start, end int64
	offset     int64
}

// zone answers offset questions about one *time.Location.
type zone struct {
	loc *time.Location
}

// at returns the period containing instant u.
func (z zone) at(u int64) period {
	return period{start: z.periodStart(u), end: z.periodEnd(u), offset: z.offset(u)}
}

// offset is the UTC offset in effect at instant u, in seconds.
func (z zone) offset(u int64) int64 {
	_, off := time.Unix(u, 0).In(z.loc).Zone()
	return int64(off)
}

// Go's Time.ZoneBounds is only a hint here. Beyond a zone's last explicit
// transition Go derives periods from the zone's rule year by year, and
// (Go 1.26) cuts them at pseudo-bounds where the offset does not change,
// in a leap year even returning an end at or before the instant asked
// about. periodEnd and periodStart therefore accept a bound only where the
// offset really changes, step over pseudo-bounds, and bisect on offsets
// when a hint is broken.

// maxProbes bounds the pseudo-bounds stepped over in one search (about
// one a year).
const maxProbes = 1024

// periodEnd is the first instant after u with a different offset, or
// endOfTime.
func (z zone) periodEnd(u int64) int64 {
	o := z.offset(u)
	cur := u
	for range maxProbes {
		_, e := time.Unix(cur, 0).In(z.loc).ZoneBounds()
		if e.IsZero() {
			return endOfTime
		}
		cand := e.Unix()
		if cand <= cur {
			cand = cur + day // broken hint: probe a day ahead
		}
		if z.offset(cand) == o {
			cur = cand // a pseudo-bound
			continue
		}
		if z.offset(cand-1) == o {
			return cand
		}
		return z.bisect(cur, cand, o)
	}
	return endOfTime
}

// periodStart is the first instant of the stretch of u's offset that holds
// u, or beginningOfTime.
func (z zone) periodStart(u int64) int64 {
	o := z.offset(u)
	cur := u
	for range maxProbes {
		s, _ := time.Unix(cur, 0).In(z.loc).ZoneBounds()
		if s.IsZero() {
			return beginningOfTime
		}
		cand := s.Unix()
		if cand > cur {
			cand = cur - day + 1 // broken hint: probe a day back
		}
		if z.offset(cand-1) == o {
			cur = cand - 1 // a pseudo-bound
			continue
		}
		if z.offset(cand) == o {
			return cand
		}
		return z.bisect(cand-1, cur, o)
	}
	return beginningOfTime
}

// bisect returns the instant in (lo, hi] where the offset turns from
// offset(lo) to something else, given that exactly one side is o.
func (z zone) bisect(lo, hi, o int64) int64 {
	loIsO := z.offset(lo) == o
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if (z.offset(mid) == o) == loIsO {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// before returns the period just before p; ok is false at the beginning of
// time.
func (z zone) before(p period) (period, bool) {
	if p.start == beginningOfTime {
		return period{}, false
	}
	return z.at(p.start - 1), true
}

// after returns the period just after p; ok is false at the end of time.
func (z zone) after(p period) (period, bool) {
	if p.end == endOfTime {
		return period{}, false
	}
	return z.at(p.end), true
}

// gapOf reports the spring-forward gap that opens p: the naive date-times
// [wallLo, wallHi) that do not exist, read with the pre-gap offset pre
// (SCHED-6). ok is false when p does not start with a forward jump.
func (z zone) gapOf(p period) (wallLo, wallHi, pre int64, ok bool) {
	q, has := z.before(p)
	if !has || q.offset >= p.offset {
		return 0, 0, 0, false
	}
	return p.start + q.offset, p.start + p.offset, q.offset, true
}

// wallAt returns the naive date-time of the latest first-occurrence instant
// at or before u. For most u that is u's own wall clock; for the second
// occurrence of a repeated hour (SCHED-6: it does not match) it is the
// wall clock just before the repeat began, whose instants are all earlier.
// The first-occurrence instants at or before u are then exactly those whose
// wall clock is at or before wallAt(u), and the ones after u those whose
// wall clock is after it.
func (z zone) wallAt(u int64) int64 {
	p := z.at(u)
	if q, ok := z.before(p); ok && q.offset > p.offset && u < p.start+(q.offset-p.offset) {
		return p.start + q.offset - 1
	}
	return u + p.offset
}

// resolution is how a naive date-time maps to an instant (SCHED-6).
type resolution struct {
	instant int64
	// gap is set for a date-time in a spring-forward gap; gapHi is then the
	// first naive date-time after the gap.
	gap   bool
	gapLo int64
	gapHi int64
}

// resolve maps naive date-time n to its instant by SCHED-6: a date-time
// that exists maps to its first occurrence; one in a spring-forward gap is
// read with the pre-gap offset, i.e. shifted forward by the gap. It scans
// every period that can hold n rather than trusting time.Date, which picks
// a zone-dependent side.
func (z zone) resolve(n int64) resolution {
	first := endOfTime
	var gap resolution
	p := z.at(n - maxOffset)
	for {
		if u := n - p.offset; p.start <= u && u < p.end && u < first {
			first = u
		}
		next, ok := z.after(p)
		if !ok || next.start > n+maxOffset {
			break
		}
		// A forward jump from p to next skips [lo, hi); remember the first
		// one that skips n.
		if lo, hi := next.start+p.offset, next.start+next.offset; !gap.gap && lo <= n && n < hi {
			gap = resolution{instant: n - p.offset, gap: true, gapLo: lo, gapHi: hi}
		}
		p = next
	}
	switch {
	case first != endOfTime:
		return resolution{instant: first}
	case gap.gap:
		return gap
	}
	// Unreachable: with offsets within maxOffset, a date-time that never
	// occurs is jumped over inside the scan. Read it at the offset of n
	// taken as UTC rather than fail.
	return resolution{instant: n - z.offset(n)}
}
