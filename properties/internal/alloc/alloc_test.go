package alloc

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// TestReference: the reference runner passes every property.
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

// TestMutantsCaught: each target mutant fails its property with the
// default checks.
func TestMutantsCaught(t *testing.T) {
	targets := map[string]string{
		"status-running-over-failed": "AR-8/client-status-every-instant",
		"kill-order":                 "AR-9/kill-order",
		"event-cap-11":               "DATA-6/events-newest-10",
		"update-older-wins":          "AR-10/update-queue",
	}
	for name, id := range targets {
		t.Run(name, func(t *testing.T) {
			m, ok := mutants.Lookup(name)
			if !ok {
				t.Skipf("mutant %s not built yet", name)
			}
			p := byID(t, id)
			res := prop.Explore(t, p, prop.Config{Factory: m.Factory, Checks: 12, Base: 1, ShrinkRuns: 40})
			if res.Harness != nil {
				t.Fatalf("harness: %v", res.Harness)
			}
			if res.Failure == nil {
				t.Fatalf("%s not caught by %s in %d checks", name, id, res.Checks)
			}
		})
	}
}

func byID(t *testing.T, id string) prop.Property {
	for _, p := range Properties() {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no property %s", id)
	return prop.Property{}
}
