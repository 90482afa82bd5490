package syncing

import (
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// explore runs p on f for checks scenarios of the suite's default base
// seed, without shrinking.
func explore(t *testing.T, p prop.Property, f interfaces.Factory, checks int, seed uint64) prop.Result {
	t.Helper()
	res := prop.Explore(t, p, prop.Config{Factory: f, Checks: checks, Base: 1, Seed: seed})
	if res.Harness != nil {
		t.Fatalf("%s on %s: suite error: %v", p.ID, f.Name, res.Harness)
	}
	return res
}

// TestTimingHold: the reference runner and, in its profile, the minimal
// one keep every timing property (no false alarm).
func TestTimingHold(t *testing.T) {
	for _, p := range Timing() {
		t.Run(p.ID, func(t *testing.T) {
			if res := explore(t, p, reference.Factory, 6, 0); res.Failure != nil {
				t.Errorf("reference:\n%s", res.Failure)
			}
			if !p.In(prop.ClientCommunication) {
				return
			}
			if res := explore(t, p, reference.Minimal, 6, 0); res.Failure != nil {
				t.Errorf("minimal:\n%s", res.Failure)
			}
		})
	}
}

// TestTimingCatchesMutants: each sync mutant fails the property made for
// it within the suite's default 12 checks, and its seed replays the same
// violation.
func TestTimingCatchesMutants(t *testing.T) {
	for _, tt := range []struct {
		mutant string
		prop   prop.Property
	}{
		{"sync-lazy-status", urgentFirstTick},
		{"sync-oldest-wins", urgentFirstTick},
		{"sync-no-priority", spacedWithoutUrgent},
		{"sync-blocking-producer", producersNeverBlock},
		{"sync-early-send", nothingBeforeContact},
		{"sync-retry-appended", acknowledgedNotResent},
	} {
		t.Run(tt.mutant, func(t *testing.T) {
			m, ok := mutants.Lookup(tt.mutant)
			if !ok {
				t.Fatalf("no mutant %s", tt.mutant)
			}
			res := explore(t, tt.prop, m.Factory, 12, 0)
			if res.Failure == nil {
				t.Fatalf("%s passed %s after %d checks", tt.mutant, tt.prop.ID, res.Checks)
			}
			got := res.Failure.Violation().String()
			t.Logf("caught at check %d (seed %d): %s", res.Failure.Check, res.Failure.Seed, got)
			again := explore(t, tt.prop, m.Factory, 1, res.Failure.Seed)
			if again.Failure == nil || again.Failure.Violation().String() != got {
				t.Errorf("seed %d replayed: %v, want %s", res.Failure.Seed, again.Failure, got)
			}
		})
	}
}

// TestUrgentIsExercised: the reference runner's scenarios do owe urgent
// states, and most are met in time (the property is not vacuous).
func TestUrgentIsExercised(t *testing.T) {
	var made, met int
	p := urgentFirstTick
	p.New = func(sc scenario.Scenario) prop.Checker {
		c := &urgentChecker{acks: newAcks(), incs: newIncarnations(), hist: map[string][]*structs.AllocState{}}
		return prop.Checks{OnSettled: c.settled, OnFinal: func(v *prop.View) {
			c.final(v)
			made, met = made+c.made, met+c.met
		}}
	}
	if res := explore(t, p, reference.Factory, 6, 0); res.Failure != nil {
		t.Fatalf("reference:\n%s", res.Failure)
	}
	if made == 0 || 2*met < made {
		t.Errorf("urgent states owed %d, met in time %d: want some, most met", made, met)
	}
}
