package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/shoenig/test/must"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// testEnv is a fixed clock (2024-07-01 12:00 EDT) and New York as the
// machine's zone, so no golden depends on the host.
func testEnv(t testing.TB) environment {
	nyc, err := time.LoadLocation("America/New_York")
	must.NoError(t, err)
	return environment{
		now:   func() time.Time { return time.Date(2024, 7, 1, 16, 0, 0, 0, time.UTC) },
		local: nyc,
	}
}

// goldenCases: each writes testdata/golden/<name>.txtar holding the command
// line and exit code (the comment), stdout and stderr.
var goldenCases = []struct {
	name string
	args []string
}{
	{"help", []string{"help"}},
	{"runners", []string{"runners"}},
	{"runners_help", []string{"runners", "-h"}},
	{"no_args", nil},
	{"unknown_command", []string{"frobnicate"}},
	{"schedule_help", []string{"schedule", "--help"}},

	// SCHED-5: weekday office hours, New York.
	{"schedule_inside", office("--at", "2024-07-01T12:00:00-04:00")},
	{"schedule_inside_json", office("--at", "2024-07-01T12:00:00-04:00", "--json")},
	{"schedule_outside", office("--at", "2024-07-05T18:00:00-04:00")},
	{"schedule_outside_json", office("--at", "2024-07-05T18:00:00-04:00", "--json")},
	{"schedule_next5", office("--at", "2024-07-05T18:00:00-04:00", "--next", "5")},
	{"schedule_next5_json", office("--at", "2024-07-05T18:00:00-04:00", "--next", "5", "--json")},
	// --timezone empty: the machine's zone (New York in testEnv); --at
	// defaults to the clock.
	{"schedule_local_zone_now", []string{"schedule", "--start", "0 9 * * MON-FRI *", "--end", "30 17"}},

	// SCHED-5 overnight, asked after midnight (Z form of --at).
	{"schedule_overnight", overnight("--at", "2024-07-02T05:00:00Z", "--next", "2")},
	{"schedule_overnight_json", overnight("--at", "2024-07-02T05:00:00Z", "--next", "2", "--json")},

	// SCHED-6 on New York's 2024 spring-forward and fall-back days.
	{"schedule_dst_spring", dst("30 2 * * * *", "0 3", "2024-03-10T03:30:00-04:00")},
	{"schedule_dst_spring_json", dst("30 2 * * * *", "0 3", "2024-03-10T03:30:00-04:00", "--json")},
	{"schedule_dst_fall", dst("30 1 * * * *", "0 2", "2024-11-03T01:45:00-05:00")},
	{"schedule_dst_fall_json", dst("30 1 * * * *", "0 2", "2024-11-03T01:45:00-05:00", "--json")},

	// SCHED-9: no future start.
	{"schedule_no_future_start", []string{"schedule", "--start", "0 9 30 2 * *", "--end", "0 17",
		"--timezone", "UTC", "--at", "2024-07-01T12:00:00Z", "--next", "2"}},

	// Invalid input: exit 2, SPEC message on stderr.
	{"schedule_ce", office("--at", "2024-07-01T12:00:00-04:00", "--profile", "ce")},
	{"schedule_ce_json", office("--at", "2024-07-01T12:00:00-04:00", "--profile", "ce", "--json")},
	{"schedule_invalid_fields", []string{"schedule", "--start", "0 9 * * MON-FRI", "--end", "30 17"}},
	{"schedule_invalid_cron", []string{"schedule", "--start", "0 25 * * * *", "--end", "30 17", "--timezone", "UTC"}},
	{"schedule_invalid_cron_json", []string{"schedule", "--start", "0 9 * * * *", "--end", "0 25", "--timezone", "UTC", "--json"}},
	{"schedule_invalid_zone", []string{"schedule", "--start", "0 9 * * * *", "--end", "30 17", "--timezone", "Mars/Olympus"}},
	{"schedule_missing_flags", []string{"schedule", "--timezone", "UTC"}},
	{"schedule_bad_at", office("--at", "2024-07-01 12:00")},
	{"schedule_next_cap", office("--next", "100000")},
	{"schedule_unknown_flag", office("--tz", "UTC")},

	// agent, job run, job stop, alloc pause: help and the errors that need no
	// agent.
	{"agent_help", []string{"agent", "--help"}},
	{"agent_no_dev", []string{"agent"}},
	{"job_run_help", []string{"job", "run", "--help"}},
	{"job_run_no_file", []string{"job", "run"}},
	{"job_stop_help", []string{"job", "stop", "--help"}},
	{"job_stop_no_job", []string{"job", "stop", "-purge"}},
	{"job_stop_two_jobs", []string{"job", "stop", "a", "b"}},
	{"alloc_pause_help", []string{"alloc", "pause", "--help"}},
	// API-8's first three checks, in order: arguments, -state, ID length.
	{"alloc_pause_no_args", []string{"alloc", "pause", "-state", "nap"}},
	{"alloc_pause_bad_state", []string{"alloc", "pause", "-state", "nap", "8"}},
	{"alloc_pause_short_id", []string{"alloc", "pause", "8", "web"}},

	// run and replay: help and the usage errors found before anything is
	// built.
	{"run_help", []string{"run", "--help"}},
	{"run_no_runner", []string{"run"}},
	{"run_unknown_runner", []string{"run", "--runner", "mutant/nope"}},
	{"replay_help", []string{"replay", "--help"}},
	{"replay_spec_id", []string{"replay", "--runner", "reference", "--property", "SCHED-5", "--seed", "1"}},
}

func office(extra ...string) []string {
	return append([]string{"schedule", "--start", "0 9 * * MON-FRI *", "--end", "30 17",
		"--timezone", "America/New_York"}, extra...)
}

func overnight(extra ...string) []string {
	return append([]string{"schedule", "--start", "30 21 * * * *", "--end", "15 3",
		"--timezone", "America/New_York"}, extra...)
}

func dst(start, end, at string, extra ...string) []string {
	return append([]string{"schedule", "--start", start, "--end", end,
		"--timezone", "America/New_York", "--at", at}, extra...)
}

// TestGolden runs each case through the router in-process and compares with
// its golden file. Regenerate with: go test ./cmd/conform -run TestGolden -update
func TestGolden(t *testing.T) {
	env := testEnv(t)
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(gc.args, &stdout, &stderr, env)
			got := txtar.Format(&txtar.Archive{
				Comment: fmt.Appendf(nil, "%s\nexit %d\n", shellQuote(append([]string{"conform"}, gc.args...)), code),
				Files: []txtar.File{
					{Name: "stdout", Data: stdout.Bytes()},
					{Name: "stderr", Data: stderr.Bytes()},
				},
			})
			path := filepath.Join("testdata", "golden", gc.name+".txtar")
			if *update {
				must.NoError(t, os.WriteFile(path, got, 0o644))
				return
			}
			want, err := os.ReadFile(path)
			must.NoError(t, err, must.Sprint("run: go test ./cmd/conform -run TestGolden -update"))
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s differs (-want +got); if intended, run go test ./cmd/conform -run TestGolden -update\n%s", path, diff)
			}
		})
	}
}

// TestNoStaleGolden: every golden file belongs to a case.
func TestNoStaleGolden(t *testing.T) {
	names := map[string]bool{}
	for _, gc := range goldenCases {
		must.False(t, names[gc.name], must.Sprintf("duplicate case %s", gc.name))
		names[gc.name] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.txtar"))
	must.NoError(t, err)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		must.True(t, names[name], must.Sprintf("%s has no case in goldenCases", f))
	}
}

// shellQuote prints args as a shell command line, for the golden header.
func shellQuote(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " *'\"$\\") {
			a = strconv.Quote(a)
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
