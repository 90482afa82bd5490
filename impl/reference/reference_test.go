package reference_test

import (
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/shoenig/test/must"
)

// TestFactoriesNameBothHalves: a built-in factory sets its name, its
// client and its alloc runner; nothing is left for a nil to mean.
func TestFactoriesNameBothHalves(t *testing.T) {
	for _, f := range []interfaces.Factory{reference.Factory, reference.Minimal, reference.WithAllocRunner("x", reference.Factory.NewAllocRunner)} {
		must.NotEq(t, "", f.Name)
		must.NotNil(t, f.NewClient, must.Sprintf("%s: NewClient", f.Name))
		must.NotNil(t, f.NewAllocRunner, must.Sprintf("%s: NewAllocRunner", f.Name))
	}
	must.Eq(t, "reference", reference.Factory.Name)
	must.Eq(t, "minimal", reference.Minimal.Name)
	must.Eq(t, "x", reference.WithAllocRunner("x", nil).Name)
}
