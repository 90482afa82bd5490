package allocrunner

import (
	"context"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/telemetry"
)

// migrateDiskHook moves the previous alloc's data into this alloc's dir
// (AR-4). A nil migrator makes it a no-op.
type migrateDiskHook struct {
	migrator interfaces.PrevAllocMigrator
	dest     interfaces.AllocDir
}

var _ interfaces.RunnerPrerunHook = (*migrateDiskHook)(nil)

func (h *migrateDiskHook) Name() string { return telemetry.HookMigrateDisk }

func (h *migrateDiskHook) Prerun(ctx context.Context) error {
	if h.migrator == nil {
		return nil
	}
	return h.migrator.Migrate(ctx, h.dest)
}
