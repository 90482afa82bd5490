package pause

import (
	"testing"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// TestMutantsCaught: each target mutant fails its property with the
// default 12 checks from base seed 1.
func TestMutantsCaught(t *testing.T) {
	cases := map[string]string{
		"pause-counts-restarts": "PAUSE-6/no-attempt-consumed",
		"pause-killing-event":   "PAUSE-5/stop-at-window-end",
	}
	for name, id := range cases {
		m, ok := mutants.Lookup(name)
		if !ok {
			t.Fatalf("no mutant %s", name)
		}
		for _, p := range Properties() {
			if p.ID != id {
				continue
			}
			t.Run(name+"/"+p.ID, func(t *testing.T) {
				res := prop.Explore(t, p, prop.Config{Factory: m.Factory, Checks: 12, Base: 1})
				if res.Harness != nil {
					t.Fatalf("harness: %v", res.Harness)
				}
				if res.Failure == nil {
					t.Fatalf("%s not caught by %s", name, p.ID)
				}
				t.Logf("caught at check %d: %s", res.Failure.Check, res.Failure.Violation())
			})
		}
	}
}
