package sched

import (
	"testing"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// TestMutantsCaught: each target mutant fails its properties with the
// default 12 checks from base seed 1.
func TestMutantsCaught(t *testing.T) {
	cases := map[string][]string{
		"sched-utc":          {"SCHED-5/inside-windows-only"},
		"sched-nomad-window": {"SCHED-5/window-start-instant", "SCHED-5/overnight-windows", "SCHED-5/several-daily-starts", "SCHED-6/short-dst-day"},
		"sched-dst-naive":    {"SCHED-6/dst-transitions"},
	}
	for name, ids := range cases {
		m, ok := mutants.Lookup(name)
		if !ok {
			t.Fatalf("no mutant %s", name)
		}
		for _, p := range Properties() {
			want := false
			for _, id := range ids {
				want = want || id == p.ID
			}
			if !want {
				continue
			}
			t.Run(name+"/"+p.ID, func(t *testing.T) {
				res := prop.Explore(t, p, prop.Config{Factory: m.Factory, Checks: 12, Base: 1})
				if res.Harness != nil {
					t.Fatalf("harness: %v", res.Harness)
				}
				if res.Failure == nil {
					t.Fatalf("%s not caught by %s", name, p.ID)
				}
				t.Logf("caught at check %d: %s", res.Failure.Check, res.Failure.Violation())
			})
		}
	}
}
