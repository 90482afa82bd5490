package sweepcmd

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/cmd/conform/internal/suiterun"
)

// Defaults of the flags.
const (
	// DefaultChunk is how many seeds a chunk holds: one suite run per
	// chunk, the summary written after each.
	DefaultChunk = 200
	// DefaultRerun is --rerun's default: one check in 16 of each
	// property runs twice (DET-4), where conform run reruns one in four
	// (properties.DefaultRerun). A sweep is a search over many seeds: at
	// one in four, the reruns were a quarter of its runs, and one in 16
	// still reruns 625 checks of each property in 10,000 seeds. A check
	// that fails is always rerun before it is reported, so no failure's
	// replay command goes unverified.
	DefaultRerun = 16
)

// options are `conform sweep`'s flags.
type options struct {
	runner, seeds, shard, profile string
	resume, summary               string
	chunk                         uint64
	properties                    cli.ListFlag
	allocsim, artifacts           string
	parallel, rerun               int
	set                           func(name string) bool
}

func newFlags(name string, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&o.runner, "runner", "", "built-in runner `NAME` (conform runners lists them)")
	fs.StringVar(&o.seeds, "seeds", "", "the sweep's seed range `A..B` (1 ≤ A ≤ B)")
	fs.StringVar(&o.shard, "shard", "1/1", "check shard `i/n` of A..B only (a contiguous slice)")
	fs.StringVar(&o.resume, "resume", "", "continue the sweep summary `FILE` (and write it there)")
	fs.StringVar(&o.summary, "summary", "", "write the summary to `FILE` (default: sweep-<runner>-<A>-<B>-shard-<i>-of-<n>.json)")
	fs.Uint64Var(&o.chunk, "chunk", DefaultChunk, "seeds per chunk: one suite run per chunk, the summary written after each")
	fs.Var(&o.properties, "property", "only this property `ID` or SPEC ID; repeatable (default: every property of the profile)")
	fs.StringVar(&o.profile, "profile", "", "suite `profile`: full or client-communication (default: the runner's own)")
	fs.StringVar(&o.allocsim, "allocsim", "", "the allocsim module's source `DIR` the runner is built from (default: found with go list)")
	fs.StringVar(&o.artifacts, "artifacts", "", "keep failing runs' traces and scenarios in `DIR` (default: a temporary directory, removed)")
	fs.IntVar(&o.rerun, "rerun", DefaultRerun, "run every `N`-th check of each property twice and compare the traces (DET-4); 1 reruns every check, 4 is conform run's")
	fs.IntVar(&o.parallel, "parallel", 0, "test processes at once, each checking a batch of properties over a chunk's seeds (default: one more than the CPUs)")
	return fs
}

// target is the resolved sweep: its summary (new or resumed), where it
// is written, and how the runner is named.
type target struct {
	file    *summaryFile
	path    string
	resumed bool
	runner  runners.Runner
}

// workers is how many test processes check batches at once: --parallel,
// or one more than the CPUs, as conform run splits a suite (a property
// that waits in real time, DET-3/concurrent-use, leaves its CPU idle
// for the extra process to fill).
func (o options) workers() int {
	if o.parallel > 0 {
		return o.parallel
	}
	return runtime.NumCPU() + 1
}

// resolve checks the flags and loads (--resume) or starts the summary.
func (o options) resolve() (target, error) {
	switch {
	case o.chunk < 1:
		return target{}, cli.Usagef("--chunk %d: want at least 1 seed", o.chunk)
	case o.parallel < 0:
		return target{}, cli.Usagef("--parallel %d: want at least 1 (or 0: one more than the CPUs)", o.parallel)
	case o.rerun < 1:
		return target{}, cli.Usagef("--rerun %d: want at least 1 (1 reruns every check)", o.rerun)
	case o.profile != "" && !slices.Contains(runners.Profiles(), o.profile):
		return target{}, cli.Usagef("--profile %q: want full or client-communication", o.profile)
	}
	sel := selection(o.properties)
	if o.resume != "" {
		return o.resumeTarget(sel)
	}
	if o.runner == "" || o.seeds == "" {
		return target{}, cli.Usagef("name the runner and the seeds: --runner NAME --seeds A..B (or continue a sweep with --resume FILE)")
	}
	r, err := runners.Lookup(o.runner)
	if err != nil {
		return target{}, cli.Usage(err)
	}
	seeds, err := parseRange(o.seeds)
	if err != nil {
		return target{}, cli.Usagef("--seeds %q: %w", o.seeds, err)
	}
	sh, err := parseShard(o.shard)
	if err != nil {
		return target{}, cli.Usagef("--shard %q: %w", o.shard, err)
	}
	slice, err := shardRange(seeds, sh)
	if err != nil {
		return target{}, cli.Usagef("--shard %s: %w", sh, err)
	}
	profile := r.Profile
	if o.profile != "" {
		profile = o.profile
	}
	path := o.summary
	if path == "" {
		path = fmt.Sprintf("sweep-%s-%d-%d-shard-%d-of-%d.json", suiterun.Slug(r.Name), seeds.From, seeds.To, sh.Index, sh.Count)
	}
	if _, err := os.Stat(path); err == nil {
		return target{}, cli.Usagef("summary %s exists: continue that sweep with --resume %s, or choose another --summary", path, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return target{}, cli.Usagef("summary %s: %w", path, err)
	}
	f := &summaryFile{Format: summaryFormat, Runner: r.Name, Profile: profile, Seeds: seeds,
		Shard: &sh, ShardSeeds: &slice, Selection: sel, Chunk: o.chunk}
	return target{file: f, path: path, runner: r}, nil
}

// resumeTarget loads --resume FILE: flags that are set must match it,
// flags left out are taken from it.
func (o options) resumeTarget(sel []string) (target, error) {
	if o.summary != "" && filepath.Clean(o.summary) != filepath.Clean(o.resume) {
		return target{}, cli.Usagef("--resume %s writes its summary back to %s; --summary %s names another file", o.resume, o.resume, o.summary)
	}
	f, err := loadSummary(o.resume)
	if err != nil {
		return target{}, cli.Usagef("--resume: %w", err)
	}
	if f.Shard == nil {
		return target{}, cli.Usagef("--resume %s: a merged summary cannot be continued; resume each shard's own summary", o.resume)
	}
	r, err := runners.Lookup(f.Runner)
	if err != nil {
		return target{}, cli.Usagef("--resume %s: %w", o.resume, err)
	}
	want := f.identity()
	if o.set("runner") {
		given, err := runners.Lookup(o.runner)
		if err != nil {
			return target{}, cli.Usage(err)
		}
		want.Runner = given.Name
	}
	if o.set("seeds") {
		if want.Seeds, err = parseRange(o.seeds); err != nil {
			return target{}, cli.Usagef("--seeds %q: %w", o.seeds, err)
		}
	}
	if o.set("profile") {
		want.Profile = o.profile
	}
	if o.set("property") {
		want.Selection = sel
	}
	if why := f.mismatch(want); why != "" {
		return target{}, cli.Usagef("--resume %s belongs to another sweep: it is for %s", o.resume, why)
	}
	if o.set("shard") {
		sh, err := parseShard(o.shard)
		if err != nil {
			return target{}, cli.Usagef("--shard %q: %w", o.shard, err)
		}
		if sh != *f.Shard {
			return target{}, cli.Usagef("--resume %s belongs to another sweep: it is for shard %s, not %s", o.resume, f.Shard, sh)
		}
	}
	f.Chunk = o.chunk
	return target{file: f, path: o.resume, resumed: true, runner: r}, nil
}

// selection is the --property list sorted and without repeats.
func selection(props []string) []string {
	out := slices.Clone(props)
	slices.Sort(out)
	out = slices.Compact(out)
	if out == nil {
		out = []string{}
	}
	return out
}
