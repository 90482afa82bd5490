package prop

import (
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/sim/scenario"
)

// TestCoverageCountsReachedSituations: a property's catalogue is counted
// per check, a situation no check reached is listed, and reaching an
// undeclared one is a harness error, not a pass.
func TestCoverageCountsReachedSituations(t *testing.T) {
	p := Property{ID: "X-7/reach", Specs: []string{"X-7"}, Draw: drawnOnce,
		Situations: []Situation{{Name: "always", Doc: "every run"}, {Name: "never", Doc: "no run"}},
		New: func(scenario.Scenario) Checker {
			return Checks{OnFinal: func(v *View) { v.Reach("always") }}
		}}
	res := Explore(t, p, Config{Factory: reference.Minimal, Checks: 3, Base: 1, Rerun: -1})
	if !res.Passed() {
		t.Fatalf("%+v", res)
	}
	if got, want := res.Coverage.String(), "always=3,never=0"; got != want {
		t.Errorf("coverage %s, want %s", got, want)
	}
	if got := res.Coverage.Never(); len(got) != 1 || got[0] != "never" {
		t.Errorf("never reached: %v", got)
	}
	merged := res.Coverage.Merge(Coverage{{Name: "never", Runs: 2}})
	if got, want := merged.String(), "always=3,never=2"; got != want {
		t.Errorf("merged %s, want %s", got, want)
	}
	p.New = func(scenario.Scenario) Checker {
		return Checks{OnFinal: func(v *View) { v.Reach("typo") }}
	}
	bad := Explore(t, p, Config{Factory: reference.Minimal, Checks: 1, Base: 1, Rerun: -1})
	if bad.Passed() || bad.Failure == nil || !strings.Contains(bad.Failure.String(), `situation "typo" is not in the property's catalogue`) {
		t.Errorf("an undeclared situation: %+v", bad)
	}
}
