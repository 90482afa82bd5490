package suiterun

import (
	"fmt"
	"strings"
	"time"

	"github.com/allocsim/allocsim/reports"
)

// Target is one runner to check.
type Target struct {
	// Name names the runner in reports: a built-in runner's name, or
	// "<import path>.<factory>" for a runner in a package.
	Name string
	// Builtin is set for a built-in runner (conform runners lists them):
	// Name is then its name.
	Builtin bool
	// Pkg and Factory locate a runner in a package: the import path (or a
	// relative directory, resolved from Plan.WorkDir) and the exported
	// identifier reference.FactoryOf accepts.
	Pkg, Factory string
	// Profile is the suite profile ("full", "client-communication").
	Profile string
	// ExpectFail is set when the runner meets its expectation by failing.
	ExpectFail bool
	// Specs, if set, runs only the properties enforcing one of these SPEC
	// IDs (a mutant checked on the rules it breaks).
	Specs []string
}

// Plan is one conform run.
type Plan struct {
	Targets []Target
	// Properties selects properties by ID or SPEC ID (empty: all).
	Properties []string
	// Checks per property (0: the suite's default); Seed replays one seed
	// of each selected property (0: none); Budget is each runner's
	// real-time budget (0: the suite's default).
	Checks int
	Seed   uint64
	Budget time.Duration
	// Rerun runs every Rerun-th check of a property twice (DET-4; 0: the
	// suite's default, properties.DefaultRerun).
	Rerun int
	// SeedsFrom..SeedsTo (inclusive), if SeedsTo is set, are the seeds
	// each property checks instead of drawn ones (conform sweep).
	SeedsFrom, SeedsTo uint64
	// Shard and Shards: run shard Shard of Shards of the properties (0:
	// all).
	Shard, Shards int
	// Parallel is how many runners are checked at once (at least 1).
	Parallel int
	// ArtifactDir receives each runner's failing runs' traces and
	// scenarios, under a directory per runner (Slug); required.
	ArtifactDir string
	// WorkDir is where package paths resolve (default: the process's).
	WorkDir string
	// AllocsimDir is the allocsim module's source, which built-in runners
	// are built from (default: found from WorkDir with go list).
	AllocsimDir string
	// Go is the go command (default "go").
	Go string
	// Binaries, if set, keeps the test binaries for later runs (default:
	// each run builds its own and removes them).
	Binaries *Binaries
	// Progress, if set, is called (from one goroutine at a time) as the
	// run goes.
	Progress func(Event)
}

// Event is one step of a run, for progress displays.
type Event struct {
	// Runner is the target's name, Index its position in Plan.Targets.
	Runner string
	Index  int
	// Kind says what happened.
	Kind EventKind
	// Property is the property that finished (KindProperty).
	Property reports.Property
	// Result is the runner's result (KindRunnerDone).
	Result reports.Runner
	// Total is the runner's property count (KindRunnerPlanned).
	Total int
}

// EventKind says what an Event reports.
type EventKind int

// Event kinds.
const (
	// KindBuild: the test binaries are being built.
	KindBuild EventKind = iota
	// KindRunnerStart: a runner's test process started.
	KindRunnerStart
	// KindRunnerPlanned: the suite said how many properties it runs for
	// the runner (Total).
	KindRunnerPlanned
	// KindProperty: one property finished.
	KindProperty
	// KindRunnerDone: a runner's test process ended.
	KindRunnerDone
)

// Slug is a file-name-safe form of a runner's name ("mutant/sched-utc" →
// "mutant_sched-utc").
func Slug(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			return r
		}
		return '_'
	}, name)
}

// validate reports a plan the run cannot start.
func (p Plan) validate() error {
	if len(p.Targets) == 0 {
		return fmt.Errorf("no runner to check")
	}
	if p.ArtifactDir == "" {
		return fmt.Errorf("no artifact directory")
	}
	for _, t := range p.Targets {
		if !t.Builtin && (t.Pkg == "" || t.Factory == "") {
			return fmt.Errorf("runner %q: a package runner needs a package and a factory", t.Name)
		}
	}
	return nil
}
