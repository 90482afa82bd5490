package schedule

import (
	"time"

	"github.com/hashicorp/cronexpr"
)

// naiveCron searches one cron expression on the naive timeline (wall-clock
// date-times written as UTC, seconds). cronexpr only searches forward, so
// the backward search gallops back and bisects.
//
// cronexpr's Expression.Next writes to the expression, so a naiveCron
// holds a private copy: build one per evaluation with newNaiveCron and never
// share it between goroutines.
type naiveCron struct {
	expr cronexpr.Expression
	// first and last are the earliest and latest matches of all time (a
	// cronexpr year is 1970..2099); has is false when nothing ever matches.
	first, last int64
	has         bool
}

// naiveBounds are the compile-time facts a naiveCron starts from.
type naiveBounds struct {
	first, last int64
	has         bool
}

// Naive date-times cronexpr can match: years 1970..2099.
var (
	naiveMin = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	naiveMax = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Unix() - 1
)

// newNaiveCron copies the parsed expression so that searches do not race.
func newNaiveCron(expr *cronexpr.Expression, b naiveBounds) *naiveCron {
	return &naiveCron{expr: *expr, first: b.first, last: b.last, has: b.has}
}

// computeBounds finds the first and last match of all time.
func computeBounds(expr *cronexpr.Expression) naiveBounds {
	c := &naiveCron{expr: *expr, first: naiveMin, last: endOfTime, has: true}
	first, ok := c.rawNext(naiveMin - 1)
	if !ok {
		return naiveBounds{}
	}
	c.first = first
	last, _ := c.prev(naiveMax) // exists: first does
	return naiveBounds{first: first, last: last, has: true}
}

// rawNext is cronexpr's Next on the naive timeline: the earliest match
// strictly after x.
func (c *naiveCron) rawNext(x int64) (int64, bool) {
	n := c.expr.Next(time.Unix(x, 0).UTC())
	if n.IsZero() {
		return 0, false
	}
	return n.Unix(), true
}

// next returns the earliest match strictly after x.
func (c *naiveCron) next(x int64) (int64, bool) {
	switch {
	case !c.has || x >= c.last:
		return 0, false
	case x < c.first:
		return c.first, true
	}
	return c.rawNext(x)
}

// prev returns the latest match at or before x.
func (c *naiveCron) prev(x int64) (int64, bool) {
	switch {
	case !c.has || x < c.first:
		return 0, false
	case x >= c.last:
		return c.last, true
	}
	// Gallop back until [lo, x] holds a match; one exists at c.first.
	var found int64
	for span := int64(60); ; span *= 4 {
		lo := max(x-span, c.first)
		if n, ok := c.rawNext(lo - 1); ok && n <= x {
			found = n
			break
		}
	}
	// Walk forward a few matches (cheap for sparse schedules), then
	// bisect: found is a match <= x, and no match lies in [hi, x] once hi
	// is proven bad.
	for range 4 {
		n, ok := c.rawNext(found)
		if !ok || n > x {
			return found, true
		}
		found = n
	}
	hi := x + 1
	for hi-found > 1 {
		mid := found + (hi-found)/2
		if n, ok := c.rawNext(mid - 1); ok && n <= x {
			found = n
		} else {
			hi = mid
		}
	}
	return found, true
}
