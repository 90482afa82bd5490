package sim

import (
	"bytes"
	"regexp"
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// harnessFields are the trace fields that name the runner or count the
// world's settled instants, which parking changes by design (SPEC-NOTES
// "Parked sync ticker").
var harnessFields = regexp.MustCompile(`"runner":"[^"]*"|"steps":[0-9]+`)

// traceOf runs sc with f and returns its trace without harnessFields, and
// the settled instants it took.
func traceOf(t *testing.T, sc scenario.Scenario, f interfaces.Factory) ([]byte, uint64) {
	t.Helper()
	var out []byte
	var steps uint64
	synctest.Test(t, func(t *testing.T) {
		w, err := Run(Config{Scenario: sc, Factory: f})
		if err != nil {
			t.Fatal(err)
		}
		out, steps = traceBytes(t, w), w.Steps()
	})
	return harnessFields.ReplaceAll(out, nil), steps
}

// TestParkedSyncMatchesTicking: the reference client, whose sync loop
// parks its ticker while nothing is buffered, and reference.Ticking, whose
// ticker never stops, trace the same run byte for byte (but for the
// runner's name and the count of settled instants) on generated
// scenarios with every fault but clock jumps (across a jump the two count
// SYNC-3's n differently, as SPEC-NOTES allows), and the parked one takes
// fewer instants.
func TestParkedSyncMatchesTicking(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	r := replaySeeds()
	for _, seed := range r[:min(n, len(r))] {
		sc := scenario.Generate(seed, scenario.Options{Exclude: []faults.Class{faults.ClockJump}})
		parked, ps := traceOf(t, sc, reference.Factory)
		ticking, ts := traceOf(t, sc, reference.Ticking)
		if !bytes.Equal(parked, ticking) {
			t.Fatalf("seed %d: the parked and the ticking sync loop trace differently at %s\nreplay: %s",
				seed, firstDiff(parked, ticking), ReplayCommand("./sim", "TestParkedSyncMatchesTicking", seed))
		}
		if ps >= ts {
			t.Errorf("seed %d: the parked loop took %d instants, the ticking one %d", seed, ps, ts)
		}
	}
}

// TestDayParked: on the fault-free day of the benchmarks the parked loop
// traces what the ticking one does in a fraction of the instants.
func TestDayParked(t *testing.T) {
	if testing.Short() {
		t.Skip("two virtual days")
	}
	sc := dayScenario(10)
	parked, ps := traceOf(t, sc, reference.Factory)
	ticking, ts := traceOf(t, sc, reference.Ticking)
	if !bytes.Equal(parked, ticking) {
		t.Fatalf("the parked and the ticking sync loop trace the day differently at %s", firstDiff(parked, ticking))
	}
	if ps*10 > ts {
		t.Errorf("the parked loop took %d instants of the ticking one's %d", ps, ts)
	}
	t.Logf("settled instants of a virtual day: parked %d, ticking %d", ps, ts)
}
