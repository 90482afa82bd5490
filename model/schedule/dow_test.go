package schedule

import (
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// TestNormalizeDOW pins the day-of-week rewriting of dow.go.
func TestNormalizeDOW(t *testing.T) {
	cases := []struct{ in, want string }{
		{"0 9 * * * *", "0 9 * * * *"},
		{"0 9 * * MON-FRI *", "0 9 * * MON-FRI *"},
		{"0 9 * * FRI-MON *", "0 9 * * FRI-MON *"},
		{"0 9 * * 7-3 *", "0 9 * * 7-3 *"},
		{"0 9 * * 5-7 *", "0 9 * * 5,6,0 *"},
		{"0 9 * * 6-07 *", "0 9 * * 6,0 *"},
		{"0 9 * * 0-7 *", "0 9 * * 0,1,2,3,4,5,6,0 *"},
		{"0 9 * * 7-7 *", "0 9 * * 0 *"},
		{"0 9 * * fri-sun *", "0 9 * * 5,6,0 *"},
		{"0 9 * * Sat-Sunday *", "0 9 * * 6,0 *"},
		{"0 9 * * SUN-SUN *", "0 9 * * 0 *"},
		{"0 9 * * 0-sun *", "0 9 * * 0 *"},
		{"0 9 * * 0-0 *", "0 9 * * 0 *"},
		{"0 9 * * 5-0 *", "0 9 * * 6-1 *"},
		{"0 9 * * 7-0 *", "0 9 * * 6-1 *"},
		{"0 9 * * 1-7/2 *", "0 9 * * 1,3,5,0 *"},
		{"0 9 * * 05 *", "0 9 * * 5 *"},
		{"0 9 * * 01-03 *", "0 9 * * 1-3 *"},
		{"0 9 * * 01-03/02 *", "0 9 * * 1-3/2 *"},
		{"0 9 * * 05L *", "0 9 * * 5l *"},
		{"0 9 * * 1,05-07 *", "0 9 * * 1,5,6,0 *"},
		// A leading seconds field moves day-of-week to the sixth field;
		// the seventh (year) is untouched even when it could look alike.
		{"0 0 9 * * 5-7 2024", "0 0 9 * * 5,6,0 2024"},
		{"0 0 9 * * * 2024", "0 0 9 * * * 2024"},
		// Macros expand as cronexpr expands them.
		{"@weekly", "@weekly"},
		// Under five fields cronexpr reports the error; nothing to do.
		{"0 9 5-7", "0 9 5-7"},
	}
	for _, tc := range cases {
		must.EqOp(t, tc.want, normalizeDOW(tc.in), must.Sprint(tc.in))
	}
}

// TestDOWMatches checks the fixed readings end to end: which weekdays of
// the week of Sunday 2024-06-16 a start matches at 09:00 UTC.
func TestDOWMatches(t *testing.T) {
	cases := []struct {
		dow  string
		want string // weekdays matched, Sunday first
	}{
		{"5-7", "Fri Sat Sun"},
		{"FRI-SUN", "Fri Sat Sun"},
		{"1-7", "Mon Tue Wed Thu Fri Sat Sun"},
		{"0-7", "Mon Tue Wed Thu Fri Sat Sun"},
		{"7", "Sun"},
		{"07", "Sun"},
		{"7-7", "Sun"},
		{"05", "Fri"},
		{"01-03", "Mon Tue Wed"},
		{"FRI-MON", ""},
		{"5-0", ""},
		{"7-2", "Mon Tue Sun"}, // cronexpr: 7 first is Sunday (0-2)
		{"MON-FRI", "Mon Tue Wed Thu Fri"},
		{"?", "Mon Tue Wed Thu Fri Sat Sun"},
	}
	monday := time.Date(2024, 6, 10, 0, 0, 0, 0, time.UTC)
	for _, tc := range cases {
		c, err := Compile(cron("0 9 * * "+tc.dow+" *", "0 10"), nil)
		must.NoError(t, err, must.Sprint(tc.dow))
		var got []string
		for d := range 7 {
			at := monday.AddDate(0, 0, d).Add(9*time.Hour + 30*time.Minute)
			if c.Evaluate(at).Inside {
				got = append(got, at.Weekday().String()[:3])
			}
		}
		must.EqOp(t, tc.want, joinWords(got), must.Sprint(tc.dow))
	}
}

func joinWords(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += " "
		}
		out += w
	}
	return out
}

// TestNeverMatches: empty second, minute, hour and month fields (SCHED-3:
// first > last matches nothing) are caught before cronexpr's Next would
// panic or crawl to 2099; other fields and valid ranges are not.
func TestNeverMatches(t *testing.T) {
	never := []string{
		"59-0 9 * * * *", "0 23-1 * * * *", "0 9 * DEC-JAN * *", "0 9 * 12-november * *",
		"30-1 0 9 * * * *", "0 5-1 * * * * *", "5-1 * * * *", "0 9-1,22-2 * * * *",
	}
	for _, e := range never {
		must.True(t, neverMatches(e), must.Sprint(e))
		r, err := Evaluate(cron(e, "0 17"), time.Date(2024, 6, 12, 0, 0, 0, 0, time.UTC), nil)
		must.NoError(t, err, must.Sprint(e))
		must.EqOp(t, Result{}, r, must.Sprint(e))
	}
	sometimes := []string{
		"0 9 * * * *", "0 9-9 * * * *", "0 9-1,3 * * * *", "0 9 31-1 * * *", "0 9 * * FRI-MON *",
		"0 9 * * * 2030-2020", "* * * * *", "@daily", "0 9",
	}
	for _, e := range sometimes {
		must.False(t, neverMatches(e), must.Sprint(e))
	}
	// An empty end never closes a window.
	r, err := Evaluate(cron("0 9 * * * *", "0 17-3"), time.Date(2024, 6, 12, 10, 0, 0, 0, time.UTC), nil)
	must.NoError(t, err)
	must.True(t, r.Inside)
	must.True(t, r.WindowEnd.IsZero())
	must.EqOp(t, "1970-01-01T09:00:00Z", stamp(r.WindowStart, "none"))
}
