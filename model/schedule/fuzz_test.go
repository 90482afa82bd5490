package schedule

import (
	"errors"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// FuzzValidateEvaluate feeds arbitrary start, end and zone strings and
// instants to Validate, Evaluate and NextWindows. Nothing may panic or
// hang (every search is bounded, see doc.go); Validate answers per
// profile; Evaluate either fails with one of SCHED-8's three errors or
// gives a result satisfying checkInvariants. The seeds run under plain
// go test.
func FuzzValidateEvaluate(f *testing.F) {
	seeds := []struct {
		start, end, zone string
		sec              int64
		nsec             uint32
		ce               bool
	}{
		{"0 9-17 * * * *", "30 17", "UTC", 1718187300, 0, false},
		{"30 21 * * * *", "15 3", "Europe/Berlin", 1711846800, 0, false},
		{"30 2 * * * *", "0 3", "America/New_York", 1710055800, 0, false},
		{"30 1 * * * *", "45 1", "America/New_York", 1730615700, 0, true},
		{"15 2 * * * *", "0 3", "Australia/Lord_Howe", 1728141000, 0, false},
		{"0 9 * * * *", "0 9", "Asia/Kathmandu", 1718167500, 999999999, false},
		{"0 9 1 * MON *", "0 17", "EST5EDT", 1727773200, 0, false},
		{"0 9 30 2 * *", "0 17", "EST", 1709200800, 0, false},
		{"0 9 * * * 2025", "0 17", "Local", 1767175200, 1, false},
		{"30 0 9 * * * *", "15 0 2", "", 0, 0, false},
		{"0 9 * * 5-7 *", "0 17", "Pacific/Apia", 1325239200, 0, false},
		{"* * * * * * *", "* * *", "Asia/Tehran", -1, 5, false},
		{"@daily", "0", "UTC", 4102444800, 0, false},
		{"59-0 23-1 * DEC-JAN * *", "0 17-3", "UTC", 1718187300, 0, false},
		{"0 9 L * 5L *", "0 17", "America/Santiago", 1718187300, 0, false},
		{"0 25 * * * *", "0 17", "UTC", 0, 0, false},
		{"0 9 * * * *", "0 24", "UTC", 0, 0, false},
		{"0 9 * * * *", "0 17", "Mars/Olympus", 0, 0, false},
		{"", "", "", 0, 0, false},
		{"0 9 * * */0 *", "0 17", "UTC", 0, 0, false},
		{"0 9 * * * *", "0 17", "../../../../etc/passwd", 0, 0, false},
		{"0 9 * * * *", "0 17", "Antarctica/Troll", -62135596800, 0, false},
		{"0 9 * * * *", "0 17", "UTC", 253402300799, 0, false},
	}
	for _, s := range seeds {
		f.Add(s.start, s.end, s.zone, s.sec, s.nsec, s.ce)
	}
	local := time.FixedZone("fuzz-local", -(3*3600 + 30*60))
	f.Fuzz(func(t *testing.T, start, end, zone string, sec int64, nsec uint32, ce bool) {
		s := &Schedule{Cron: &Cron{Start: start, End: end, Timezone: zone}}
		if ce {
			must.ErrorIs(t, Validate(s, ProfileCE), ErrEnterpriseOnly)
		} else {
			_ = Validate(s, ProfileEnt)
		}
		at := time.Unix(sec, int64(nsec%1_000_000_000))
		r, err := Evaluate(s, at, local)
		if err != nil {
			must.True(t, errors.Is(err, ErrInvalidTimezone) || errors.Is(err, ErrInvalidStart) || errors.Is(err, ErrInvalidEnd),
				must.Sprint("unexpected error: ", err))
			return
		}
		c, err := Compile(s, local)
		must.NoError(t, err)
		must.Eq(t, r, c.Evaluate(at))
		checkInvariants(t, c, at)
	})
}
