package prop

import (
	"strings"
	"sync"
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/minimal"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/sim/scenario"
)

// flipper is the minimal runner that reports an alloc running only the
// first time it runs it: a rerun of the same seed (same alloc IDs) sees
// state the first run left in the process, as a runner drawing from a
// global random source would.
type flipper struct {
	interfaces.AllocRunner
	cfg *interfaces.Config
}

var seen sync.Map // alloc ID -> struct{}

func (r *flipper) Run() {
	if _, again := seen.LoadOrStore(r.cfg.Alloc.ID, struct{}{}); !again {
		r.AllocRunner.Run()
	}
}

var flipping = reference.WithAllocRunner("flipping", func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	ar, err := minimal.NewAllocRunner(cfg)
	if err != nil {
		return nil, err
	}
	return &flipper{AllocRunner: ar, cfg: cfg}, nil
})

// TestRerunCatchesNondeterminism: a runner whose trace differs between
// two runs of one seed fails DET-4 at the first check that is rerun,
// with both versions of the first differing record and no shrinking;
// with reruns off, it passes (the check cannot see it otherwise), and
// the reference never differs.
func TestRerunCatchesNondeterminism(t *testing.T) {
	seen.Clear() // a fresh first run for every -count
	holding := Property{ID: "X-5/holds", Specs: []string{"X-5"}, Draw: drawnOnce,
		New: func(scenario.Scenario) Checker { return Checks{} }}
	cfg := Config{Factory: flipping, Checks: 3, Base: 1, ShrinkRuns: 5, Rerun: 1,
		Replay: func(seed uint64) string { return "replay " + itoa(seed) }}
	res := Explore(t, holding, cfg)
	if res.Failure == nil {
		t.Fatalf("nondeterministic runner passed: %+v", res)
	}
	msg := res.Failure.String()
	for _, want := range []string{`DET-4 (runner "flipping", seed `, "differs from run 1's, want byte-identical traces", "; run 1: {", "; run 2: {"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure text lacks %q:\n%s", want, msg)
		}
	}
	if res.Failure.ShrinkRuns != 0 || res.Checks != 1 || res.Reruns != 1 {
		t.Errorf("shrink runs %d, checks %d, reruns %d; want 0, 1, 1", res.Failure.ShrinkRuns, res.Checks, res.Reruns)
	}
	cfg.Rerun = -1
	if res := Explore(t, holding, cfg); !res.Passed() || res.Reruns != 0 {
		t.Errorf("without reruns: %+v", res)
	}
	ref := Config{Factory: reference.Factory, Checks: 4, Base: 1}
	if res := Explore(t, holding, ref); !res.Passed() || res.Reruns != 1 {
		t.Errorf("reference, default reruns (1 in %d): passed %v, reruns %d, want 1", DefaultRerun, res.Passed(), res.Reruns)
	}
}
