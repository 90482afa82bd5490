package allocrunner

import (
	"context"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/telemetry"
)

// allocDirHook builds the alloc dir before the tasks (prerun) and removes
// it in Destroy (AR-4, ADIR-3). Build is idempotent, so a restored alloc
// rebuilds safely.
type allocDirHook struct {
	dir interfaces.AllocDir
}

var (
	_ interfaces.RunnerPrerunHook  = (*allocDirHook)(nil)
	_ interfaces.RunnerDestroyHook = (*allocDirHook)(nil)
)

func (h *allocDirHook) Name() string { return telemetry.HookAllocDir }

func (h *allocDirHook) Prerun(context.Context) error { return h.dir.Build() }

func (h *allocDirHook) Destroy() error { return h.dir.Destroy() }
