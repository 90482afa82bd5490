package properties

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// The suite's throughput (issue 25): what one check costs, against what
// the harness costs with nothing to check. A check is one scenario of
// one property: its bubble, world, run, checker and the determinism
// rerun when it falls on one. Each op of BenchmarkCheckReference is the
// next property's next check (round robin over the whole suite, with
// reruns off and one in four on as the suite runs them), so ns/op is the
// mean cost of a check of the reference; BenchmarkCheckEmpty is the
// floor: a bubble, a world and a run of (next to) no virtual time.

// inTest runs f with a *testing.T of its own (bubbles need one), as go
// test runs a test.
func inTest(b *testing.B, f func(t *testing.T)) {
	b.Helper()
	ok := testing.RunTests(func(string, string) (bool, error) { return true, nil },
		[]testing.InternalTest{{Name: b.Name(), F: f}})
	if !ok {
		b.Fatal("check failed")
	}
}

func BenchmarkCheckReference(b *testing.B) {
	for _, rerun := range []struct {
		name string
		n    int
	}{{"rerun-none", -1}, {"rerun-1-in-4", prop.DefaultRerun}} {
		b.Run(rerun.name, func(b *testing.B) {
			props := all()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p := props[i%len(props)]
				check := i / len(props)
				inTest(b, func(t *testing.T) {
					res := prop.Explore(t, p, prop.Config{Factory: reference.Factory, Checks: 1,
						Seed: prop.SeedOf(DefaultBaseSeed, p.ID, check), Rerun: rerunFor(rerun.n, check)})
					if !res.Passed() {
						t.Errorf("%s: %v %v", p.ID, res.Failure, res.Harness)
					}
				})
				i++
			}
		})
	}
}

// rerunFor is Rerun for the check-th check of a property under ratio n
// (the suite reruns check indices 0, n, 2n...; a replay is index 0).
func rerunFor(n, check int) int {
	if n > 0 && check%n == 0 {
		return 1
	}
	return -1
}

func BenchmarkCheckEmpty(b *testing.B) {
	empty := prop.Property{ID: "X-0/empty", Specs: []string{"X-0"},
		Draw: func(*prop.Drawer, prop.Env) scenario.Scenario {
			// The shortest run the world takes: one virtual nanosecond,
			// no jobs, no faults.
			return scenario.Scenario{Start: time.Date(2024, 6, 14, 0, 0, 0, 0, time.UTC), Duration: scenario.Duration(time.Nanosecond)}
		},
		New: func(scenario.Scenario) prop.Checker { return prop.Checks{} }}
	b.ReportAllocs()
	for b.Loop() {
		inTest(b, func(t *testing.T) {
			if res := prop.Explore(t, empty, prop.Config{Factory: reference.Factory, Checks: 1, Base: 1, Rerun: -1}); !res.Passed() {
				t.Errorf("%v %v", res.Failure, res.Harness)
			}
		})
	}
}
