package allocrunner

import (
	"context"
	"errors"
	"fmt"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// newHooks returns the alloc hooks in their required AR-4 order, which is
// also their order within every kind:
//
//	alloc_dir                   prerun Build, destroy Destroy
//	await_previous_allocations  prerun PrevAllocWatcher.Wait
//	migrate_disk                prerun PrevAllocMigrator.Migrate
//	csi_hook                    prerun mount (HOOKRES-2), postrun unmount
//
// The prerun-capable names equal model/telemetry.PrerunHookOrder().
func (ar *allocRunner) newHooks(csiMgr interfaces.CSIManager) []interfaces.RunnerHook {
	ar.csi = newCSIHook(ar.id, ar.serverAlloc, csiMgr, ar.hookResources, ar.stateDB, ar.logger)
	return []interfaces.RunnerHook{
		&allocDirHook{dir: ar.allocDir},
		&awaitPreviousHook{watcher: ar.prevWatcher},
		&migrateDiskHook{migrator: ar.prevMigrator, dest: ar.allocDir},
		ar.csi,
	}
}

// runPrerun runs the prerun hooks in order (AR-4). Each execution is timed
// on the injected clock and emitted once here, the one place hooks are
// instrumented (TELEM-3, TELEM-4). The first error stops the pass:
// `pre-run hook "<name>" failed: <err>`.
func (ar *allocRunner) runPrerun(ctx context.Context) error {
	for _, h := range ar.hooks {
		pre, ok := h.(interfaces.RunnerPrerunHook)
		if !ok {
			continue
		}
		start := ar.clock.Now()
		err := pre.Prerun(ctx)
		ar.prerunStats.Emit(start, pre.Name(), hookstats.HookTypePrerun, err)
		if err != nil {
			return fmt.Errorf(MsgPrerunFailed, pre.Name(), err)
		}
	}
	return nil
}

// runPostrun runs every postrun hook in order, after all task runners
// exited (AR-4); errors are aggregated and logged.
func (ar *allocRunner) runPostrun() {
	var errs []error
	for _, h := range ar.hooks {
		if post, ok := h.(interfaces.RunnerPostrunHook); ok {
			if err := post.Postrun(); err != nil {
				errs = append(errs, fmt.Errorf("post-run hook %q failed: %w", post.Name(), err))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		ar.logger.Error("postrun failed", "error", err)
	}
}

// runDestroyHooks runs every destroy hook in order; errors are aggregated
// and logged.
func (ar *allocRunner) runDestroyHooks() {
	var errs []error
	for _, h := range ar.hooks {
		if d, ok := h.(interfaces.RunnerDestroyHook); ok {
			if err := d.Destroy(); err != nil {
				errs = append(errs, fmt.Errorf("destroy hook %q failed: %w", d.Name(), err))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		ar.logger.Error("destroy hooks failed", "error", err)
	}
}

// runUpdateHooks runs every update hook in order for one server update;
// passes are serialised (AR-4). Errors are aggregated and logged.
func (ar *allocRunner) runUpdateHooks(alloc *structs.Allocation) {
	ar.updateHookSem <- struct{}{}
	defer func() { <-ar.updateHookSem }()
	var errs []error
	for _, h := range ar.hooks {
		if u, ok := h.(interfaces.RunnerUpdateHook); ok {
			if err := u.Update(alloc.Copy()); err != nil {
				errs = append(errs, fmt.Errorf("update hook %q failed: %w", u.Name(), err))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		ar.logger.Error("update hooks failed", "error", err)
	}
}

// runPreKillHooks runs every prekill hook in order.
func (ar *allocRunner) runPreKillHooks() {
	for _, h := range ar.hooks {
		if p, ok := h.(interfaces.RunnerPreKillHook); ok {
			p.PreKill()
		}
	}
}

// runShutdownHooks runs every shutdown hook in order.
func (ar *allocRunner) runShutdownHooks() {
	for _, h := range ar.hooks {
		if s, ok := h.(interfaces.ShutdownHook); ok {
			s.Shutdown()
		}
	}
}
