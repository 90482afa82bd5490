package schedulecmd

import (
	"testing"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/schedule"
)

func TestStamps(t *testing.T) {
	nyc := mustZone(t, "America/New_York")
	cases := []struct {
		name       string
		at         time.Time
		local, utc string
	}{
		{"spring forward (SCHED-6)", time.Date(2024, 3, 10, 7, 30, 0, 0, time.UTC),
			"2024-03-10 03:30 EDT (-04:00)", "2024-03-10 07:30 UTC"},
		{"winter", time.Date(2024, 1, 2, 14, 0, 0, 0, time.UTC),
			"2024-01-02 09:00 EST (-05:00)", "2024-01-02 14:00 UTC"},
		{"seconds shown when set", time.Date(2024, 1, 2, 14, 0, 5, 0, time.UTC),
			"2024-01-02 09:00:05 EST (-05:00)", "2024-01-02 14:00:05 UTC"},
		{"sub-second shows seconds", time.Date(2024, 1, 2, 14, 0, 0, 500, time.UTC),
			"2024-01-02 09:00:00 EST (-05:00)", "2024-01-02 14:00:00 UTC"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Eq(t, tc.local, localStamp(tc.at, nyc))
			must.Eq(t, tc.utc, utcStamp(tc.at))
		})
	}
}

func TestZoneOf(t *testing.T) {
	nyc := mustZone(t, "America/New_York")
	cases := []struct {
		tz       string
		local    *time.Location
		wantName string
		wantLoc  string
	}{
		{"", nyc, "Local (America/New_York)", "America/New_York"},
		{"Local", nyc, "Local (America/New_York)", "America/New_York"},
		{"", time.FixedZone("Local", 0), "Local", "Local"}, // no TZ: Go names the zone Local
		{"Europe/Berlin", nyc, "Europe/Berlin", "Europe/Berlin"},
		{"EST5EDT", nyc, "EST5EDT", "EST5EDT"},
	}
	for _, tc := range cases {
		loc, name, err := zoneOf(tc.tz, tc.local)
		must.NoError(t, err)
		must.Eq(t, tc.wantName, name)
		must.Eq(t, tc.wantLoc, loc.String())
	}
	_, _, err := zoneOf("Mars/Olympus", nyc)
	must.Error(t, err)
}

func TestStatus(t *testing.T) {
	at := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
	end := at.Add(time.Hour)
	cases := []struct {
		name string
		rep  report
		want string
	}{
		{"inside", report{result: resultOf(true, end, end)}, statusInside},
		{"inside forever", report{result: resultOf(true, time.Time{}, time.Time{})}, statusInsideForever},
		{"outside", report{result: resultOf(false, time.Time{}, end)}, statusOutside},
		{"outside, no future start", report{result: resultOf(false, time.Time{}, time.Time{})}, statusOutsideNever},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Eq(t, tc.want, status(tc.rep))
		})
	}
}

func resultOf(inside bool, windowEnd, nextStart time.Time) schedule.Result {
	return schedule.Result{Inside: inside, WindowEnd: windowEnd, NextStart: nextStart}
}
