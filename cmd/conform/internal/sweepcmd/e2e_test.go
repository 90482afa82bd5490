package sweepcmd

import (
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// The tiny sweep of the end-to-end tests: mutant/sched-utc, whose
// SCHED-5/inside-windows-only fails at seeds 1 and 4, and TELEM-2, which
// it passes; seeds 1..6 in two shards of two chunks (2 seeds, then 1).
const (
	e2eRunner = "mutant/sched-utc"
	e2eSeeds  = "1..6"
	e2eFails  = "SCHED-5/inside-windows-only"
	e2ePasses = "TELEM-2/exact-labels"
	e2eChunk  = "2"
)

// moduleRoot is the allocsim module's directory, the source the suite's
// test binary is built from.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	must.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// TestSweepEndToEnd runs the tiny sweep for real through suiterun: both
// shards at once, each finding its failure and dropping the failed
// property from its second chunk; a resume finds nothing left to do;
// the merge covers 1..6.
func TestSweepEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite (about 10 s)")
	}
	start := time.Now()
	root, dir := moduleRoot(t), t.TempDir()
	c := Config{Self: "conform"}
	summary := func(i int) string { return filepath.Join(dir, []string{"", "one.json", "two.json"}[i]) }
	type result struct {
		code           int
		stdout, stderr string
	}
	results := make([]result, 3)
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Go(func() {
			code, stdout, stderr := run(sweepRun(c), "sweep", "--runner", e2eRunner, "--seeds", e2eSeeds,
				"--shard", []string{"", "1/2", "2/2"}[i], "--chunk", e2eChunk, "--property", e2eFails+","+e2ePasses,
				"--allocsim", root, "--summary", summary(i))
			results[i] = result{code, stdout, stderr}
		})
	}
	wg.Wait()
	for i, first := range []uint64{0, 1, 4} {
		if i == 0 {
			continue
		}
		r := results[i]
		must.EqOp(t, 1, r.code, must.Sprintf("shard %d/2 finds its failure\nstdout:\n%s\nstderr:\n%s", i, r.stdout, r.stderr))
		must.StrContains(t, r.stderr, "checking 1 property\n", must.Sprint("the failed property is not searched in the second chunk"))
		must.StrContains(t, r.stderr, "; DET-4 reruns one check in 16\n", must.Sprint("--rerun's default"))
		f, err := loadSummary(summary(i))
		must.NoError(t, err)
		must.SliceLen(t, 1, f.Failures)
		must.EqOp(t, e2eFails, f.Failures[0].Property)
		must.EqOp(t, first, f.Failures[0].Seed)
		must.EqOp(t, "conform replay --runner mutant/sched-utc --property SCHED-5/inside-windows-only --seed "+
			[]string{"", "1", "4"}[i], f.Failures[0].Replay)
		must.SliceEmpty(t, f.Gaps)
		must.EqOp(t, 2, f.Totals.Chunks)
		must.Eq(t, Set{*f.ShardSeeds}, f.property(e2ePasses).Checked)
	}

	code, stdout, stderr := run(sweepRun(c), "sweep", "--resume", summary(1), "--allocsim", root)
	must.EqOp(t, 1, code, must.Sprint(stderr))
	must.StrContains(t, stderr, "nothing left to do\n")
	must.StrContains(t, stdout, "covered: 3 of 3 seeds, complete\n")
	f, err := loadSummary(summary(1))
	must.NoError(t, err)
	must.EqOp(t, 2, f.Totals.Chunks, must.Sprint("no chunk ran again"))

	merged := filepath.Join(dir, "merged.json")
	code, stdout, stderr = run(mergeRun(c), "sweep merge", "--out", merged, "--complete", summary(1), summary(2))
	must.EqOp(t, 1, code, must.Sprint(stderr))
	must.StrContains(t, stdout, "covered: 6 of 6 seeds, complete\n")
	m, err := loadSummary(merged)
	must.NoError(t, err)
	must.Eq(t, Set{{1, 6}}, m.Covered)
	must.SliceLen(t, 2, m.Failures)
	t.Logf("end-to-end sweep: %s", time.Since(start).Round(100*time.Millisecond))
}
