package schedulecmd

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
)

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
