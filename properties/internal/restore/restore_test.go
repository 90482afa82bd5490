package restore

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

func TestReference(t *testing.T) {
	for _, p := range Properties() {
		t.Run(p.ID, func(t *testing.T) {
			start := time.Now()
			res := prop.Explore(t, p, prop.Config{Factory: reference.Factory, Checks: 12, Base: 1, ShrinkRuns: 10})
			t.Logf("%s: %d checks in %v", p.ID, res.Checks, time.Since(start))
			if res.Harness != nil {
				t.Fatalf("harness: %v", res.Harness)
			}
			if res.Failure != nil {
				t.Fatal(res.Failure.String())
			}
		})
	}
}

func TestMutantsCaught(t *testing.T) {
	m, ok := mutants.Lookup("restore-double-start")
	if !ok {
		t.Skip("mutant not built yet")
	}
	res := prop.Explore(t, noSecondStarted, prop.Config{Factory: m.Factory, Checks: 12, Base: 1, ShrinkRuns: 40})
	if res.Harness != nil {
		t.Fatalf("harness: %v", res.Harness)
	}
	if res.Failure == nil {
		t.Fatalf("restore-double-start not caught in %d checks", res.Checks)
	}
}

// TestNoFalseAlarms: no other mutant fails these properties.
func TestNoFalseAlarms(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: every mutant")
	}
	for _, m := range mutants.All() {
		if m.Name == "restore-double-start" {
			continue
		}
		for _, p := range Properties() {
			res := prop.Explore(t, p, prop.Config{Factory: m.Factory, Checks: 12, Base: 1, ShrinkRuns: 1})
			if res.Failure != nil {
				t.Errorf("%s fails %s: %s", m.Name, p.ID, res.Failure.String())
			}
		}
	}
}
