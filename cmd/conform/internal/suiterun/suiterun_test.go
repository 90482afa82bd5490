package suiterun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/reports"
	"github.com/allocsim/allocsim/sim/vclock"

	"github.com/shoenig/test/must"
)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"reference":                  "reference",
		"mutant/sched-utc":           "mutant_sched-utc",
		"example.com/noderunner.New": "example.com_noderunner.New",
		"a b\\c":                     "a_b_c",
	} {
		must.Eq(t, want, Slug(in))
	}
}

// TestArgs: the plan reaches the test binary as the suite's flags.
func TestArgs(t *testing.T) {
	p := Plan{ArtifactDir: "/a", Checks: 3, Seed: 9, Budget: time.Minute, Rerun: 16, Properties: []string{"SCHED-5", "AR-8/x"},
		Shard: 2, Shards: 3, SeedsFrom: 10, SeedsTo: 20}
	got := p.args(binary{test: "TestSuite"}, Target{Name: "mutant/sched-utc", Builtin: true, Profile: "full", Specs: []string{"SCHED-4"}})
	must.Eq(t, []string{
		"-test.v=test2json", "-test.count=1", "-test.timeout=60m", "-test.run=^TestSuite$",
		"-allocsim.artifacts=/a/mutant_sched-utc", "-conform.runner=mutant/sched-utc", "-conform.profile=full",
		"-allocsim.checks=3", "-allocsim.seed=9", "-allocsim.seeds=10..20", "-allocsim.budget=1m0s",
		"-allocsim.rerun=16", "-allocsim.property=SCHED-5,AR-8/x", "-allocsim.specs=SCHED-4", "-allocsim.shard=2/3",
	}, got)
	got = Plan{ArtifactDir: "/a"}.args(binary{test: "TestConform"}, Target{Name: "x.New", Pkg: "./x", Factory: "New"})
	must.Eq(t, []string{"-test.v=test2json", "-test.count=1", "-test.timeout=60m", "-test.run=^TestConform$", "-allocsim.artifacts=/a/x.New"}, got)
}

// TestGeneratedGoMod: the generated module requires the runner's module
// by its directory and keeps its replacements, relative ones made
// absolute.
func TestGeneratedGoMod(t *testing.T) {
	p := goPackage{ImportPath: "example.com/r/pkg"}
	p.Module = &struct{ Path, Dir, GoMod, GoVersion string }{Path: "example.com/r", Dir: "/src/r"}
	var mod goModFile
	mod.Go = "1.26.0"
	mod.Replace = append(mod.Replace,
		struct {
			Old, New struct{ Path, Version string }
		}{Old: struct{ Path, Version string }{Path: "github.com/allocsim/allocsim"}, New: struct{ Path, Version string }{Path: "../allocsim"}},
		struct {
			Old, New struct{ Path, Version string }
		}{Old: struct{ Path, Version string }{Path: "example.com/dep", Version: "v1.0.0"}, New: struct{ Path, Version string }{Path: "example.com/fork", Version: "v1.0.1"}},
		struct {
			Old, New struct{ Path, Version string }
		}{Old: struct{ Path, Version string }{Path: "example.com/abs"}, New: struct{ Path, Version string }{Path: "/opt/my dir"}},
	)
	got := generatedGoMod(p, mod)
	for _, want := range []string{
		"module allocsim.local/conformrun\n",
		"go 1.26.0\n",
		"require example.com/r v0.0.0-00010101000000-000000000000\n",
		"replace example.com/r => /src/r\n",
		"replace github.com/allocsim/allocsim => /src/allocsim\n",
		"replace example.com/dep v1.0.0 => example.com/fork v1.0.1\n",
		`replace example.com/abs => "/opt/my dir"` + "\n",
	} {
		must.StrContains(t, got, want)
	}
}

func TestBadPlans(t *testing.T) {
	for _, tt := range []struct {
		plan Plan
		want string
	}{
		{Plan{ArtifactDir: "/a"}, "no runner to check"},
		{Plan{Targets: []Target{{Name: "reference", Builtin: true}}}, "no artifact directory"},
		{Plan{ArtifactDir: "/a", Targets: []Target{{Name: "x", Pkg: "./x"}}}, "needs a package and a factory"},
	} {
		_, err := Run(context.Background(), tt.plan)
		must.ErrorContains(t, err, tt.want)
		must.True(t, IsUsage(err))
	}
	_, err := buildPackage(context.Background(), "go", ".", "./x", "new", t.TempDir())
	must.True(t, IsUsage(err))
	must.True(t, strings.Contains(err.Error(), "exported identifier"))
}

// TestPackageLinksClockFork: the module conform run --pkg generates
// replaces the clock module with the fork of the allocsim source it
// resolved to, as allocsim's own go.mod does (DESIGN-CLOCK.md).
func TestPackageLinksClockFork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	example, err := filepath.Abs("../../../../examples/noderunner")
	must.NoError(t, err)
	dir := t.TempDir()
	_, err = buildPackage(context.Background(), "go", ".", example, "New", dir)
	must.NoError(t, err)
	gomod, err := os.ReadFile(filepath.Join(dir, "conformrun", "go.mod"))
	must.NoError(t, err)
	root, err := filepath.Abs("../../../..")
	must.NoError(t, err)
	must.StrContains(t, string(gomod), "replace "+vclock.ClockModule+" => "+filepath.Join(root, filepath.FromSlash(vclock.ForkDir)))
}

// TestSplit: only a lone runner's full-profile suite, whole or a list
// of property IDs, is split into partsPerCPU parts a CPU of its share
// (Parallel/targets) and no more parts than it has properties, checked
// by one process more than its CPUs.
func TestSplit(t *testing.T) {
	one := []Target{{Name: "reference", Profile: "full"}}
	split := func(p Plan, t Target) [2]int {
		procs, parts := p.split(t)
		return [2]int{procs, parts}
	}
	must.Eq(t, [2]int{3, 2 * partsPerCPU}, split(Plan{Targets: one, Parallel: 2}, one[0]))
	must.Eq(t, [2]int{maxSplit + 1, maxSplit}, split(Plan{Targets: one, Parallel: 64}, one[0]))
	must.Eq(t, [2]int{1, 1}, split(Plan{Targets: append(one, Target{Name: "minimal"}), Parallel: 2}, one[0]))
	must.Eq(t, [2]int{1, 1}, split(Plan{Targets: one, Parallel: 2, Properties: []string{"SCHED-5"}}, one[0]))
	must.Eq(t, [2]int{1, 1}, split(Plan{Targets: one, Parallel: 2, Properties: []string{"SCHED-5/a", "SYNC-5"}}, one[0]))
	must.Eq(t, [2]int{1, 1}, split(Plan{Targets: one, Parallel: 2, Properties: []string{"SCHED-5/a"}}, one[0]))
	must.Eq(t, [2]int{2, 2}, split(Plan{Targets: one, Parallel: 4, Properties: []string{"SCHED-5/a", "SYNC-5/b"}}, one[0]))
	must.Eq(t, [2]int{3, 3}, split(Plan{Targets: one, Parallel: 2, Properties: []string{"SCHED-5/a", "SYNC-5/b", "AR-1/c"}}, one[0]))
	must.Eq(t, [2]int{1, 1}, split(Plan{Targets: one, Parallel: 1}, one[0]))
	must.Eq(t, [2]int{1, 1}, split(Plan{Targets: one, Parallel: 2, Shard: 1, Shards: 2}, one[0]))
	must.Eq(t, [2]int{1, 1}, split(Plan{Targets: one, Parallel: 2}, Target{Name: "mutant/x", Profile: "full", Specs: []string{"SCHED-5"}}))
	must.Eq(t, [2]int{1, 1}, split(Plan{Targets: one, Parallel: 2}, Target{Name: "minimal", Profile: "client-communication"}))
}

// TestMergeShards: shard i of n holds the suite's properties i-1,
// i-1+n, ... (properties' shard selection); the merge restores the
// suite's order.
func TestMergeShards(t *testing.T) {
	for n := 1; n <= 4; n++ {
		var ids []string
		parts := make([]reports.Runner, n)
		for k := range 7 {
			id := fmt.Sprintf("P-%d/x", k)
			ids = append(ids, id)
			parts[k%n].Properties = append(parts[k%n].Properties, reports.Property{ID: id})
		}
		parts[0].Name = "reference"
		got := mergeShards(parts)
		must.Eq(t, "reference", got.Name)
		var gotIDs []string
		for _, p := range got.Properties {
			gotIDs = append(gotIDs, p.ID)
		}
		must.Eq(t, ids, gotIDs)
	}
}

// TestSuiteEnv: the test processes get conform's GOGC, GOMAXPROCS and
// memprofilerate settings only where conform's environment leaves them.
func TestSuiteEnv(t *testing.T) {
	for _, tc := range []struct {
		gogc, debug string // "-": unset
		want        []string
	}{
		{gogc: "-", debug: "-", want: []string{"GODEBUG=memprofilerate=0", "GOGC=400"}},
		{gogc: "100", debug: "", want: []string{"GODEBUG=memprofilerate=0"}},
		{gogc: "100", debug: "gctrace=1", want: []string{"GODEBUG=gctrace=1,memprofilerate=0"}},
		{gogc: "100", debug: "memprofilerate=1", want: nil},
	} {
		for k, v := range map[string]string{"GOGC": tc.gogc, "GODEBUG": tc.debug} {
			t.Setenv(k, v) // restored after the test
			if v == "-" {
				os.Unsetenv(k)
			}
		}
		t.Setenv("GOMAXPROCS", "2")
		if got := suiteEnv(); !slices.Equal(got, tc.want) {
			t.Errorf("GOGC %q GODEBUG %q: suiteEnv() = %q, want %q", tc.gogc, tc.debug, got, tc.want)
		}
	}
}
