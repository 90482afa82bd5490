package schedule

import (
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// TestNaivePrevNext checks the backward search against a forward walk of
// every match in a span, for sparse and dense expressions.
func TestNaivePrevNext(t *testing.T) {
	exprs := []string{
		"0 9 * * * *", "* * * * * *", "0 9-17 * * MON-FRI *", "0 0 29 2 * *",
		"15 30 9 * * * *", "0 0 1 3 * 2024", "0 12 L * * *",
	}
	lo := time.Date(2024, 2, 20, 0, 0, 0, 0, time.UTC).Unix()
	hi := lo + 20*86400
	for _, e := range exprs {
		parsed, b, err := parseCron(e)
		must.NoError(t, err)
		c := newNaiveCron(parsed, b)
		var all []int64
		for n, ok := c.next(lo - 1); ok && n <= hi+86400; n, ok = c.next(n) {
			all = append(all, n)
		}
		must.SliceNotEmpty(t, all, must.Sprint(e))
		for x := lo; x <= hi; x += 3607 {
			want := int64(-1)
			for _, n := range all {
				if n <= x {
					want = n
				}
			}
			got, ok := c.prev(x)
			if want < 0 {
				must.True(t, !ok || got < lo, must.Sprint(e, " at ", x))
				continue
			}
			must.True(t, ok)
			must.EqOp(t, want, got, must.Sprint(e, " prev ", time.Unix(x, 0).UTC()))
		}
	}
}

// TestNaiveBounds: first and last matches of all time, and the searches
// past them.
func TestNaiveBounds(t *testing.T) {
	parsed, b, err := parseCron("0 9 * * * *")
	must.NoError(t, err)
	must.True(t, b.has)
	must.EqOp(t, naive(1970, 1, 1, 9, 0), b.first)
	must.EqOp(t, naive(2099, 12, 31, 9, 0), b.last)
	c := newNaiveCron(parsed, b)
	_, ok := c.next(b.last)
	must.False(t, ok)
	n, ok := c.prev(naive(2150, 1, 1, 0, 0))
	must.True(t, ok)
	must.EqOp(t, b.last, n)
	_, ok = c.prev(b.first - 1)
	must.False(t, ok)
	n, ok = c.next(-1 << 40)
	must.True(t, ok)
	must.EqOp(t, b.first, n)

	_, b, err = parseCron("0 9 30 2 * *")
	must.NoError(t, err)
	must.False(t, b.has)
}
