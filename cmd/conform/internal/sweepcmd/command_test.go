package sweepcmd

import (
	"bytes"
	"testing"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/shoenig/test/must"
)

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
