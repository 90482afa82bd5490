package schedule

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/cronexpr"
)

// Compiled is a schedule with its zone loaded and both cron expressions
// parsed, ready to be evaluated many times. It is immutable and safe for
// concurrent use.
type Compiled struct {
	loc        *time.Location
	start, end *cronexpr.Expression
	startB     naiveBounds
	endB       naiveBounds
}

// Compile loads the schedule's zone and parses its expressions, reporting
// the first failure in the order of SPEC SCHED-8:
//
//  1. `invalid timezone in schedule: <err>` (ErrInvalidTimezone);
//  2. `invalid start time in schedule: "<start>"; <err>` (ErrInvalidStart);
//  3. `invalid end time in schedule: "<end>"; <err>` (ErrInvalidEnd).
//
// Timezone "" or "Local" is the injected local zone (SCHED-4), UTC when
// local is nil. Start is parsed as given and End as End+" * * * *"
// (SCHED-3); Validate's count and character rules are not applied. A nil
// Schedule or Cron is ErrNoCron.
func Compile(s *Schedule, local *time.Location) (*Compiled, error) {
	if s == nil || s.Cron == nil {
		return nil, ErrNoCron
	}
	c := s.Cron
	loc, err := loadZone(c.Timezone, local)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidTimezone, err)
	}
	start, startB, err := parseCron(c.Start)
	if err != nil {
		return nil, fmt.Errorf("%w: %q; %w", ErrInvalidStart, c.Start, err)
	}
	end, endB, err := parseCron(c.End + " * * * *")
	if err != nil {
		return nil, fmt.Errorf("%w: %q; %w", ErrInvalidEnd, c.End, err)
	}
	return &Compiled{loc: loc, start: start, end: end, startB: startB, endB: endB}, nil
}

// Location is the zone the schedule is read in; every instant Compiled
// returns is in it.
func (c *Compiled) Location() *time.Location { return c.loc }

// parseCron parses one expression with cronexpr: first as written, so
// that errors are cronexpr's own on the caller's text (SCHED-8), then after
// the day-of-week fixes of normalizeDOW (SCHED-3) for matching. It also
// finds the expression's first and last match of all time.
func parseCron(expr string) (*cronexpr.Expression, naiveBounds, error) {
	if p, ok := parsedCrons.Load(expr); ok {
		p := p.(parsedCron)
		own := *p.expr // Next writes to its expression: each caller has its own
		return &own, p.bounds, nil
	}
	parsed, bounds, err := parseCronUncached(expr)
	if err != nil {
		return nil, bounds, err
	}
	if parsedCount.Add(1) > maxParsedCrons {
		parsedCrons.Clear()
		parsedCount.Store(1)
	}
	template := *parsed
	parsedCrons.Store(expr, parsedCron{expr: &template, bounds: bounds})
	return parsed, bounds, nil
}

// parsedCrons caches parseCron's successful results by expression, for
// the same schedules compiled again and again (every evaluation of a
// runner and of the suite's oracle): parsing and bounding an expression
// was 1.4 % of a conformance check's CPU. An entry's expression is a
// template that is copied out, never used. The cache is emptied when it
// reaches maxParsedCrons entries, so a long run's many drawn schedules
// do not grow it without bound.
var (
	parsedCrons sync.Map // string -> parsedCron
	parsedCount atomic.Int64
)

const maxParsedCrons = 4096

type parsedCron struct {
	expr   *cronexpr.Expression
	bounds naiveBounds
}

func parseCronUncached(expr string) (*cronexpr.Expression, naiveBounds, error) {
	parsed, err := cronexpr.Parse(expr)
	if err != nil {
		return nil, naiveBounds{}, err
	}
	if fixed := normalizeDOW(expr); fixed != expr {
		if parsed, err = cronexpr.Parse(fixed); err != nil {
			return nil, naiveBounds{}, err // unreachable: the fixes keep it valid
		}
	}
	if neverMatches(expr) {
		return parsed, naiveBounds{}, nil
	}
	return parsed, computeBounds(parsed), nil
}

// zones caches loaded locations by name: time.LoadLocation reads the tz
// database from disk on every call. Only successful loads are kept, so the
// cache is bounded by the database's names.
var zones sync.Map // string -> *time.Location

// LoadZone is SCHED-4's zone of a schedule's Timezone: local for "" and
// "Local" (UTC when local is nil), else the named IANA zone.
func LoadZone(name string, local *time.Location) (*time.Location, error) {
	return loadZone(name, local)
}

// loadZone is SCHED-4. It uses the tz database time.LoadLocation finds
// (the system's first); this package does not embed time/tzdata, binaries
// do.
func loadZone(name string, local *time.Location) (*time.Location, error) {
	if name == "" || name == "Local" {
		if local == nil {
			return time.UTC, nil
		}
		return local, nil
	}
	return Location(name)
}

// Location is time.LoadLocation(name), cached: the simulator, the suite
// and the runner load the same few zones for every scenario, and each
// load read the tz database from disk (2 % of a conformance check's
// CPU). Like time.LoadLocation, "" is UTC and "Local" is time.Local.
func Location(name string) (*time.Location, error) {
	switch name {
	case "", "UTC":
		return time.UTC, nil
	case "Local":
		return time.Local, nil
	}
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location), nil
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	zones.Store(name, l)
	return l, nil
}
