package sim

import (
	"bytes"
	"flag"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/seeds"
)

var (
	seedFlag  = flag.Uint64("seed", 0, "replay only this seed (TestReplay)")
	seedsFlag = flag.Int("seeds", 200, "how many seeds TestReplay runs (-short: 50)")
	traceDir  = flag.String("trace.dir", "", "write each run's trace to <dir>/<runner>-<seed>-<run>.jsonl")
)

// replayCommand is the command that replays seed as this run did.
func replayCommand(seed uint64) string { return ReplayCommand("./sim", "TestReplay", seed) }

// replaySeeds are the seeds TestReplay runs: -seed alone, else -seeds of
// them drawn from a fixed source (50 with -short).
func replaySeeds() []uint64 {
	if *seedFlag != 0 {
		return []uint64{*seedFlag}
	}
	n := *seedsFlag
	if testing.Short() && n > 50 {
		n = 50
	}
	r := seeds.Stream(2024, "replay")
	out := make([]uint64, n)
	for i := range out {
		out[i] = r.Uint64() >> 1
	}
	return out
}

// runTrace runs the scenario of seed with f in a bubble of its own and
// returns its trace.
func runTrace(t *testing.T, f interfaces.Factory, seed uint64, run int) []byte {
	t.Helper()
	var out []byte
	synctest.Test(t, func(t *testing.T) {
		sc := scenario.Generate(seed, scenario.Options{})
		w, err := Run(Config{Scenario: sc, Factory: f})
		if w == nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err != nil {
			t.Errorf("%s", Failure{Scenario: sc, Violation: err.Error(), Trace: w.Trace().Tail(20),
				Replay: replayCommand(seed)})
		}
		out = traceBytes(t, w)
		if *traceDir != "" {
			if err := w.Trace().WriteFile(fmt.Sprintf("%s/%s-%d-%d.jsonl", *traceDir, f.Name, seed, run)); err != nil {
				t.Error(err)
			}
		}
	})
	return out
}

// TestReplay is DET-4: for each seed, two runs of the same generated
// scenario give byte-identical traces. Replay one seed with
// `go test ./sim -run TestReplay -seed=<n>`.
func TestReplay(t *testing.T) {
	for _, f := range []interfaces.Factory{minimalFactory(), referenceFactory()} {
		t.Run(f.Name, func(t *testing.T) {
			for _, seed := range replaySeeds() {
				a := runTrace(t, f, seed, 1)
				b := runTrace(t, f, seed, 2)
				if !bytes.Equal(a, b) {
					t.Fatalf("%s", Failure{
						Scenario:  scenario.Generate(seed, scenario.Options{}),
						Violation: "DET-4: two runs of the same seed differ: " + firstDiff(a, b),
						Replay:    replayCommand(seed),
					})
				}
			}
		})
	}
}

// firstDiff describes the first differing line of two traces.
func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(la) && i < len(lb); i++ {
		if !bytes.Equal(la[i], lb[i]) {
			return fmt.Sprintf("line %d:\n  run 1: %s\n  run 2: %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(la), len(lb))
}
