package properties_test

import (
	"slices"
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

// TestSpecsAndShardSelect: WithSpecs selects the properties enforcing a
// SPEC ID; n shards split the selection in suite order, out-of-profile
// properties counted, and together run each once.
func TestSpecsAndShardSelect(t *testing.T) {
	var matching []properties.Info
	for _, p := range properties.List() {
		if slices.Contains(p.Specs, "SYNC-5") {
			matching = append(matching, p)
		}
	}
	var all []string
	for shard := 1; shard <= 2; shard++ {
		rep := properties.Check(reference.Minimal, properties.WithProfile(properties.ProfileClientCommunication),
			properties.WithSpecs("SYNC-5"), properties.WithShard(shard, 2), properties.WithChecks(1))
		if rep.Err != nil {
			t.Fatal(rep.Err)
		}
		var want, got []string
		for k, p := range matching {
			if k%2 == shard-1 && p.ClientCommunication {
				want = append(want, p.ID)
			}
		}
		for _, r := range rep.Results {
			got = append(got, r.ID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("shard %d/2 ran %q, want %q", shard, got, want)
		}
		all = append(all, got...)
	}
	if len(all) == 0 {
		t.Fatal("no SYNC-5 property in the client-communication profile")
	}
	slices.Sort(all)
	if len(slices.Compact(all)) != len(all) {
		t.Errorf("a property ran in both shards: %q", all)
	}
	rep := properties.Check(reference.Minimal, properties.WithShard(3, 2))
	if rep.Err == nil || !strings.Contains(rep.Err.Error(), "shard 3/2") {
		t.Errorf("WithShard(3, 2): err = %v", rep.Err)
	}
}

// TestSeedRangeChecksThoseSeeds: a seed range runs exactly its seeds, in
// order, and a bad range is an error.
func TestSeedRangeChecksThoseSeeds(t *testing.T) {
	rep := properties.Check(reference.Minimal, properties.WithProfile(properties.ProfileClientCommunication),
		properties.WithProperty("SYNC-5/nothing-before-contact"), properties.WithSeedRange(40, 43))
	if rep.Err != nil {
		t.Fatal(rep.Err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Checks != 4 {
		t.Fatalf("seeds 40..43: %+v", rep.Results)
	}
	for _, bad := range [][2]uint64{{0, 3}, {5, 4}} {
		rep := properties.Check(reference.Minimal, properties.WithSeedRange(bad[0], bad[1]))
		if rep.Err == nil || !strings.Contains(rep.Err.Error(), "seed range") {
			t.Errorf("WithSeedRange(%d, %d): err = %v", bad[0], bad[1], rep.Err)
		}
	}
}
