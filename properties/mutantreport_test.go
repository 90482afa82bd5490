package properties_test

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/properties"
)

var (
	mutantReport = flag.String("mutants.report", "", "write the mutant detection report (Markdown) to this file (make mutants)")
	mutantBases  = flag.Int("mutants.bases", 7, "base seeds per mutant for the detection report")
)

// TestMutantReport measures, per mutant, how soon its properties catch
// it: for each of -mutants.bases base seeds, the ordinal of the first
// failing check (up to 100 checks) and the real time it took; the report
// gives the medians. Run by make mutants; skipped without
// -mutants.report.
func TestMutantReport(t *testing.T) {
	if *mutantReport == "" {
		t.Skip("make mutants writes the report (-mutants.report=FILE)")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Mutants and the properties that catch them\n\n")
	fmt.Fprintf(&b, "Written by `make mutants` (`TestMutantReport` in properties/). For each mutant and each\n")
	fmt.Fprintf(&b, "property made to catch it: over %d base seeds (1..%d), the ordinal of the first failing check\n", *mutantBases, *mutantBases)
	fmt.Fprintf(&b, "(at most 100, no shrinking) and the real time to that failure, as medians (min-max). Seeds\n")
	fmt.Fprintf(&b, "are deterministic; wall times are of the machine that wrote the report.\n\n")
	fmt.Fprintf(&b, "| mutant | breaks | caught by | caught | checks to detection | wall time to detection |\n|---|---|---|---|---|---|\n")
	for _, m := range mutants.All() {
		for _, id := range m.CaughtBy {
			var checks []int
			var walls []time.Duration
			for base := 1; base <= *mutantBases; base++ {
				rep := properties.Check(m.Factory, properties.WithProperty(id), properties.WithBaseSeed(uint64(base)),
					properties.WithChecks(100), properties.WithShrinkRuns(0), properties.WithBudget(0))
				if rep.Err != nil {
					t.Fatal(rep.Err)
				}
				res, _ := rep.Result(id)
				if res.Failed {
					checks = append(checks, res.Check)
					walls = append(walls, res.Elapsed)
				}
			}
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | %d/%d | %s | %s |\n", m.Name, strings.Join(m.Breaks, ", "), id,
				len(checks), *mutantBases, medianInts(checks), medianDurations(walls))
			t.Logf("%s by %s: %d/%d caught, checks %v", m.Name, id, len(checks), *mutantBases, checks)
		}
	}
	fmt.Fprintf(&b, "\nWhat each mutant mirrors:\n\n")
	for _, m := range mutants.All() {
		fmt.Fprintf(&b, "- `%s`: %s\n", m.Name, m.Mirrors)
	}
	if err := os.WriteFile(*mutantReport, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func medianInts(v []int) string {
	if len(v) == 0 {
		return "never"
	}
	slices.Sort(v)
	return fmt.Sprintf("%d (%d-%d)", v[len(v)/2], v[0], v[len(v)-1])
}

func medianDurations(v []time.Duration) string {
	if len(v) == 0 {
		return "-"
	}
	slices.Sort(v)
	r := func(d time.Duration) string { return d.Round(10 * time.Millisecond).String() }
	return fmt.Sprintf("%s (%s-%s)", r(v[len(v)/2]), r(v[0]), r(v[len(v)-1]))
}
