package properties_test

import (
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties"
)

// suiteRegressions are seeds at which the suite itself was wrong while it
// was built, each replayed with the verdict it must give now.
var suiteRegressions = []struct {
	property string
	runner   interfaces.Factory
	seed     uint64
	what     string
}{
	{"AR-7/restart-policy", reference.Factory, 163245319902472455,
		"a sibling failed in the instant a task was received: its start error was taken for a decision the kill pre-empted (false alarm)"},
}

func TestSuiteRegressions(t *testing.T) {
	for _, r := range suiteRegressions {
		t.Run(r.property, func(t *testing.T) {
			rep := properties.Check(r.runner, properties.WithProperty(r.property), properties.WithSeed(r.seed))
			if !rep.Conforms() {
				t.Errorf("seed %d (%s):\n%s", r.seed, r.what, rep)
			}
		})
	}
}
