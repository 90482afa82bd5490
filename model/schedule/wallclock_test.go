package schedule

import (
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

func naive(y int, mo time.Month, d, h, mi int) int64 {
	return time.Date(y, mo, d, h, mi, 0, 0, time.UTC).Unix()
}

func rfc(t *testing.T, s string) int64 {
	t.Helper()
	return mustTime(t, s).Unix()
}

// TestResolve is SCHED-6 on single date-times: existing once, in a gap
// (shifted forward by the gap), repeated (first occurrence).
func TestResolve(t *testing.T) {
	cases := []struct {
		zone  string
		wall  int64
		want  string
		inGap bool
	}{
		{"America/New_York", naive(2024, 3, 10, 1, 59), "2024-03-10T01:59:00-05:00", false},
		{"America/New_York", naive(2024, 3, 10, 2, 0), "2024-03-10T03:00:00-04:00", true},
		{"America/New_York", naive(2024, 3, 10, 2, 30), "2024-03-10T03:30:00-04:00", true},
		{"America/New_York", naive(2024, 3, 10, 3, 0), "2024-03-10T03:00:00-04:00", false},
		{"America/New_York", naive(2024, 11, 3, 1, 30), "2024-11-03T01:30:00-04:00", false},
		{"America/New_York", naive(2024, 11, 3, 2, 0), "2024-11-03T02:00:00-05:00", false},
		{"Europe/Berlin", naive(2024, 3, 31, 2, 30), "2024-03-31T03:30:00+02:00", true},
		{"Europe/Berlin", naive(2024, 10, 27, 2, 30), "2024-10-27T02:30:00+02:00", false},
		{"Australia/Lord_Howe", naive(2024, 10, 6, 2, 15), "2024-10-06T02:45:00+11:00", true},
		{"Australia/Lord_Howe", naive(2024, 4, 7, 1, 45), "2024-04-07T01:45:00+11:00", false},
		// Samoa skipped 2011-12-30 entirely (-10 to +14): a 24 h gap.
		{"Pacific/Apia", naive(2011, 12, 30, 12, 0), "2011-12-31T12:00:00+14:00", true},
		{"America/Sao_Paulo", naive(2018, 11, 4, 0, 0), "2018-11-04T01:00:00-02:00", true},
		{"UTC", naive(2024, 3, 10, 2, 30), "2024-03-10T02:30:00Z", false},
		{"Asia/Kathmandu", naive(2024, 3, 10, 2, 30), "2024-03-10T02:30:00+05:45", false},
	}
	for _, tc := range cases {
		z := zone{loc: mustZone(t, tc.zone)}
		r := z.resolve(tc.wall)
		must.EqOp(t, rfc(t, tc.want), r.instant, must.Sprint(tc.zone, " ", tc.want))
		must.EqOp(t, tc.inGap, r.gap, must.Sprint(tc.zone, " ", tc.want))
		if r.gap {
			must.True(t, r.gapLo <= tc.wall && tc.wall < r.gapHi)
		}
	}
}

// TestWallAt: the second copy of a repeated hour reads as the wall clock
// just before the repeat; everything else as its own wall clock.
func TestWallAt(t *testing.T) {
	z := zone{loc: mustZone(t, "America/New_York")}
	must.EqOp(t, naive(2024, 11, 3, 1, 30), z.wallAt(rfc(t, "2024-11-03T01:30:00-04:00")))
	must.EqOp(t, naive(2024, 11, 3, 2, 0)-1, z.wallAt(rfc(t, "2024-11-03T01:30:00-05:00")))
	must.EqOp(t, naive(2024, 11, 3, 2, 0), z.wallAt(rfc(t, "2024-11-03T02:00:00-05:00")))
	must.EqOp(t, naive(2024, 3, 10, 3, 0), z.wallAt(rfc(t, "2024-03-10T03:00:00-04:00")))
}

// TestZonePeriods walks every offset change of the property zones from
// 1968 to 2102: each period starts where the last ended, the offset really
// changes there, and before() undoes after(). Go's ZoneBounds alone fails
// this beyond a zone's last explicit transition (see wallclock.go).
func TestZonePeriods(t *testing.T) {
	lo := time.Date(1968, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2102, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for _, name := range propertyZones {
		z := zone{loc: cachedZone(t, name)}
		p := z.at(lo)
		for p.end < hi {
			q, ok := z.after(p)
			must.True(t, ok)
			must.EqOp(t, p.end, q.start, must.Sprint(name))
			must.NotEqOp(t, p.offset, q.offset, must.Sprint(name, " at ", q.start))
			must.EqOp(t, p.offset, z.offset(q.start-1), must.Sprint(name))
			back, ok := z.before(q)
			must.True(t, ok)
			must.EqOp(t, p, back, must.Sprint(name))
			p = q
		}
	}
	// The case that breaks ZoneBounds: New York's last day of 2040, a leap
	// year past the zone file's table.
	z := zone{loc: mustZone(t, "America/New_York")}
	p := z.at(rfc(t, "2040-12-31T12:00:00-05:00"))
	must.EqOp(t, rfc(t, "2040-11-04T01:00:00-05:00"), p.start)
	must.EqOp(t, rfc(t, "2041-03-10T03:00:00-04:00"), p.end)
	// A fixed zone has one period.
	u := zone{loc: time.UTC}.at(0)
	must.EqOp(t, period{start: beginningOfTime, end: endOfTime}, u)
	_, ok := zone{loc: time.UTC}.before(u)
	must.False(t, ok)
	_, ok = zone{loc: time.UTC}.after(u)
	must.False(t, ok)
}

// TestBisect: the fallback that locates an offset change when Go's bound
// hint is broken finds the exact transition from either side.
func TestBisect(t *testing.T) {
	z := zone{loc: mustZone(t, "America/New_York")}
	tr := rfc(t, "2024-03-10T03:00:00-04:00")
	est, edt := int64(-5*3600), int64(-4*3600)
	must.EqOp(t, tr, z.bisect(tr-day, tr+day, est))
	must.EqOp(t, tr, z.bisect(tr-day, tr+day, edt))
	must.EqOp(t, tr, z.bisect(tr-1, tr, est))
}
