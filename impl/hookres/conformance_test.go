package hookres_test

import (
	"testing"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/hookres/hookrestest"
)

// TestConformance runs the hook-resource store suite on the reference
// store, as a runner's own store would be (HOOKRES-1, HOOKRES-2,
// HOOKRES-4).
func TestConformance(t *testing.T) {
	hookrestest.Run(t, hookres.New)
}

// TestZeroValueConformance: the zero value is ready to use (package doc).
func TestZeroValueConformance(t *testing.T) {
	hookrestest.Run(t, func() *hookres.HookResources { return new(hookres.HookResources) })
}
