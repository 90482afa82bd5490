package properties_test

import (
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties"
)

// suiteOptions are the options of the suite's own tests: the defaults,
// with fewer checks under the race detector (it runs every goroutine
// several times slower; make race runs the suite for races, make test for
// coverage of scenarios).
func suiteOptions() []properties.Option {
	if raceEnabled {
		return []properties.Option{properties.WithChecks(2), properties.WithShrinkRuns(4)}
	}
	return nil
}

func TestBadOptionsAreErrors(t *testing.T) {
	tests := []struct {
		opt  properties.Option
		want string
	}{
		{properties.WithProfile("everything"), `unknown profile "everything"`},
		{properties.WithChecks(0), "checks must be at least 1"},
		{properties.WithFaults("rpc_failure", "meteor"), `unknown fault class "meteor"`},
		{properties.WithProperty("NOPE-1"), "no property selected"},
	}
	for _, tt := range tests {
		rep := properties.Check(reference.Minimal, tt.opt)
		if rep.Err == nil || !strings.Contains(rep.Err.Error(), tt.want) {
			t.Errorf("Check with a bad option: err = %v, want %q", rep.Err, tt.want)
		}
	}
}

func TestCheckReturnsResultsWithoutATest(t *testing.T) {
	rep := properties.Check(reference.Minimal, properties.WithProfile(properties.ProfileClientCommunication), properties.WithChecks(2))
	if rep.Err != nil {
		t.Fatal(rep.Err)
	}
	if !rep.Conforms() || len(rep.Results) == 0 {
		t.Fatalf("minimal runner, client-communication profile:\n%s", rep)
	}
	for _, r := range rep.Results {
		if r.Checks != 2 {
			t.Errorf("%s ran %d checks, want 2", r.ID, r.Checks)
		}
	}
}

func TestListNamesEveryPropertyBySpecID(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range properties.List() {
		if seen[p.ID] {
			t.Errorf("property %s listed twice", p.ID)
		}
		seen[p.ID] = true
		spec, name, ok := strings.Cut(p.ID, "/")
		if !ok || name == "" || len(p.Specs) == 0 || p.Specs[0] != spec || p.Doc == "" {
			t.Errorf("property %q: want ID <SPEC-ID>/<name>, Specs starting with the SPEC ID, a Doc; got %+v", p.ID, p)
		}
	}
}
