package schedulecmd

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
)

// SPEC messages, verbatim (SCHED-1, SCHED-2, SCHED-8). The command must
// print them unchanged after its "conform schedule: " prefix.
const (
	specCE           = "task schedules requires Nomad Enterprise"
	specNoCron       = "must specify cron block"
	specStartFields  = "cron.start must contain 6 fields"
	specEndFields    = "cron.end must contain 2 fields"
	specStartSlashes = `cron.start must not contain "/,"`
	specEndSlashes   = `cron.end must not contain "/,"`
	specBadZone      = "invalid timezone in schedule: unknown time zone Mars/Olympus"
	specBadStartHour = `invalid start time in schedule: "0 25 * * * *"; syntax error in hour field: '25'`
	specBadEndHour   = `invalid end time in schedule: "0 25"; syntax error in hour field: '25'`
)

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	must.NoError(t, err)
	return loc
}

// testConfig is a fixed clock (2024-07-01 12:00 New York) and New York as
// the machine's zone.
func testConfig(t testing.TB) Config {
	return Config{
		Now:   func() time.Time { return time.Date(2024, 7, 1, 16, 0, 0, 0, time.UTC) },
		Local: mustZone(t, "America/New_York"),
	}
}

// invoke runs the command as the router does and returns what it printed
// and the exit code.
func invoke(t testing.TB, cfg Config, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Report(&errb, "schedule", cfg.Run("schedule", args, &out, &errb))
	return out.String(), errb.String(), code
}

// usageStderr is what stderr holds for a usage error with message msg.
func usageStderr(msg string) string {
	return "conform schedule: " + msg + "\nRun 'conform schedule --help' for usage.\n"
}

// TestFlagErrors covers the command's own checks: they need no model call
// and all exit 2 with nothing on stdout.
func TestFlagErrors(t *testing.T) {
	ok := []string{"--start", "0 9 * * * *", "--end", "0 17", "--timezone", "UTC", "--at", "2024-07-01T12:00:00Z"}
	with := func(extra ...string) []string { return append(append([]string{}, ok...), extra...) }
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"no flags", nil, "missing required flag(s): --start, --end"},
		{"no start", []string{"--end", "0 17"}, "missing required flag(s): --start"},
		{"no end", []string{"--start", "0 9 * * * *"}, "missing required flag(s): --end"},
		{"positional argument", with("now"), `unexpected argument "now": conform schedule takes only flags`},
		{"bad profile", with("--profile", "oss"), `invalid --profile "oss": want ent or ce`},
		{"negative next", with("--next", "-1"), "invalid --next -1: want 0 to 1000 (the cap on listed windows)"},
		{"absurd next", with("--next", "1001"), "invalid --next 1001: want 0 to 1000 (the cap on listed windows)"},
		{"unknown flag", with("--zone", "UTC"), "flag provided but not defined: -zone"},
		{"next not a number", with("--next", "five"), `invalid value "five" for flag -next: parse error`},
		{"at without offset", with("--at", "2024-07-01T12:00:00"),
			`invalid --at "2024-07-01T12:00:00": want RFC 3339 such as 2024-03-10T07:30:00Z or 2024-03-10T03:30:00-04:00: ` +
				`parsing time "2024-07-01T12:00:00" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "" as "Z07:00"`},
		{"at as a date", with("--at", "tomorrow"),
			`invalid --at "tomorrow": want RFC 3339 such as 2024-03-10T07:30:00Z or 2024-03-10T03:30:00-04:00: ` +
				`parsing time "tomorrow" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "tomorrow" as "2006"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := invoke(t, testConfig(t), tc.args...)
			must.Eq(t, cli.ExitUsage, code)
			must.Eq(t, usageStderr(tc.msg), stderr)
			must.Eq(t, "", stdout)
		})
	}
}

// TestSpecErrors: Validate with the profile runs first (SCHED-1, SCHED-2),
// then Evaluate (SCHED-8); their messages are printed verbatim, exit 2.
func TestSpecErrors(t *testing.T) {
	cases := []struct {
		name                  string
		start, end, tz, extra string
		msg                   string
	}{
		{"ce rejects a valid schedule", "0 9 * * * *", "0 17", "UTC", "ce", specCE},
		{"ce rejects before any other check", "0 9", "0 17 *", "Mars/Olympus", "ce", specCE},
		{"start field count", "0 9 * * *", "0 17", "UTC", "", specStartFields},
		{"empty start", "", "0 17", "UTC", "", specStartFields},
		{"double space is not a separator", "0  9 * * * *", "0 17", "UTC", "", specStartFields},
		{"macro", "@daily", "0 17", "UTC", "", specStartFields},
		{"end field count", "0 9 * * * *", "0 17 *", "UTC", "", specEndFields},
		{"start step", "*/5 9 * * * *", "0 17", "UTC", "", specStartSlashes},
		{"end list", "0 9 * * * *", "0,30 17", "UTC", "", specEndSlashes},
		{"validation before zone", "0 9 * * *", "0 17", "Mars/Olympus", "", specStartFields},
		{"unknown zone", "0 9 * * * *", "0 17", "Mars/Olympus", "", specBadZone},
		{"zone before start syntax", "0 25 * * * *", "0 17", "Mars/Olympus", "", specBadZone},
		{"start syntax", "0 25 * * * *", "0 17", "UTC", "", specBadStartHour},
		{"start before end syntax", "0 25 * * * *", "0 25", "UTC", "", specBadStartHour},
		{"end syntax", "0 9 * * * *", "0 25", "UTC", "", specBadEndHour},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"--start", tc.start, "--end", tc.end, "--timezone", tc.tz, "--at", "2024-07-01T12:00:00Z"}
			if tc.extra != "" {
				args = append(args, "--profile", tc.extra)
			}
			for _, format := range [][]string{nil, {"--json"}, {"--next", "3"}} {
				stdout, stderr, code := invoke(t, testConfig(t), append(args, format...)...)
				must.Eq(t, cli.ExitUsage, code)
				must.Eq(t, usageStderr(tc.msg), stderr)
				must.Eq(t, "", stdout)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		stdout, stderr, code := invoke(t, Config{}, arg)
		must.Eq(t, cli.ExitOK, code)
		must.Eq(t, "", stderr)
		must.StrContains(t, stdout, "Exit codes:")
		must.StrContains(t, stdout, "Examples:")
	}
}

// TestHelpDocumentsEveryFlag fails when a flag is added without help text.
func TestHelpDocumentsEveryFlag(t *testing.T) {
	var b strings.Builder
	writeHelp(&b)
	help := b.String()
	var o options
	n := 0
	newFlagSet("schedule", &o).VisitAll(func(f *flag.Flag) {
		n++
		must.StrContains(t, help, "\n  --"+f.Name+" ", must.Sprintf("flag --%s is not documented", f.Name))
	})
	must.Eq(t, 7, n)
}

// errWriter fails every write.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestWriteFailureIsExit1: an output failure is not the user's fault.
func TestWriteFailureIsExit1(t *testing.T) {
	for _, format := range [][]string{nil, {"--json"}} {
		args := append([]string{"--start", "0 9 * * * *", "--end", "0 17", "--timezone", "UTC",
			"--at", "2024-07-01T12:00:00Z", "--next", "2"}, format...)
		var errb bytes.Buffer
		code := cli.Report(&errb, "schedule", testConfig(t).Run("schedule", args, errWriter{}, &errb))
		must.Eq(t, cli.ExitFailure, code)
		must.Eq(t, "conform schedule: writing the schedule report: broken pipe\n", errb.String())
	}
}
