package prop

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/seeds"
)

// Config configures the exploration of one property.
type Config struct {
	Factory interfaces.Factory
	// Checks is how many scenarios to draw (at least 1).
	Checks int
	// Base is the first seed's base: check i runs Seed(Base, ID, i).
	Base uint64
	// Seed, if non-zero, replays that one seed instead.
	Seed uint64
	// SeedsFrom..SeedsTo (inclusive), if SeedsTo is non-zero, are the
	// check seeds instead of Checks drawn ones (a seed sweep).
	SeedsFrom, SeedsTo uint64
	// Faults, if non-nil, are the classes the caller allows.
	Faults []faults.Class
	// Deadline, if set, ends the exploration early (after at least one
	// check); shrinking then stops too.
	Deadline time.Time
	// ShrinkRuns bounds the runs spent shrinking a failure.
	ShrinkRuns int
	// ArtifactDir, if set, receives the failing run's trace and scenarios.
	ArtifactDir string
	// Replay prints the command that replays a seed of this property.
	Replay func(seed uint64) string
	// Stall is the stall watchdog's period.
	Stall time.Duration
	// FreeRunning releases the world's holds in every run (sim.HoldNone):
	// the runner's goroutines race freely within an instant, for the
	// race detector; runs are no longer reproducible.
	FreeRunning bool
	// Rerun is the determinism check (DET-4): every Rerun-th check (the
	// 1st, the Rerun+1-th, ...) runs twice and the two traces must be
	// byte-identical; 1 reruns every check, zero means DefaultRerun,
	// negative none. A failing check is always rerun before it is
	// reported, so that no replay command claims what a rerun does not
	// reproduce. FreeRunning runs are never compared.
	Rerun int
	// CheckBudget bounds each run while it runs (zero: the defaults).
	CheckBudget CheckBudget
}

// DefaultRerun is Config.Rerun's default: one check in four runs twice.
const DefaultRerun = 4

// rerun reports whether check i (0-based) runs twice.
func (c Config) rerun(i int) bool {
	n := c.Rerun
	if n == 0 {
		n = DefaultRerun
	}
	return n > 0 && i%n == 0 && !c.FreeRunning
}

// Result is one property's verdict.
type Result struct {
	Property Property
	// Checks is how many scenarios ran (shrinking not counted).
	Checks int
	// Failure is the first failure, nil if the property held.
	Failure *Failure
	// Harness is a failure of the suite itself.
	Harness error
	// Truncated is set when the deadline ended the exploration early.
	Truncated bool
	// Elapsed is the real time it took.
	Elapsed time.Duration
	// Reruns is how many checks ran a second time to compare traces
	// (Config.Rerun).
	Reruns int
	// Coverage counts, per situation of the property's catalogue, the
	// checks that reached it (shrinking and reruns not counted).
	Coverage Coverage
}

// Passed reports whether the property held.
func (r Result) Passed() bool { return r.Failure == nil && r.Harness == nil }

// AttrRunning is the test attribute set as each check starts ("<check>
// <seed>"): a test binary that dies in a check (a runner's goroutine
// panicking) has said which seed it died in.
const AttrRunning = "allocsim.running"

// SeedOf is the seed of check i of property id from base: a hash, so
// that properties explore different scenarios and adding a property
// changes no other's seeds.
func SeedOf(base uint64, id string, i int) uint64 {
	s := seeds.Stream(base, "check/"+id+"/"+fmt.Sprint(i)).Uint64()
	return s>>1 | 1 // positive as int64 and never zero (zero means "no replay")
}

// Explore checks property p under t: cfg.Checks drawn scenarios (or the
// one of cfg.Seed), each run in a bubble of its own; the first failure is
// shrunk and described.
func Explore(t *testing.T, p Property, cfg Config) Result {
	start := time.Now() // the budget is real time, read outside every bubble
	res := Result{Property: p, Coverage: newCoverage(p.Situations)}
	env := Env{Faults: allowed(p.Faults, cfg.Faults)}
	seedList := []uint64{cfg.Seed}
	switch {
	case cfg.Seed != 0:
	case cfg.SeedsTo != 0:
		seedList = seedList[:0]
		for s := max(cfg.SeedsFrom, 1); s <= cfg.SeedsTo && s != 0; s++ {
			seedList = append(seedList, s)
		}
	default:
		seedList = make([]uint64, max(cfg.Checks, 1))
		for i := range seedList {
			seedList[i] = SeedOf(cfg.Base, p.ID, i)
		}
	}
	if p.Direct != nil {
		exploreDirect(t, p, cfg, seedList, &res)
		res.Elapsed = time.Since(start)
		return res
	}
	for i, seed := range seedList {
		if i > 0 && !cfg.Deadline.IsZero() && time.Now().After(cfg.Deadline) {
			res.Truncated = true
			break
		}
		t.Attr(AttrRunning, fmt.Sprintf("%d %d", i+1, seed))
		d := seedDrawer(seed)
		sc := draw(p, d, env, seed)
		rc := RunConfig{Property: p, Factory: cfg.Factory, Scenario: sc, Stall: cfg.Stall, Replay: cfg.Replay, FreeRunning: cfg.FreeRunning, Budget: cfg.CheckBudget}
		out := Execute(t, rc)
		res.Checks++
		res.Coverage.add(out.Reached)
		nondeterministic := false
		if out.Harness == nil && (out.Failed() && !cfg.FreeRunning || cfg.rerun(i)) {
			res.Reruns++
			if again := Execute(t, rc); again.Harness == nil {
				if d := sim.CompareRuns(cfg.Factory.Name, sc, out.Trace, again.Trace); d != nil {
					out, nondeterministic = nondeterminism(out, d), true
				}
			}
		}
		if out.Harness != nil {
			res.Harness = out.Harness
			break
		}
		if !out.Failed() {
			if cfg.Seed != 0 {
				// A replay keeps its run's trace and scenario, failing
				// or not, for tools that show it (conform replay).
				writeArtifacts(&Failure{Property: p, Seed: seed, Scenario: sc, Outcome: out}, cfg.ArtifactDir)
			}
			continue
		}
		f := &Failure{Property: p, Seed: seed, Check: i + 1, Scenario: sc, Outcome: out, Shrunk: sc, ShrunkOutcome: out}
		if cfg.Replay != nil {
			f.Replay = cfg.Replay(seed)
		}
		if !nondeterministic {
			// A run that a rerun does not reproduce cannot be shrunk.
			shrinkFailure(t, f, d.Choices(), env, cfg)
		}
		writeArtifacts(f, cfg.ArtifactDir)
		res.Failure = f
		break
	}
	res.Elapsed = time.Since(start)
	return res
}

// directAtOnce is how many checks of a Direct property run at once. A
// Direct check (DET-3/concurrent-use) waits in real time for most of its
// wall time (about 40 ms of wall for 13 ms of CPU): one at a time, 200
// checks of it ran alone for the last 8 s of a conform run. Its checks
// share nothing, so several at once fill those waits.
const directAtOnce = 3

// exploreDirect runs the checks of a Direct property, directAtOnce at a
// time, into res. Their results are taken in seed order and the first
// failure (or harness error) ends the exploration, so the failing seed
// reported is the one a run of one check at a time would report; the
// checks already running are waited for and their results dropped.
func exploreDirect(t *testing.T, p Property, cfg Config, seeds []uint64, res *Result) {
	outs := make([]chan Outcome, len(seeds))
	var wg sync.WaitGroup
	defer wg.Wait()
	launched := 0
	for i, seed := range seeds {
		for launched < len(seeds) && launched < i+directAtOnce {
			if launched > 0 && !cfg.Deadline.IsZero() && time.Now().After(cfg.Deadline) {
				break
			}
			j, out := launched, make(chan Outcome, 1)
			outs[j] = out
			t.Attr(AttrRunning, fmt.Sprintf("%d %d", j+1, seeds[j]))
			wg.Go(func() { out <- p.Direct(t, cfg.Factory, seeds[j]) })
			launched++
		}
		if outs[i] == nil {
			res.Truncated = true
			return
		}
		out := <-outs[i]
		res.Checks++
		res.Coverage.add(out.Reached)
		if out.Harness != nil {
			res.Harness = out.Harness
			return
		}
		if out.Failed() {
			// No replay command: a real-time check is not reproducible by
			// its seed, and there is nothing to write as artifacts (no
			// trace).
			res.Failure = &Failure{Property: p, Seed: seed, Check: i + 1, Outcome: out, ShrunkOutcome: out}
			return
		}
	}
}

// draw draws p's scenario from d with the framework's fields set.
func draw(p Property, d *Drawer, env Env, seed uint64) scenario.Scenario {
	sc := p.Draw(d, env)
	sc.Seed = seed
	sc.Name = p.ID
	sc.Faults = slices.DeleteFunc(sc.Faults, func(f faults.Fault) bool { return !env.Allows(f.Class) })
	return sc
}

// shrinkFailure shrinks f's scenario: candidates keep the seed (so the
// world's own choices stay) and must fail the same property.
func shrinkFailure(t *testing.T, f *Failure, tape []int, env Env, cfg Config) {
	budget := cfg.ShrinkRuns
	if budget <= 0 {
		return
	}
	p := f.Property
	fails := func(cand []int) ([]int, bool) {
		if !cfg.Deadline.IsZero() && time.Now().After(cfg.Deadline) {
			return nil, false
		}
		d := tapeDrawer(cand)
		sc := draw(p, d, env, f.Seed)
		if sc.Validate() != nil {
			return nil, false
		}
		out := Execute(t, RunConfig{Property: p, Factory: cfg.Factory, Scenario: sc, Stall: cfg.Stall, Replay: cfg.Replay, FreeRunning: cfg.FreeRunning, Budget: cfg.CheckBudget})
		if out.Harness != nil || !out.Failed() {
			return nil, false
		}
		used := d.Choices()
		if smaller(used, f.tape) || f.tape == nil {
			f.tape = used
			f.Shrunk, f.ShrunkOutcome = sc, out
		}
		return used, true
	}
	_, f.ShrinkRuns = shrink(tape, budget, fails)
}

// allowed is the property's classes narrowed by the caller's (nil: all
// of the property's).
func allowed(own, caller []faults.Class) []faults.Class {
	if caller == nil {
		return own
	}
	var out []faults.Class
	for _, c := range own {
		if slices.Contains(caller, c) {
			out = append(out, c)
		}
	}
	return out
}

// ArtifactBase is the path, without suffix, of the artifacts of property
// id's run of seed under dir (<base>.trace.jsonl, <base>.scenario.json;
// .shrunk.* for the shrunk run).
func ArtifactBase(dir, id string, seed uint64) string {
	return filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(id)+fmt.Sprintf("-seed-%d", seed))
}

// writeArtifacts writes the failing runs' traces and scenarios under dir.
func writeArtifacts(f *Failure, dir string) {
	if dir == "" {
		return
	}
	base := ArtifactBase(dir, f.Property.ID, f.Seed)
	write := func(suffix string, data []byte) {
		path := base + suffix
		if err := os.MkdirAll(dir, 0o755); err == nil && os.WriteFile(path, data, 0o644) == nil {
			f.Artifacts = append(f.Artifacts, path)
		}
	}
	write(".trace.jsonl", traceLines(f.Outcome.Trace))
	write(".scenario.json", encodeScenario(f.Scenario))
	for _, suffix := range slices.Sorted(maps.Keys(f.Outcome.Attachments)) {
		write(suffix, f.Outcome.Attachments[suffix])
	}
	if f.ShrinkRuns > 0 {
		write(".shrunk.trace.jsonl", traceLines(f.ShrunkOutcome.Trace))
		write(".shrunk.scenario.json", encodeScenario(f.Shrunk))
		for _, suffix := range slices.Sorted(maps.Keys(f.ShrunkOutcome.Attachments)) {
			write(".shrunk"+suffix, f.ShrunkOutcome.Attachments[suffix])
		}
	}
}

// nondeterminism is the outcome of a check whose rerun's trace differs
// from its first run's: DET-4 at the first differing record, whatever
// else the first run found (a failure a rerun does not reproduce has no
// replay).
func nondeterminism(out Outcome, d *sim.ReplayError) Outcome {
	before := min(max(d.Line-1, 0), len(out.Trace))
	at := out.End
	if before < len(out.Trace) {
		at = out.Trace[before].At
	} else if before > 0 {
		at = out.Trace[before-1].At
	}
	// One line, so that reports keep both versions of the record.
	first, _, _ := strings.Cut(d.Violation(), "\n")
	msg := fmt.Sprintf("%s; run 1: %s; run 2: %s", first, orEnd(d.First), orEnd(d.Other))
	return Outcome{Violations: []Violation{{At: at, World: msg}}, Trace: out.Trace, Before: before,
		End: out.End, Steps: out.Steps, Attachments: out.Attachments}
}

func orEnd(line string) string {
	if line == "" {
		return "<end of trace>"
	}
	return line
}
