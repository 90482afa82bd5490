package allocrunner

import (
	"context"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/telemetry"
)

// awaitPreviousHook waits for the alloc this one replaces to finish
// (AR-4). A nil watcher (no previous alloc) makes it a no-op.
type awaitPreviousHook struct {
	watcher interfaces.PrevAllocWatcher
}

var _ interfaces.RunnerPrerunHook = (*awaitPreviousHook)(nil)

func (h *awaitPreviousHook) Name() string { return telemetry.HookAwaitPrevAllocs }

func (h *awaitPreviousHook) Prerun(ctx context.Context) error {
	if h.watcher == nil {
		return nil
	}
	return h.watcher.Wait(ctx)
}
