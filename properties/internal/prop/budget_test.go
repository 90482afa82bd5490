package prop

import (
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/minimal"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/scenario"
)

// chatty is the minimal runner that, once running, pushes its alloc
// every virtual millisecond for ever: a run without end.
type chatty struct {
	interfaces.AllocRunner
	cfg *interfaces.Config
}

func (r *chatty) Run() {
	r.AllocRunner.Run()
	t := r.cfg.Clock.Ticker(time.Millisecond)
	go func() {
		for range t.C {
			a := r.cfg.Alloc.CopySkipJob()
			a.ClientStatus = structs.AllocClientStatusRunning
			r.cfg.StateUpdater.AllocStateUpdated(a)
		}
	}()
}

var runaway = reference.WithAllocRunner("runaway", func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	ar, err := minimal.NewAllocRunner(cfg)
	if err != nil {
		return nil, err
	}
	return &chatty{AllocRunner: ar, cfg: cfg}, nil
})

// TestCheckBudgetEndsARunaway: a run past its budget of settled instants
// stops there with a BUDGET diagnosis naming the seed, the virtual time
// reached and what it counted, the suite goes on, and a replay of the
// seed stops at the same instant.
func TestCheckBudgetEndsARunaway(t *testing.T) {
	holding := Property{ID: "X-6/holds", Specs: []string{"X-6"}, Draw: drawnOnce,
		New: func(scenario.Scenario) Checker { return Checks{} }}
	cfg := Config{Factory: runaway, Checks: 1, Base: 1, Rerun: -1, CheckBudget: CheckBudget{Steps: 500}}
	res := Explore(t, holding, cfg)
	if res.Failure == nil {
		t.Fatalf("a runaway passed: %+v", res)
	}
	v := res.Failure.Violation()
	for _, want := range []string{`BUDGET (runner "runaway", seed `, "the check stopped at its budget of 500 settled instants, at virtual time ",
		" after 501 settled instants and ", "want a run that ends within it"} {
		if !strings.Contains(v.String(), want) {
			t.Errorf("violation lacks %q: %s", want, v)
		}
	}
	cfg.Seed = res.Failure.Seed
	again := Explore(t, holding, cfg)
	if again.Failure == nil || !again.Failure.Violation().At.Equal(v.At) {
		t.Errorf("replay of seed %d: %v, want the same stop at %s", cfg.Seed, again.Failure, v.At)
	}
	// The default budget lets the same scenario's conforming run end.
	ok := Explore(t, holding, Config{Factory: reference.Minimal, Checks: 1, Base: 1})
	if !ok.Passed() {
		t.Errorf("the minimal runner under the default budget: %+v", ok)
	}
}
