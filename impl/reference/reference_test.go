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

func TestFactoryOf(t *testing.T) {
	ar := reference.Factory.NewAllocRunner
	plain := func(cfg *interfaces.Config) (interfaces.AllocRunner, error) { return ar(cfg) }
	nameless := reference.Factory
	nameless.Name = ""
	for _, tt := range []struct {
		v        any
		wantName string
		wantErr  string
	}{
		{reference.Factory, "reference", ""},
		{&nameless, "x", ""},
		{func() interfaces.Factory { return reference.Minimal }, "minimal", ""},
		{ar, "x", ""},
		{plain, "x", ""},
		{(*interfaces.Factory)(nil), "", "nil *interfaces.Factory"},
		{interfaces.Factory{Name: "half"}, "", "leaves NewClient or NewAllocRunner nil"},
		{interfaces.AllocRunnerFactory(nil), "", "leaves NewClient or NewAllocRunner nil"},
		{42, "", "factory has type int"},
		{nil, "", "factory has type <nil>"},
	} {
		f, err := reference.FactoryOf("x", tt.v)
		if tt.wantErr != "" {
			must.ErrorContains(t, err, tt.wantErr)
			continue
		}
		must.NoError(t, err)
		must.Eq(t, tt.wantName, f.Name)
	}
}
