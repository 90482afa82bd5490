package schedule

// instants is START or END of SPEC SCHED-5: the instants whose local wall
// clock matches one cron expression, each matching naive date-time mapped
// to one instant by SCHED-6.
//
// The set is the union of two sorted streams:
//   - regular: date-times that exist, at their first occurrence. Read in
//     instant order their wall clocks increase, so the naive order is the
//     instant order and a bound on instants is a bound on wall clocks
//     (zone.wallAt).
//   - gap: date-times inside a spring-forward gap [lo, hi), each read with
//     the pre-gap offset, landing in [T, T+hi-lo) just after the
//     transition T. These break the naive order (02:30 lands after 03:00),
//     so they are searched gap by gap and merged in.
//
// Every search is bounded: cronexpr stops after 2099, a zone has finitely
// many transitions in that range, and each loop step moves strictly
// forward (or backward) on the naive timeline.
type instants struct {
	cron *naiveCron
	zone zone
}

// after returns the earliest instant of the set strictly after u.
func (s instants) after(u int64) (int64, bool) {
	if !s.cron.has {
		return 0, false
	}
	best, ok := s.regularAfter(u)
	limit := endOfTime
	if ok {
		limit = best
	}
	if g, found := s.gapAfter(u, limit); found {
		return g, true
	}
	return best, ok
}

// atOrBefore returns the latest instant of the set at or before u.
func (s instants) atOrBefore(u int64) (int64, bool) {
	if !s.cron.has {
		return 0, false
	}
	best, ok := s.regularAtOrBefore(u)
	limit := beginningOfTime
	if ok {
		limit = best
	}
	if g, found := s.gapAtOrBefore(u, limit); found {
		return g, true
	}
	return best, ok
}

// regularAfter is the earliest existing match whose first occurrence is
// after u.
func (s instants) regularAfter(u int64) (int64, bool) {
	n, ok := s.cron.next(s.zone.wallAt(u))
	for ok {
		r := s.zone.resolve(n)
		if !r.gap {
			return r.instant, true
		}
		n, ok = s.cron.next(r.gapHi - 1) // skip the rest of the gap
	}
	return 0, false
}

// regularAtOrBefore is the latest existing match whose first occurrence is
// at or before u.
func (s instants) regularAtOrBefore(u int64) (int64, bool) {
	n, ok := s.cron.prev(s.zone.wallAt(u))
	for ok {
		r := s.zone.resolve(n)
		if !r.gap {
			return r.instant, true
		}
		n, ok = s.cron.prev(r.gapLo - 1)
	}
	return 0, false
}

// gapAfter is the earliest gap-mapped match in (u, limit).
func (s instants) gapAfter(u, limit int64) (int64, bool) {
	// A gap's instants lie within maxJump of its transition.
	p := s.zone.at(u - maxJump)
	for p.start < limit && p.start-maxOffset <= s.cron.last {
		if lo, hi, pre, ok := s.zone.gapOf(p); ok && p.start+(hi-lo) > u {
			n, found := s.cron.next(max(lo-1, u+pre))
			if !found {
				return 0, false
			}
			if n < hi {
				if inst := n - pre; inst < limit {
					return inst, true
				}
				return 0, false
			}
			// The next match is past this gap: only transitions whose gap
			// ends after it can hold one.
			if n-maxOffset > p.end {
				p = s.zone.at(n - maxOffset)
				continue
			}
		}
		next, ok := s.zone.after(p)
		if !ok {
			break
		}
		p = next
	}
	return 0, false
}

// gapAtOrBefore is the latest gap-mapped match in (limit, u].
func (s instants) gapAtOrBefore(u, limit int64) (int64, bool) {
	p := s.zone.at(u)
	for p.start+maxJump > limit && p.start+maxOffset >= s.cron.first {
		if lo, hi, pre, ok := s.zone.gapOf(p); ok {
			n, found := s.cron.prev(min(hi-1, u+pre))
			if !found {
				return 0, false
			}
			if n >= lo {
				if inst := n - pre; inst > limit {
					return inst, true
				}
				return 0, false
			}
			// The previous match is before this gap: only transitions
			// whose gap starts at or before it can hold one.
			if n+maxOffset < p.start-1 {
				p = s.zone.at(n + maxOffset)
				continue
			}
		}
		prev, ok := s.zone.before(p)
		if !ok {
			break
		}
		p = prev
	}
	return 0, false
}
