package schedulecmd

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/model/schedule"
)

// TestRender renders a hand-built report (no model call): seconds on --at,
// a next window that never closes, and a --next list cut short.
func TestRender(t *testing.T) {
	nyc := mustZone(t, "America/New_York")
	d := func(day, h, m int) time.Time { return time.Date(2099, 12, day, h, m, 0, 0, nyc) }
	rep := report{
		start: "0 9 * * * *", end: "0 17", zoneName: "America/New_York", zone: nyc,
		at: d(30, 12, 0).Add(1500 * time.Millisecond),
		result: schedule.Result{Inside: true, WindowStart: d(30, 9, 0), WindowEnd: d(30, 17, 0),
			NextStart: d(31, 9, 0)},
		listNext: true, want: 3,
		windows: []schedule.Window{{Start: d(30, 9, 0), End: d(30, 17, 0)}, {Start: d(31, 9, 0)}},
	}

	var human strings.Builder
	must.NoError(t, writeHuman(&human, rep))
	must.Eq(t, `Schedule: start "0 9 * * * *", end "0 17"
Timezone: America/New_York
Status:   inside: the task may run now

              LOCAL                             UTC
at            2099-12-30 12:00:01 EST (-05:00)  2099-12-30 17:00:01 UTC
window start  2099-12-30 09:00 EST (-05:00)     2099-12-30 14:00 UTC
window end    2099-12-30 17:00 EST (-05:00)     2099-12-30 22:00 UTC
next start    2099-12-31 09:00 EST (-05:00)     2099-12-31 14:00 UTC
next end      never                             never

Next 3 windows, from the current one:
#  START (LOCAL)                  END (LOCAL)                    START (UTC)           END (UTC)             LENGTH
1  2099-12-30 09:00 EST (-05:00)  2099-12-30 17:00 EST (-05:00)  2099-12-30 14:00 UTC  2099-12-30 22:00 UTC  8h0m0s
2  2099-12-31 09:00 EST (-05:00)  never                          2099-12-31 14:00 UTC  never                 never
Only 2 windows: the schedule has no later start.
`, human.String())

	var js strings.Builder
	must.NoError(t, writeJSON(&js, rep))
	must.Eq(t, `{"inside":true,"window_start":"2099-12-30T14:00:00Z","window_end":"2099-12-30T22:00:00Z",`+
		`"next_start":"2099-12-31T14:00:00Z","next_end":null,"windows":[{"start":"2099-12-30T14:00:00Z","end":"2099-12-30T22:00:00Z"},{"start":"2099-12-31T14:00:00Z","end":null}]}`+"\n",
		js.String())

	// Outside with no future start: no window rows, no next end row, and
	// JSON without "windows" when --next was not given.
	rep.result = schedule.Result{}
	rep.listNext, rep.want, rep.windows = false, 0, nil
	human.Reset()
	must.NoError(t, writeHuman(&human, rep))
	must.Eq(t, `Schedule: start "0 9 * * * *", end "0 17"
Timezone: America/New_York
Status:   outside: no future start, the task stays paused

            LOCAL                             UTC
at          2099-12-30 12:00:01 EST (-05:00)  2099-12-30 17:00:01 UTC
next start  none                              none
`, human.String())
	js.Reset()
	must.NoError(t, writeJSON(&js, rep))
	must.Eq(t, `{"inside":false,"window_start":null,"window_end":null,"next_start":null,"next_end":null}`+"\n", js.String())
}

// TestHumanListHeadings: the --next heading says whether the list starts
// with the current window, and an empty list says why.
func TestHumanListHeadings(t *testing.T) {
	base := []string{"--timezone", "UTC", "--at", "2024-07-01T12:00:00Z"}
	cases := []struct {
		name  string
		args  []string
		lines []string
	}{
		{"inside", []string{"--start", "0 9 * * * *", "--end", "0 17", "--next", "1"},
			[]string{"\nNext 1 window, from the current one:\n", "\n1  2024-07-01 09:00 UTC (+00:00)  2024-07-01 17:00 UTC (+00:00)  "}},
		{"no future start", []string{"--start", "0 9 30 2 * *", "--end", "0 17", "--next", "1"},
			[]string{"\nNext 1 window:\nNone: the schedule has no future start.\n"}},
		{"next 0", []string{"--start", "0 9 30 2 * *", "--end", "0 17", "--next", "0"},
			[]string{"\nNext 0 windows:\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := invoke(t, testConfig(t), append(tc.args, base...)...)
			must.Eq(t, 0, code, must.Sprint(stderr))
			for _, l := range tc.lines {
				must.StrContains(t, stdout, l)
			}
		})
	}
	// The production entry point is the zero Config.
	var out strings.Builder
	must.NoError(t, Config{}.Run("schedule", []string{"--help"}, &out, &out))
	must.StrContains(t, out.String(), "Exit codes:")
}

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
		{"inside", report{result: resultOf(true, end, end)}, "inside: the task may run now"},
		{"inside forever", report{result: resultOf(true, time.Time{}, time.Time{})}, "inside: the task may run now; the window never closes"},
		{"outside", report{result: resultOf(false, time.Time{}, end)}, "outside: the task is paused until the next start"},
		{"outside, no future start", report{result: resultOf(false, time.Time{}, time.Time{})}, "outside: no future start, the task stays paused"},
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

// TestJSON checks --json against SPEC §3 worked by hand: each want is the
// exact line (UTC instants with Z, null for absent values, "windows" only
// with --next).
func TestJSON(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{
			// SCHED-5: 09:00-17:30 New York (EDT, -04:00) at noon.
			name: "inside office hours",
			args: []string{"--start", "0 9 * * * *", "--end", "30 17", "--timezone", "America/New_York", "--at", "2024-07-01T12:00:00-04:00"},
			want: `{"inside":true,"window_start":"2024-07-01T13:00:00Z","window_end":"2024-07-01T21:30:00Z","next_start":"2024-07-02T13:00:00Z","next_end":"2024-07-02T21:30:00Z"}`,
		},
		{
			name: "same instant with Z",
			args: []string{"--start", "0 9 * * * *", "--end", "30 17", "--timezone", "America/New_York", "--at", "2024-07-01T16:00:00Z"},
			want: `{"inside":true,"window_start":"2024-07-01T13:00:00Z","window_end":"2024-07-01T21:30:00Z","next_start":"2024-07-02T13:00:00Z","next_end":"2024-07-02T21:30:00Z"}`,
		},
		{
			// The end is exclusive (SCHED-5).
			name: "outside at the end instant",
			args: []string{"--start", "0 9 * * * *", "--end", "30 17", "--timezone", "America/New_York", "--at", "2024-07-01T17:30:00-04:00"},
			want: `{"inside":false,"window_start":null,"window_end":null,"next_start":"2024-07-02T13:00:00Z","next_end":"2024-07-02T21:30:00Z"}`,
		},
		{
			// The start is inclusive (SCHED-5; Nomad 1.8-1.10 differ, SCHED-10).
			name: "inside at the start instant",
			args: []string{"--start", "0 9 * * * *", "--end", "30 17", "--timezone", "UTC", "--at", "2024-07-01T09:00:00Z"},
			want: `{"inside":true,"window_start":"2024-07-01T09:00:00Z","window_end":"2024-07-01T17:30:00Z","next_start":"2024-07-02T09:00:00Z","next_end":"2024-07-02T17:30:00Z"}`,
		},
		{
			// SCHED-5 overnight: 21:30 -> 03:15 next day; next start is the
			// first at or after the window end (SCHED-8).
			name: "overnight inside after midnight",
			args: []string{"--start", "30 21 * * * *", "--end", "15 3", "--timezone", "America/New_York", "--at", "2024-07-02T01:00:00-04:00"},
			want: `{"inside":true,"window_start":"2024-07-02T01:30:00Z","window_end":"2024-07-02T07:15:00Z","next_start":"2024-07-03T01:30:00Z","next_end":"2024-07-03T07:15:00Z"}`,
		},
		{
			// SCHED-6: 02:30 does not exist on 2024-03-10 in New York; it maps
			// to 03:30 EDT, after that day's 03:00, so the window closes at
			// the next day's 03:00 EDT. The 2024-03-11 02:30 start shares that
			// end (one merged window), so the next window is 2024-03-12.
			name: "spring forward gap start",
			args: []string{"--start", "30 2 * * * *", "--end", "0 3", "--timezone", "America/New_York", "--at", "2024-03-10T03:30:00-04:00"},
			want: `{"inside":true,"window_start":"2024-03-10T07:30:00Z","window_end":"2024-03-11T07:00:00Z","next_start":"2024-03-12T06:30:00Z","next_end":"2024-03-12T07:00:00Z"}`,
		},
		{
			name: "spring forward a minute before the shifted start",
			args: []string{"--start", "30 2 * * * *", "--end", "0 3", "--timezone", "America/New_York", "--at", "2024-03-10T07:29:00Z"},
			want: `{"inside":false,"window_start":null,"window_end":null,"next_start":"2024-03-10T07:30:00Z","next_end":"2024-03-11T07:00:00Z"}`,
		},
		{
			// SCHED-6: 01:30 occurs twice on 2024-11-03; only the first
			// (EDT) matches; 02:00 exists once (EST): a 90-minute window.
			name: "fall back repeated start",
			args: []string{"--start", "30 1 * * * *", "--end", "0 2", "--timezone", "America/New_York", "--at", "2024-11-03T01:45:00-05:00"},
			want: `{"inside":true,"window_start":"2024-11-03T05:30:00Z","window_end":"2024-11-03T07:00:00Z","next_start":"2024-11-04T06:30:00Z","next_end":"2024-11-04T07:00:00Z"}`,
		},
		{
			// SCHED-9: February 30 never comes.
			name: "no future start",
			args: []string{"--start", "0 9 30 2 * *", "--end", "0 17", "--timezone", "UTC", "--at", "2024-07-01T12:00:00Z", "--next", "3"},
			want: `{"inside":false,"window_start":null,"window_end":null,"next_start":null,"next_end":null,"windows":[]}`,
		},
		{
			// The last start cronexpr can produce (2099): no end follows.
			// Inside, the list starts with the current window (NextWindows).
			name: "window that never closes",
			args: []string{"--start", "0 12 31 12 * 2099", "--end", "0 11", "--timezone", "UTC", "--at", "2099-12-31T13:00:00Z", "--next", "3"},
			want: `{"inside":true,"window_start":"2099-12-31T12:00:00Z","window_end":null,"next_start":null,"next_end":null,"windows":[{"start":"2099-12-31T12:00:00Z","end":null}]}`,
		},
		{
			name: "next window never closes",
			args: []string{"--start", "0 12 31 12 * 2099", "--end", "0 11", "--timezone", "UTC", "--at", "2099-12-31T11:00:00Z", "--next", "2"},
			want: `{"inside":false,"window_start":null,"window_end":null,"next_start":"2099-12-31T12:00:00Z","next_end":null,"windows":[{"start":"2099-12-31T12:00:00Z","end":null}]}`,
		},
		{
			// Inside: the list starts with the current window.
			name: "next 2 from inside",
			args: []string{"--start", "0 9 * * * *", "--end", "30 17", "--timezone", "UTC", "--at", "2024-07-01T12:00:00Z", "--next", "2"},
			want: `{"inside":true,"window_start":"2024-07-01T09:00:00Z","window_end":"2024-07-01T17:30:00Z","next_start":"2024-07-02T09:00:00Z","next_end":"2024-07-02T17:30:00Z",` +
				`"windows":[{"start":"2024-07-01T09:00:00Z","end":"2024-07-01T17:30:00Z"},{"start":"2024-07-02T09:00:00Z","end":"2024-07-02T17:30:00Z"}]}`,
		},
		{
			// Friday evening: the next five weekday windows.
			name: "next 5 weekdays",
			args: []string{"--start", "0 9 * * MON-FRI *", "--end", "30 17", "--timezone", "America/New_York", "--at", "2024-07-05T18:00:00-04:00", "--next", "5"},
			want: `{"inside":false,"window_start":null,"window_end":null,"next_start":"2024-07-08T13:00:00Z","next_end":"2024-07-08T21:30:00Z","windows":[` +
				`{"start":"2024-07-08T13:00:00Z","end":"2024-07-08T21:30:00Z"},{"start":"2024-07-09T13:00:00Z","end":"2024-07-09T21:30:00Z"},` +
				`{"start":"2024-07-10T13:00:00Z","end":"2024-07-10T21:30:00Z"},{"start":"2024-07-11T13:00:00Z","end":"2024-07-11T21:30:00Z"},` +
				`{"start":"2024-07-12T13:00:00Z","end":"2024-07-12T21:30:00Z"}]}`,
		},
		{
			name: "next 0 lists an empty array",
			args: []string{"--start", "0 9 * * * *", "--end", "0 17", "--timezone", "UTC", "--at", "2024-07-01T18:00:00Z", "--next", "0"},
			want: `{"inside":false,"window_start":null,"window_end":null,"next_start":"2024-07-02T09:00:00Z","next_end":"2024-07-02T17:00:00Z","windows":[]}`,
		},
		{
			// SCHED-8: t keeps its sub-second part.
			name: "sub-second at",
			args: []string{"--start", "0 9 * * * *", "--end", "0 10", "--timezone", "UTC", "--at", "2024-07-01T08:59:59.5Z"},
			want: `{"inside":false,"window_start":null,"window_end":null,"next_start":"2024-07-01T09:00:00Z","next_end":"2024-07-01T10:00:00Z"}`,
		},
		{
			name: "ce is fine with ent",
			args: []string{"--start", "0 9 * * * *", "--end", "0 17", "--timezone", "UTC", "--at", "2024-07-01T12:00:00Z", "--profile", "ent"},
			want: `{"inside":true,"window_start":"2024-07-01T09:00:00Z","window_end":"2024-07-01T17:00:00Z","next_start":"2024-07-02T09:00:00Z","next_end":"2024-07-02T17:00:00Z"}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := invoke(t, testConfig(t), append(tc.args, "--json")...)
			must.Eq(t, "", stderr)
			must.Eq(t, cli.ExitOK, code)
			must.Eq(t, tc.want+"\n", stdout)
			must.True(t, json.Valid([]byte(stdout)))
		})
	}
}

// TestLocalZoneAndClock: --timezone empty or "Local" is the injected local
// zone (SCHED-4), and --at defaults to the injected clock.
func TestLocalZoneAndClock(t *testing.T) {
	cfg := testConfig(t) // New York, 2024-07-01 12:00 EDT
	jsonOf := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := invoke(t, cfg, append([]string{"--start", "0 9 * * * *", "--end", "30 17", "--json"}, args...)...)
		must.Eq(t, cli.ExitOK, code, must.Sprint(stderr))
		return stdout
	}
	explicit := jsonOf("--timezone", "America/New_York", "--at", "2024-07-01T16:00:00Z")
	must.StrContains(t, explicit, `"window_start":"2024-07-01T13:00:00Z"`)
	must.Eq(t, explicit, jsonOf("--at", "2024-07-01T16:00:00Z"))
	must.Eq(t, explicit, jsonOf("--timezone", "Local", "--at", "2024-07-01T16:00:00Z"))
	must.Eq(t, explicit, jsonOf("--timezone", "America/New_York"))

	// A different local zone changes the answer: the test can fail.
	cfg.Local = time.UTC
	must.NotEq(t, explicit, jsonOf("--at", "2024-07-01T16:00:00Z"))
}

// TestDefaultAdapters: the zero Config reads time.Now and time.Local.
func TestDefaultAdapters(t *testing.T) {
	c := Config{}
	must.Eq(t, time.Local, c.local())
	before := time.Now()
	at, err := c.at("")
	must.NoError(t, err)
	must.False(t, at.Before(before))
}
