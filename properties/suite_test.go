package properties_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/properties"
)

// TestEveryMutantIsListed: every property a mutant's row names as
// catching it exists.
func TestEveryMutantIsListed(t *testing.T) {
	ids := map[string]bool{}
	for _, p := range properties.List() {
		ids[p.ID] = true
	}
	for _, m := range mutants.All() {
		if len(m.CaughtBy) == 0 {
			t.Errorf("mutant %s names no catching property", m.Name)
		}
		for _, id := range m.CaughtBy {
			if !ids[id] {
				t.Errorf("mutant %s: property %s does not exist", m.Name, id)
			}
		}
	}
}

// TestMutantsAreCaught checks every mutant: each property its row in
// impl/mutants names as catching it (Mutant.CaughtBy) must, within the
// default checks; then the whole suite runs on it with a few checks per
// property and every property that failed is reported: no other may,
// unless the row says it depends on the rule broken (Mutant.AlsoFails; a
// false alarm is a bug of the suite). Under the race detector only the
// targets run.
func TestMutantsAreCaught(t *testing.T) {
	for _, m := range mutants.All() {
		t.Run(m.Name, func(t *testing.T) {
			for _, id := range m.CaughtBy {
				rep := properties.Check(m.Factory, properties.WithProperty(id), properties.WithShrinkRuns(0))
				if rep.Err != nil {
					t.Fatal(rep.Err)
				}
				res, _ := rep.Result(id)
				if !res.Failed {
					t.Errorf("mutant %s (breaks %v) passed %s after %d checks: the property cannot fail on the rule it was made for", m.Name, m.Breaks, id, res.Checks)
					continue
				}
				t.Logf("%s caught by %s at check %d (seed %d): %s", m.Name, id, res.Check, res.Seed, res.Violation)
				// Determinism: the failing seed, replayed, fails the same way.
				again := properties.Check(m.Factory, properties.WithProperty(id), properties.WithSeed(res.Seed), properties.WithShrinkRuns(0))
				if r2, _ := again.Result(id); !r2.Failed || r2.Violation != res.Violation {
					t.Errorf("mutant %s, %s: seed %d replayed gives %q, want %q (a seed that does not reproduce is a harness bug)", m.Name, id, res.Seed, r2.Violation, res.Violation)
				}
			}
			if raceEnabled {
				return
			}
			rep := properties.Check(m.Factory, properties.WithChecks(sweepChecks), properties.WithShrinkRuns(0))
			if rep.Err != nil {
				t.Fatal(rep.Err)
			}
			t.Logf("%s: the whole suite (%d checks each) failed %v", m.Name, sweepChecks, rep.Failed())
			for _, id := range rep.Failed() {
				if !mayFail(m, id) {
					res, _ := rep.Result(id)
					t.Errorf("false alarm: mutant %s failed %s, which checks another rule:\n%s", m.Name, id, res.Message)
				}
			}
		})
	}
}

// mayFail reports whether property id may fail on mutant m: its row
// names it as catching m or as depending on the rule m breaks.
func mayFail(m mutants.Mutant, id string) bool {
	return slices.Contains(m.CaughtBy, id) || slices.ContainsFunc(m.AlsoFails, func(p string) bool {
		prefix, wild := strings.CutSuffix(p, "*")
		return p == id || (wild && strings.HasPrefix(id, prefix))
	})
}

// sweepChecks is the checks per property of the false-alarm sweep (2:
// 33 mutants x 38 properties keep `go test ./properties/` under 4
// minutes on 2 cores, issue 11).
const sweepChecks = 2

// TestSuiteOrderKeepsSectionsTogether: the suite runs each SPEC section's
// consecutive properties as one subtest group, so a section split by
// another (STATE-2, STATE-1, STATE-2) would run as STATE-2 and STATE-2#01,
// names no replay command or report expects.
func TestSuiteOrderKeepsSectionsTogether(t *testing.T) {
	seen := map[string]bool{}
	last := ""
	for _, p := range properties.List() {
		spec, _, _ := strings.Cut(p.ID, "/")
		if spec != last && seen[spec] {
			t.Errorf("%s: section %s appears again after another section's properties; list its properties together", p.ID, spec)
		}
		seen[spec], last = true, spec
	}
}
