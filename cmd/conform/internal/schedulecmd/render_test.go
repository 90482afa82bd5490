package schedulecmd

import (
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"

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
	must.NoError(t, Run("schedule", []string{"--help"}, &out, &out))
	must.StrContains(t, out.String(), "Exit codes:")
}
