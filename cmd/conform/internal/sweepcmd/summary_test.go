package sweepcmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/reports"
	"github.com/shoenig/test/must"
)

// opts are options with flags given as set (names of flags the command
// line set).
func opts(o options, set ...string) options {
	if o.chunk == 0 {
		o.chunk = DefaultChunk
	}
	if o.shard == "" {
		o.shard = "1/1"
	}
	if o.rerun == 0 {
		o.rerun = DefaultRerun
	}
	o.set = func(name string) bool { return slices.Contains(set, name) }
	return o
}

// TestResolveNew: flag errors are usage errors with clear messages; a new
// sweep gets the default summary name and its shard's seeds; an existing
// summary is never overwritten.
func TestResolveNew(t *testing.T) {
	t.Chdir(t.TempDir())
	cases := []struct {
		name string
		o    options
		want string
	}{
		{"no runner", options{seeds: "1..6"}, "name the runner and the seeds: --runner NAME --seeds A..B (or continue a sweep with --resume FILE)"},
		{"no seeds", options{runner: "reference"}, "name the runner and the seeds: --runner NAME --seeds A..B (or continue a sweep with --resume FILE)"},
		{"unknown runner", options{runner: "nope", seeds: "1..6"}, `no built-in runner "nope"`},
		{"bad seeds", options{runner: "reference", seeds: "6..1"}, `--seeds "6..1": want A..B with 1 ≤ A ≤ B (e.g. 1..10000)`},
		{"shard 0/2", options{runner: "reference", seeds: "1..6", shard: "0/2"}, `--shard "0/2": want i/n with 1 ≤ i ≤ n (e.g. 1/4)`},
		{"too many shards", options{runner: "reference", seeds: "1..3", shard: "1/4"}, "--shard 1/4: 4 shards of 3 seeds (1..3): some would be empty; use at most 3 shards"},
		{"bad profile", options{runner: "reference", seeds: "1..6", profile: "ent"}, `--profile "ent": want full or client-communication`},
		{"chunk 0", options{runner: "reference", seeds: "1..6", chunk: 0}, ""},
		{"parallel 0", options{runner: "reference", seeds: "1..6", parallel: -1}, "--parallel -1: want at least 1 (or 0: one more than the CPUs)"},
		{"rerun -1", options{runner: "reference", seeds: "1..6", rerun: -1}, "--rerun -1: want at least 1 (1 reruns every check)"},
	}
	for _, tc := range cases {
		if tc.want == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			o := opts(tc.o)
			_, err := o.resolve()
			must.True(t, cli.IsUsage(err), must.Sprint(err))
			must.StrHasPrefix(t, tc.want, err.Error())
		})
	}
	o := opts(options{runner: "reference", seeds: "1..6"})
	o.chunk = 0
	_, err := o.resolve()
	must.EqError(t, err, "--chunk 0: want at least 1 seed")

	o = opts(options{runner: "sched-utc", seeds: "1..10", shard: "3/3", properties: cli.ListFlag{"TELEM-2", "SCHED-5", "TELEM-2"}})
	tg, err := o.resolve()
	must.NoError(t, err)
	must.EqOp(t, "sweep-mutant_sched-utc-1-10-shard-3-of-3.json", tg.path)
	must.EqOp(t, "mutant/sched-utc", tg.file.Runner)
	must.EqOp(t, "full", tg.file.Profile)
	must.EqOp(t, Range{7, 10}, *tg.file.ShardSeeds)
	must.Eq(t, []string{"SCHED-5", "TELEM-2"}, tg.file.Selection)
	must.NoError(t, writeSummary(tg.path, tg.file))
	_, err = o.resolve()
	must.EqError(t, err, "summary sweep-mutant_sched-utc-1-10-shard-3-of-3.json exists: continue that sweep with --resume sweep-mutant_sched-utc-1-10-shard-3-of-3.json, or choose another --summary")
}

// TestResolveResume: --resume takes what it records, refuses flags of
// another sweep, a merged summary and a second summary file.
func TestResolveResume(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	f := shardFile(t, Range{1, 6}, Shard{2, 2}, "TELEM-2")
	f.Runner = "mutant/sched-utc"
	must.NoError(t, writeSummary(path, f))

	tg, err := opts(options{resume: path}).resolve()
	must.NoError(t, err)
	must.True(t, tg.resumed)
	must.EqOp(t, path, tg.path)
	must.EqOp(t, "mutant/sched-utc", tg.runner.Name)
	_, err = opts(options{resume: path, runner: "sched-utc", seeds: "1..6", shard: "2/2", profile: "full",
		properties: cli.ListFlag{"TELEM-2"}, summary: path}, "runner", "seeds", "shard", "profile", "property", "summary").resolve()
	must.NoError(t, err, must.Sprint("the same flags again"))

	cases := []struct {
		o    options
		set  []string
		want string
	}{
		{options{runner: "reference"}, []string{"runner"}, "it is for runner mutant/sched-utc, not reference"},
		{options{seeds: "1..7"}, []string{"seeds"}, "it is for seeds 1..6, not 1..7"},
		{options{shard: "1/2"}, []string{"shard"}, "it is for shard 2/2, not 1/2"},
		{options{profile: "client-communication"}, []string{"profile"}, "it is for profile full, not client-communication"},
		{options{properties: cli.ListFlag{"SCHED-5"}}, []string{"property"}, "it is for properties TELEM-2, not SCHED-5"},
		{options{}, []string{"property"}, "it is for properties TELEM-2, not (all)"},
	}
	for _, tc := range cases {
		tc.o.resume = path
		_, err := opts(tc.o, tc.set...).resolve()
		must.True(t, cli.IsUsage(err))
		must.EqError(t, err, "--resume "+path+" belongs to another sweep: "+tc.want)
	}
	_, err = opts(options{resume: path, summary: filepath.Join(dir, "other.json")}).resolve()
	must.StrContains(t, err.Error(), "names another file")
	_, err = opts(options{resume: filepath.Join(dir, "missing.json")}).resolve()
	must.True(t, cli.IsUsage(err))
	must.StrContains(t, err.Error(), "no such file")

	m, err := merge([]*summaryFile{f}, []string{path})
	must.NoError(t, err)
	merged := filepath.Join(dir, "merged.json")
	must.NoError(t, writeSummary(merged, m))
	_, err = opts(options{resume: merged}).resolve()
	must.EqError(t, err, "--resume "+merged+": a merged summary cannot be continued; resume each shard's own summary")
}

// TestSummaryFile: a summary writes atomically (no temporary file left)
// and reads back equal; a file that is not a sweep summary is refused.
func TestSummaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	f := shardFile(t, Range{1, 6}, Shard{1, 2})
	_, err := f.record(work{Seeds: Range{1, 3}}, []reports.Property{pass("A/a", 3), fail("B/b", 2, 2)}, testReplay)
	must.NoError(t, err)
	must.NoError(t, writeSummary(path, f))
	must.NoError(t, writeSummary(path, f), must.Sprint("replacing it"))
	entries, err := os.ReadDir(dir)
	must.NoError(t, err)
	must.SliceLen(t, 1, entries)
	back, err := loadSummary(path)
	must.NoError(t, err)
	must.Eq(t, f, back)

	for name, edit := range map[string]func(string) string{
		"format":   func(s string) string { return strings.Replace(s, summaryFormat, "allocsim-sweep/0", 1) },
		"shard":    func(s string) string { return strings.Replace(s, `"index": 1`, `"index": 2`, 1) },
		"not json": func(string) string { return "{" },
		"bad range": func(s string) string {
			return strings.Replace(s, `"checked": [`+"\n        {\n          \"from\": 1", `"checked": [`+"\n        {\n          \"from\": 0", 1)
		},
		"no runner": func(s string) string { return strings.Replace(s, `"runner": "reference"`, `"runner": ""`, 1) },
		"no shard":  func(s string) string { return strings.Replace(s, `"shard": {`, `"shard_x": {`, 1) },
	} {
		data, err := os.ReadFile(path)
		must.NoError(t, err)
		bad := filepath.Join(dir, "bad-"+strings.ReplaceAll(name, " ", "-")+".json")
		edited := edit(string(data))
		must.NotEq(t, string(data), edited, must.Sprint(name))
		must.NoError(t, os.WriteFile(bad, []byte(edited), 0o644))
		_, err = loadSummary(bad)
		must.ErrorContains(t, err, bad+": not a sweep summary: ", must.Sprint(name))
	}
}

// TestMerge: shards of one sweep combine into the whole range's coverage
// (a failure stops its property in its own shard only), every failure
// once; partial shards leave gaps; a merged summary merges again; other
// sweeps are refused.
func TestMerge(t *testing.T) {
	seeds := Range{1, 6}
	s1 := shardFile(t, seeds, Shard{1, 2}) // 1..3
	_, err := s1.record(work{Seeds: Range{1, 3}}, []reports.Property{pass("A/a", 3), fail("B/b", 1, 1)}, testReplay)
	must.NoError(t, err)
	s2 := shardFile(t, seeds, Shard{2, 2}) // 4..6
	_, err = s2.record(work{Seeds: Range{4, 5}}, []reports.Property{pass("A/a", 2), pass("B/b", 2)}, testReplay)
	must.NoError(t, err)

	m, err := merge([]*summaryFile{s1, s2}, []string{"s1", "s2"})
	must.NoError(t, err)
	must.Nil(t, m.Shard)
	must.Eq(t, []Shard{{1, 2}, {2, 2}}, m.Merged)
	must.Eq(t, Set{{1, 5}}, m.Covered)
	must.Eq(t, Set{{6, 6}}, m.Gaps, must.Sprint("shard 2 has not checked seed 6 yet"))
	must.SliceLen(t, 1, m.Failures)

	_, err = s2.record(work{Seeds: Range{6, 6}, Properties: []string{"A/a", "B/b"}}, []reports.Property{pass("A/a", 1), fail("B/b", 6, 1)}, testReplay)
	must.NoError(t, err)
	m, err = merge([]*summaryFile{s2, s1, s1}, []string{"s2", "s1", "s1 again"})
	must.NoError(t, err)
	must.Eq(t, Set{{1, 6}}, m.Covered)
	must.SliceEmpty(t, m.Gaps)
	must.Eq(t, []failure{
		{Property: "B/b", Seed: 1, Shard: "1/2", Violation: "v of B/b", Replay: "replay B/b 1"},
		{Property: "B/b", Seed: 6, Shard: "2/2", Violation: "v of B/b", Replay: "replay B/b 6"},
	}, m.Failures)
	must.Eq(t, Set{{1, 6}}, m.property("A/a").Checked)
	must.Eq(t, Set{{1, 1}, {4, 6}}, m.property("B/b").Checked)
	must.Eq(t, Set{{1, 6}}, m.property("B/b").Stopped)

	again, err := merge([]*summaryFile{m, s1}, []string{"m", "s1"})
	must.NoError(t, err)
	must.Eq(t, m.Covered, again.Covered)
	must.Eq(t, m.Merged, again.Merged)

	other := shardFile(t, Range{1, 7}, Shard{1, 2})
	_, err = merge([]*summaryFile{s1, other}, []string{"s1.json", "other.json"})
	must.EqError(t, err, "other.json is not part of the sweep of s1.json: it is for seeds 1..7, not 1..6")
	other = shardFile(t, seeds, Shard{1, 2}, "A")
	_, err = merge([]*summaryFile{s1, other}, []string{"s1.json", "other.json"})
	must.EqError(t, err, "other.json is not part of the sweep of s1.json: it is for properties A, not (all)")
}

// TestSituationsSumAndNever: chunk results add up per situation, merged
// shards add up, and what no check reached is listed as the suite's gap.
func TestSituationsSumAndNever(t *testing.T) {
	f := &summaryFile{Seeds: Range{From: 1, To: 4}}
	w := work{Seeds: Range{From: 1, To: 2}}
	results := []reports.Property{{ID: "AR-9/kill-order", Status: reports.Pass, Checks: 2,
		Situations: []reports.Situation{{Name: "leader-stopped", Runs: 1}, {Name: "kill-timeout-unset", Runs: 0}}}}
	_, err := f.record(w, results, func(string, uint64) string { return "" })
	must.NoError(t, err)
	_, err = f.record(work{Seeds: Range{From: 3, To: 4}}, results, func(string, uint64) string { return "" })
	must.NoError(t, err)
	must.Eq(t, []reports.Situation{{Name: "leader-stopped", Runs: 2}, {Name: "kill-timeout-unset", Runs: 0}}, f.Properties[0].Situations)
	must.Eq(t, []string{"AR-9/kill-order: kill-timeout-unset"}, f.never())

	g := &summaryFile{Seeds: f.Seeds}
	g.property("AR-9/kill-order").addSituations([]reports.Situation{{Name: "kill-timeout-unset", Runs: 3}})
	m, err := merge([]*summaryFile{f, g}, []string{"f", "g"})
	must.NoError(t, err)
	must.SliceEmpty(t, m.never())
	must.Eq(t, []reports.Situation{{Name: "leader-stopped", Runs: 2}, {Name: "kill-timeout-unset", Runs: 3}}, m.property("AR-9/kill-order").Situations)
}
