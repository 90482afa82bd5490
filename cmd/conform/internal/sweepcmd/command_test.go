package sweepcmd

import (
	"bytes"
	"flag"
	"testing"

	"github.com/allocsim/allocsim/internal/goldenfile"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/reports"
	"github.com/shoenig/test/must"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenDir is absolute: tests change directory.
var goldenDir = goldenfile.Dir()

// golden compares got with testdata/golden/<name> (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, goldenDir, name, got, *update, "go test ./cmd/conform/internal/sweepcmd -run Golden -update")
}

// run runs one command and returns its exit code and output.
func run(f func(string, []string, *bytes.Buffer, *bytes.Buffer) error, name string, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Report(&stderr, name, f(name, args, &stdout, &stderr))
	return code, stdout.String(), stderr.String()
}

func sweepRun(c Config) func(string, []string, *bytes.Buffer, *bytes.Buffer) error {
	return func(n string, a []string, o, e *bytes.Buffer) error { return c.Run(n, a, o, e) }
}

func mergeRun(c Config) func(string, []string, *bytes.Buffer, *bytes.Buffer) error {
	return func(n string, a []string, o, e *bytes.Buffer) error { return c.Merge(n, a, o, e) }
}

func TestGoldenHelp(t *testing.T) {
	c := Config{Self: "conform"}
	code, stdout, stderr := run(sweepRun(c), "sweep", "--help")
	must.EqOp(t, 0, code)
	must.EqOp(t, "", stderr)
	golden(t, "sweep_help.txt", stdout)
	code, stdout, stderr = run(mergeRun(c), "sweep merge", "-h")
	must.EqOp(t, 0, code)
	must.EqOp(t, "", stderr)
	golden(t, "merge_help.txt", stdout)
}

// TestUsageErrors: bad input is exit 2 with one clear line and a pointer
// to --help, before any suite runs.
func TestUsageErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	c := Config{Self: "conform"}
	cases := []struct {
		args []string
		want string
	}{
		{nil, "conform sweep: name the runner and the seeds: --runner NAME --seeds A..B (or continue a sweep with --resume FILE)\n"},
		{[]string{"--runner", "reference", "--seeds", "1..6", "extra"}, "conform sweep: unexpected arguments [\"extra\"] (did you mean sweep merge?)\n"},
		{[]string{"--runner", "reference", "--seeds", "1..6", "--shard", "0/2"}, "conform sweep: --shard \"0/2\": want i/n with 1 ≤ i ≤ n (e.g. 1/4)\n"},
		{[]string{"--runner", "reference", "--seeds", "1...6"}, "conform sweep: --seeds \"1...6\": want A..B with 1 ≤ A ≤ B (e.g. 1..10000)\n"},
		{[]string{"--runner", "mutant/nope", "--seeds", "1..6"}, "conform sweep: no built-in runner \"mutant/nope\""},
		{[]string{"--bogus"}, "conform sweep: flag provided but not defined: -bogus\n"},
	}
	for _, tc := range cases {
		code, stdout, stderr := run(sweepRun(c), "sweep", tc.args...)
		must.EqOp(t, cli.ExitUsage, code, must.Sprint(tc.args))
		must.EqOp(t, "", stdout)
		must.StrHasPrefix(t, tc.want, stderr)
		must.StrHasSuffix(t, "Run 'conform sweep --help' for usage.\n", stderr)
	}
	code, _, stderr := run(mergeRun(c), "sweep merge")
	must.EqOp(t, cli.ExitUsage, code)
	must.EqOp(t, "conform sweep merge: name the shard summaries to merge: sweep merge SUMMARY...\nRun 'conform sweep merge --help' for usage.\n", stderr)
	code, _, stderr = run(mergeRun(c), "sweep merge", "missing.json")
	must.EqOp(t, cli.ExitUsage, code)
	must.StrContains(t, stderr, "missing.json: no such file")
}

// TestGoldenMergeReport: the merge of two shard summaries, flags after the
// files, with --out; exit 1 for the failure; the merged file merges again.
func TestGoldenMergeReport(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	seeds := Range{1, 6}
	s1 := shardFile(t, seeds, Shard{1, 2}, "A", "B")
	_, err := s1.record(work{Seeds: Range{1, 3}}, []reports.Property{pass("A/a", 3), fail("B/b", 2, 2)}, testReplay)
	must.NoError(t, err)
	s2 := shardFile(t, seeds, Shard{2, 2}, "A", "B")
	_, err = s2.record(work{Seeds: Range{4, 5}}, []reports.Property{pass("A/a", 2), pass("B/b", 2)}, testReplay)
	must.NoError(t, err)
	must.NoError(t, writeSummary("s1.json", s1))
	must.NoError(t, writeSummary("s2.json", s2))

	c := Config{Self: "conform"}
	code, stdout, stderr := run(mergeRun(c), "sweep merge", "s1.json", "s2.json", "--out", "m.json", "--complete")
	must.EqOp(t, 1, code)
	must.EqOp(t, "conform sweep merge: failures found (replay commands above)\n", stderr)
	golden(t, "merge_report.txt", stdout)
	m, err := loadSummary("m.json")
	must.NoError(t, err)
	must.Eq(t, Set{{6, 6}}, m.Gaps)

	// Without the failure, --complete still fails on the gap.
	s1.Failures = nil
	s1.Properties[1].Stopped = nil
	must.NoError(t, writeSummary("s1.json", s1))
	code, _, stderr = run(mergeRun(c), "sweep merge", "--complete", "s1.json", "s2.json")
	must.EqOp(t, 1, code)
	must.EqOp(t, "conform sweep merge: seeds of the range are not covered (--complete)\n", stderr)
	code, stdout, _ = run(mergeRun(c), "sweep merge", "s1.json", "s2.json")
	must.EqOp(t, 0, code)
	must.StrContains(t, stdout, "covered: 4 of 6 seeds, INCOMPLETE; not covered: 3, 6\n")
}
