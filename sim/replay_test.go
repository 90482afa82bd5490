package sim

import (
	"errors"
	"flag"
	"fmt"
	"testing"

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

// checkReplay is CheckReplay of seed's generated scenario with f, in a
// bubble of its own; with -trace.dir it writes each run's trace.
func checkReplay(t *testing.T, f interfaces.Factory, seed uint64, runs int) error {
	t.Helper()
	var err error
	Test(t, WatchConfig{Replay: replayCommand}, func(t *testing.T) {
		opts := ReplayOptions{Runs: runs, Replay: replayCommand(seed)}
		if *traceDir != "" {
			opts.OnRun = func(run int, w *World) {
				if err := w.Trace().WriteFile(fmt.Sprintf("%s/%s-%d-%d.jsonl", *traceDir, f.Name, seed, run)); err != nil {
					t.Error(err)
				}
			}
		}
		err = CheckReplay(Config{Scenario: scenario.Generate(seed, scenario.Options{}), Factory: f}, opts)
	})
	return err
}

// TestReplay is DET-4 (and every check of a run, DET-1's stamps among
// them): for each seed, two runs of the same generated scenario run
// without violation and give byte-identical traces (CheckReplay). Replay
// one seed with `go test ./sim -run TestReplay -seed=<n>`.
func TestReplay(t *testing.T) {
	for _, f := range []interfaces.Factory{minimalFactory(), referenceFactory()} {
		t.Run(f.Name, func(t *testing.T) {
			for _, seed := range replaySeeds() {
				err := checkReplay(t, f, seed, 2)
				var diff *ReplayError
				switch {
				case errors.As(err, &diff):
					t.Fatalf("%v", err)
				case err != nil:
					t.Errorf("%v", err)
				}
			}
		})
	}
}

// firstDiff describes the first differing line of two traces (or
// transcripts: any newline-separated text).
func firstDiff(a, b []byte) string {
	d := diffTraces(a, b)
	if d == nil {
		return "no difference"
	}
	return fmt.Sprintf("line %d:\n  first:  %s\n  second: %s", d.Line, orEnd(d.First), orEnd(d.Other))
}
