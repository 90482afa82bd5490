package telem

import (
	"testing"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// TestProperties: the reference runner holds every telemetry property.
func TestProperties(t *testing.T) {
	for _, p := range Properties() {
		t.Run(p.ID, func(t *testing.T) {
			res := prop.Explore(t, p, prop.Config{Factory: reference.Factory, Checks: 12, Base: 1, ShrinkRuns: 10})
			if res.Harness != nil {
				t.Fatalf("harness: %v", res.Harness)
			}
			if res.Failure != nil {
				t.Fatalf("%s", res.Failure.String())
			}
			t.Logf("%d checks in %v", res.Checks, res.Elapsed)
		})
	}
}

// TestMutants: each telemetry mutant is caught by its property.
func TestMutants(t *testing.T) {
	for _, c := range []struct{ mutant, id string }{
		{"telem-counts-skipped", "TELEM-3/one-emission-per-hook-execution"},
		{"telem-wallclock", "TELEM-4/elapsed-is-virtual-duration"},
	} {
		t.Run(c.mutant, func(t *testing.T) {
			m, ok := mutants.Lookup(c.mutant)
			if !ok {
				t.Skipf("mutant %s not built", c.mutant)
			}
			for _, p := range Properties() {
				if p.ID != c.id {
					continue
				}
				res := prop.Explore(t, p, prop.Config{Factory: m.Factory, Checks: 12, Base: 1, ShrinkRuns: 10})
				if res.Harness != nil {
					t.Fatalf("harness: %v", res.Harness)
				}
				if res.Failure == nil {
					t.Fatalf("%s not caught by %s in %d checks", c.mutant, p.ID, res.Checks)
				}
				t.Logf("caught at check %d in %v:\n%s", res.Failure.Check, res.Elapsed, res.Failure.String())
			}
		})
	}
}
