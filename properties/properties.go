package properties

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/sim/vclock"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// Run checks factory against every selected property, one subtest per
// property under one per SPEC ID ("SCHED-5/inside-windows-only"). A
// broken property fails its subtest with the failure's full text and
// attaches the seed (t.Attr "allocsim.seed"); the others run on. A
// property the option's filter selects but the profile leaves out is a
// skipped subtest ("not applicable"). Each subtest carries the Attr*
// attributes.
func Run(t *testing.T, factory interfaces.Factory, opts ...Option) {
	t.Helper()
	c := newConfig(opts)
	c.applyFlags()
	if err := c.err(); err != nil {
		t.Fatal(err)
	}
	props := c.selected()
	if len(props) == 0 {
		t.Fatalf("properties: no property selected (%s)", c.selection())
	}
	budget := newBudget(c.budget, len(props))
	matching := c.matching()
	t.Attr(AttrProperties, fmt.Sprint(len(matching)))
	ids := make([]string, len(matching))
	for i, p := range matching {
		ids[i] = p.ID
	}
	t.Attr(AttrPlan, strings.Join(ids, ","))
	if vclock.Forked() {
		t.Attr(AttrClock, "fork")
	} else {
		t.Attr(AttrClock, "upstream")
		t.Log("properties: the simulator runs on upstream github.com/benbjohnson/clock (its Mock read by reflection): correct, and slower " +
			"the more timers a runner arms; `" + vclock.ForkReplace("<allocsim dir>") + "` in your go.mod links the heap-ordered fork (DESIGN-CLOCK.md)")
	}
	for _, group := range bySpec(matching) {
		t.Run(group[0].Spec(), func(t *testing.T) {
			for _, p := range group {
				t.Run(strings.TrimPrefix(p.ID, p.Spec()+"/"), func(t *testing.T) {
					t.Attr(AttrSpecs, strings.Join(p.Specs, ","))
					t.Attr(AttrDoc, strings.Join(strings.Fields(p.Doc), " "))
					if !c.inProfile(p) {
						t.Skipf("not applicable: not in the %s profile", c.profile)
					}
					dir := c.artifactDir
					if dir == "" {
						dir = t.ArtifactDir()
					}
					name := t.Name()
					res := prop.Explore(t, p, c.explore(factory, budget.next(), dir, func(seed uint64) string {
						return goTestReplay(c.pkg, name, seed)
					}))
					budget.done()
					report(t, res)
					if res.Failure != nil && p.Direct == nil && c.artifactDir == "" && !keepsArtifacts() {
						t.Log("the artifacts above are removed when the test ends: keep them with go test -artifacts, or -allocsim.artifacts=DIR")
					}
				})
			}
		})
	}
}

// Check checks factory like Run and returns the results instead of
// failing a test. It must run in a test binary (synctest bubbles exist
// only under testing); Report.Err says so otherwise. Replay commands in
// its failures are Go calls of Check with the seed.
func Check(factory interfaces.Factory, opts ...Option) Report {
	c := newConfig(opts)
	c.applyFlags()
	rep := Report{Runner: factory.Name, Profile: c.profile}
	if rep.Err = c.err(); rep.Err != nil {
		return rep
	}
	props := c.selected()
	if len(props) == 0 {
		rep.Err = fmt.Errorf("properties: no property selected (%s)", c.selection())
		return rep
	}
	budget := newBudget(c.budget, len(props))
	rep.Err = withTestingT(func(t *testing.T) {
		for _, p := range props {
			res := prop.Explore(t, p, c.explore(factory, budget.next(), c.artifactDir, func(seed uint64) string {
				return fmt.Sprintf("properties.Check(%s, properties.WithProperty(%q), properties.WithSeed(%d))", factory.Name, p.ID, seed)
			}))
			budget.done()
			rep.Results = append(rep.Results, resultOf(res))
		}
	})
	return rep
}

// explore is the exploration config of one property.
func (c config) explore(f interfaces.Factory, deadline time.Time, dir string, replay func(uint64) string) prop.Config {
	return prop.Config{
		Factory: f, Checks: c.checks, Base: c.base, Seed: c.seed, SeedsFrom: c.seedsFrom, SeedsTo: c.seedsTo,
		Faults: c.faults, Deadline: deadline,
		ShrinkRuns: c.shrinkRuns, ArtifactDir: dir, Replay: replay, Stall: c.stall, FreeRunning: c.freeRunning,
		Rerun: c.rerun, CheckBudget: c.checkBudget,
	}
}

// keepsArtifacts reports whether go test keeps t.ArtifactDir (its
// -artifacts flag).
func keepsArtifacts() bool {
	f := flag.Lookup("test.artifacts")
	return f != nil && f.Value.String() == "true"
}

// report fails t with res's failure.
func report(t *testing.T, res prop.Result) {
	t.Helper()
	t.Attr(AttrChecks, fmt.Sprint(res.Checks))
	if len(res.Coverage) > 0 {
		t.Attr(AttrSituations, res.Coverage.String())
	}
	if res.Truncated {
		t.Attr(AttrTruncated, "true")
		t.Logf("budget: %d checks ran", res.Checks)
	}
	if res.Harness != nil {
		t.Errorf("suite error (a bug of the suite, not of the runner): %v", res.Harness)
	}
	if f := res.Failure; f != nil {
		t.Attr(AttrSeed, fmt.Sprint(f.Seed))
		t.Error("\n" + f.String())
	}
}

// selected are the properties c selects, in suite order.
func (c config) selected() []prop.Property {
	var out []prop.Property
	for _, p := range c.matching() {
		if c.inProfile(p) {
			out = append(out, p)
		}
	}
	return out
}

// matching are the properties c's filters and shard select, in or out of
// its profile (Run reports those out of it as not applicable).
func (c config) matching() []prop.Property {
	var out []prop.Property
	k := 0
	for _, p := range all() {
		if !c.matches(p) {
			continue
		}
		if c.shards == 0 || k%c.shards == c.shard-1 {
			out = append(out, p)
		}
		k++
	}
	return out
}

// Test attributes (t.Attr) Run sets on each property's subtest, for
// tools that read go test -json (conform run).
const (
	// AttrSpecs: the SPEC IDs the property enforces, comma-separated.
	AttrSpecs = "allocsim.specs"
	// AttrDoc: what it checks, on one line.
	AttrDoc = "allocsim.doc"
	// AttrChecks: how many scenarios ran; AttrTruncated: "true" when the
	// budget cut them short.
	AttrChecks    = "allocsim.checks"
	AttrTruncated = "allocsim.truncated"
	// AttrSeed: the failing seed.
	AttrSeed = "allocsim.seed"
	// AttrSituations: how many checks reached each situation of the
	// property's catalogue, "name=runs,name=runs" (prop.Coverage).
	AttrSituations = "allocsim.situations"
	// AttrRunning: "<check> <seed>", set as each check starts, so that
	// a test binary that dies in a check has named its seed.
	AttrRunning = prop.AttrRunning
	// AttrProperties, on Run's own test: how many property subtests it
	// runs (not applicable ones included).
	AttrProperties = "allocsim.properties"
	// AttrPlan, on Run's own test: the IDs of those properties, in the
	// order they run, comma-separated: a tool that sees the binary die
	// runs the rest in a new one (conform run).
	AttrPlan = "allocsim.plan"
	// AttrClock, on Run's own test: "fork" when the build links the
	// heap-ordered clock fork, "upstream" when it runs on upstream's Mock
	// (DESIGN-CLOCK.md).
	AttrClock = "allocsim.clock"
)

// bySpec groups consecutive properties of one SPEC ID.
func bySpec(props []prop.Property) [][]prop.Property {
	var out [][]prop.Property
	for _, p := range props {
		if n := len(out); n > 0 && out[n-1][0].Spec() == p.Spec() {
			out[n-1] = append(out[n-1], p)
			continue
		}
		out = append(out, []prop.Property{p})
	}
	return out
}

// goTestReplay is the go test command that replays seed of the subtest
// named name (each path element anchored).
func goTestReplay(pkg, name string, seed uint64) string {
	if pkg == "" {
		pkg = "."
	}
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return fmt.Sprintf("go test %s -run '%s' -allocsim.seed=%d", pkg, strings.Join(parts, "/"), seed)
}

// budget shares a real-time budget between properties: each gets an
// even share of what is left.
type budget struct {
	end  time.Time
	left int
}

func newBudget(d time.Duration, n int) *budget {
	b := &budget{left: n}
	if d > 0 {
		b.end = time.Now().Add(d) // real time, outside every bubble
	}
	return b
}

// next is the deadline of the next property (zero: none).
func (b *budget) next() time.Time {
	if b.end.IsZero() {
		return time.Time{}
	}
	now := time.Now()
	return now.Add(b.end.Sub(now) / time.Duration(max(b.left, 1)))
}

func (b *budget) done() { b.left-- }
