package sim

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/shoenig/test/must"
)

// seedsDir holds the regression seeds (STYLE.md rule 12), one directory
// each: scenario.json (the scenario, fault plan included, as data: it
// outlives generator changes), faults.txt (the plan as printed, which
// must match the scenario's), verdict.txt (the expected verdict: "ok", or
// the violation a run must report) and README.md (what the seed found).
// fixtures/seeds/README.md lists them in a table.
const seedsDir = "../fixtures/seeds"

var regressAdd = flag.String("regress.add", "",
	"TestSeedRegressions: write fixtures/seeds/<name> for -seed (scenario, plan, verdict of one run); write its README.md and table row by hand")

// regressionPairs is how many pairs of runs each regression seed gets
// (2 with -short): most of them were same-instant races that a single
// pair of runs showed only some of the time.
func regressionPairs() int {
	if testing.Short() {
		return 2
	}
	return 8
}

// verdict is a run's verdict as verdict.txt spells it.
func verdict(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

// regressionSteps bounds a regression run's settled instants, as the
// suite's check budget does (properties.DefaultCheckBudget): a seed that
// once made a run grow without end fails here instead of hanging.
const regressionSteps = 200_000

// runVerdict runs sc with the reference runner in a bubble of its own and
// returns its verdict and trace.
func runVerdict(t *testing.T, sc scenario.Scenario) (string, []byte) {
	t.Helper()
	var v string
	var out []byte
	Test(t, WatchConfig{}, func(t *testing.T) {
		w, err := New(Config{Scenario: sc, Factory: referenceFactory()})
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		if err := w.Start(); err != nil {
			t.Fatalf("%s: start: %v", sc.Name, err)
		}
		over := func() bool { return w.Steps() > regressionSteps }
		if w.RunUntil(over, sc.End().Sub(w.Now())) {
			v = fmt.Sprintf("over %d settled instants at %s", regressionSteps, w.Now().UTC().Format(time.RFC3339Nano))
			_ = w.Close()
		} else if err := w.Close(); err != nil {
			v = verdict(fmt.Errorf("sim: run %s: %w", sc.Name, err)) // as Run says it
		} else {
			v = verdict(nil)
		}
		out = traceBytes(t, w)
	})
	return v, out
}

// TestSeedRegressions replays every regression seed under fixtures/seeds
// with the reference runner, regressionPairs() pairs of runs: each run
// must give the expected verdict and every run the same trace (DET-4).
// Replay one with `go test ./sim -run 'TestSeedRegressions/<name>$'`; add
// one with `-run 'TestSeedRegressions$' -seed=<n> -regress.add=<name>`.
func TestSeedRegressions(t *testing.T) {
	if *regressAdd != "" {
		addRegression(t, *regressAdd, *seedFlag)
	}
	dirs, err := os.ReadDir(seedsDir)
	must.NoError(t, err)
	n := 0
	for _, d := range dirs { // ReadDir sorts by name
		if !d.IsDir() {
			continue
		}
		n++
		t.Run(d.Name(), func(t *testing.T) { replayRegression(t, filepath.Join(seedsDir, d.Name())) })
	}
	must.Positive(t, n, must.Sprint("no regression seeds under ", seedsDir))
}

func replayRegression(t *testing.T, dir string) {
	sc, err := scenario.Load(filepath.Join(dir, "scenario.json"))
	must.NoError(t, err)
	plan, err := os.ReadFile(filepath.Join(dir, "faults.txt"))
	must.NoError(t, err)
	parsed, err := faults.ParsePlan(string(plan))
	must.NoError(t, err)
	must.EqOp(t, sc.Faults.String(), parsed.String(), must.Sprint("faults.txt and scenario.json disagree"))
	want, err := os.ReadFile(filepath.Join(dir, "verdict.txt"))
	must.NoError(t, err)
	_, err = os.Stat(filepath.Join(dir, "README.md"))
	must.NoError(t, err, must.Sprint("every regression seed says what it found"))

	replay := fmt.Sprintf("go test ./sim -run 'TestSeedRegressions/%s$'", filepath.Base(dir))
	var first []byte
	for i := range 2 * regressionPairs() {
		v, out := runVerdict(t, sc)
		if v != strings.TrimSpace(string(want)) {
			t.Fatalf("%s", Failure{Scenario: sc, Replay: replay,
				Violation: fmt.Sprintf("run %d: verdict = %q, want %q", i+1, v, strings.TrimSpace(string(want)))})
		}
		if i == 0 {
			first = out
			continue
		}
		if !bytes.Equal(first, out) {
			t.Fatalf("%s", Failure{Scenario: sc, Replay: replay,
				Violation: fmt.Sprintf("DET-4: runs 1 (first) and %d (second) of the same seed differ: %s", i+1, firstDiff(first, out))})
		}
	}
}

// addRegression writes the fixture of seed's generated scenario under
// fixtures/seeds/name, with the verdict of one run.
func addRegression(t *testing.T, name string, seed uint64) {
	must.Positive(t, seed, must.Sprint("-regress.add needs -seed"))
	dir := filepath.Join(seedsDir, name)
	must.NoError(t, os.MkdirAll(dir, 0o755))
	sc := scenario.Generate(seed, scenario.Options{})
	var js bytes.Buffer
	must.NoError(t, sc.Encode(&js))
	must.NoError(t, os.WriteFile(filepath.Join(dir, "scenario.json"), js.Bytes(), 0o644))
	must.NoError(t, os.WriteFile(filepath.Join(dir, "faults.txt"), []byte(sc.Faults.String()+"\n"), 0o644))
	v, _ := runVerdict(t, sc)
	must.NoError(t, os.WriteFile(filepath.Join(dir, "verdict.txt"), []byte(v+"\n"), 0o644))
}
