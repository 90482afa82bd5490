package sched

import (
	"testing"

	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// TestReferencePasses: the reference runner holds every property.
func TestReferencePasses(t *testing.T) {
	for _, p := range Properties() {
		t.Run(p.ID, func(t *testing.T) {
			res := prop.Explore(t, p, prop.Config{Factory: reference.Factory, Checks: 12, Base: 1, ShrinkRuns: 10})
			if res.Harness != nil {
				t.Fatalf("harness: %v", res.Harness)
			}
			if res.Failure != nil {
				t.Fatal(res.Failure.String())
			}
			t.Logf("%s: %d checks in %s", p.ID, res.Checks, res.Elapsed)
		})
	}
}
