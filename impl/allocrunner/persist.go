package allocrunner

import (
	"errors"
	"fmt"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// Restore implements interfaces.AllocRunner (STATE-3 step 4), before Run:
//
//  1. the alloc dir must exist: `allocation directory is inaccessible: <err>`;
//  2. the csi_hook adopts the persisted CSI stubs (alloc_volume), so that
//     prerun re-mounts from them (STATE-4);
//  3. the acknowledged state is loaded (SYNC-2);
//  4. each task runner restores, in name order.
//
// Every step runs even if an earlier one failed, so that a Destroy after
// a failed restore still finds (and kills) the recovered tasks; the errors
// are joined in step order.
func (ar *allocRunner) Restore() error {
	var errs []error
	if _, err := ar.allocDir.Stat(""); err != nil {
		errs = append(errs, fmt.Errorf(MsgAllocDirInaccessible, err))
	}
	if vols, err := ar.stateDB.GetAllocVolumes(ar.id); err != nil {
		errs = append(errs, fmt.Errorf("failed to load CSI volume stubs of alloc %s: %w", ar.id, err))
	} else {
		ar.csi.restore(vols)
	}
	if acked, err := ar.stateDB.GetAcknowledgedState(ar.id); err != nil {
		errs = append(errs, fmt.Errorf("failed to load acknowledged state of alloc %s: %w", ar.id, err))
	} else {
		ar.setAcked(acked)
	}
	for _, name := range ar.taskNames {
		if err := ar.tasks[name].Restore(); err != nil {
			errs = append(errs, fmt.Errorf("failed to restore task %q: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// setAcked keeps s, the runner's own (interfaces.AllocRunner's
// AcknowledgeState): nothing changes it afterwards.
func (ar *allocRunner) setAcked(s *structs.AllocState) {
	ar.stateMu.Lock()
	defer ar.stateMu.Unlock()
	ar.acked = s
}

// persistAlloc writes the alloc entry; failures are logged (STATE-2).
func (ar *allocRunner) persistAlloc(a *structs.Allocation) {
	if err := ar.stateDB.PutAllocation(a); err != nil {
		ar.logger.Error("failed to persist alloc", "error", fmt.Errorf("failed to persist alloc %s: %w", ar.id, err))
	}
}

// PersistState implements interfaces.AllocRunner: it writes the computed
// alloc (STATE-2) unless the runner is destroyed. Task runners persist
// their own state.
func (ar *allocRunner) PersistState() error { return ar.PersistStateTo(ar.stateDB) }

// PersistStateTo is PersistState through db, a handle on the runner's
// state DB: the client's snapshot passes the handle of its batch
// (state.DB.Batch), so that one snapshot of every alloc is one unit.
func (ar *allocRunner) PersistStateTo(db interfaces.StateDB) error {
	a, unchanged := ar.persistedAlloc()
	return ar.life.unlessDestroyed(func() error {
		put := db.PutAllocation
		if db, ok := db.(builtAllocPutter); ok {
			put = db.PutFrozenAllocation
			if unchanged {
				put = db.PutUnchangedAllocation
			}
		}
		if err := put(a); err != nil {
			return fmt.Errorf("failed to persist alloc %s: %w", ar.id, err)
		}
		return nil
	})
}

// builtAllocPutter is a state DB (impl/state.DB) that stores again,
// without looking at it, an alloc the caller put last and did not change
// since (PutUnchangedAllocation), and keeps, instead of decoding its own
// bytes, an alloc the caller will never change (PutFrozenAllocation):
// the runner's built allocs are both. Any other state DB gets
// PutAllocation.
type builtAllocPutter interface {
	PutUnchangedAllocation(alloc *structs.Allocation) error
	PutFrozenAllocation(alloc *structs.Allocation) error
}

// builtAlloc is a computed alloc with what it was computed from: the
// server alloc (replaced, never mutated), the SetClientStatus override
// and every task's TaskStateVersion, in task name order. The computed
// alloc is a function of these (clientState; a terminal alloc's
// FinishedAt stamps were taken when it was built and are kept), so while
// none of them moved, computing it again would give the same alloc.
type builtAlloc struct {
	server   *structs.Allocation
	override string
	versions []uint64
	alloc    *structs.Allocation
}

// persistedAlloc returns the computed alloc for PersistState: the one it
// built last (unchanged true) if nothing that alloc depends on moved
// since, else a new one. A 60 s snapshot (STATE-2) of an alloc that did
// not change thus copies nothing, and hands the state DB the very alloc
// it put last, which the DB writes again without encoding or comparing
// it. That alloc is the runner's own: it goes only to the state DB,
// which does not change it.
func (ar *allocRunner) persistedAlloc() (a *structs.Allocation, unchanged bool) {
	ar.persistMu.Lock()
	defer ar.persistMu.Unlock()
	// What the alloc depends on is read before it is built: a change
	// landing in between is in the alloc but not in what is remembered,
	// so the next call builds again.
	server := ar.serverAlloc()
	ar.stateMu.Lock()
	override := ar.statusOverride
	ar.stateMu.Unlock()
	p := &ar.persisted
	same := p.alloc != nil && p.server == server && p.override == override && len(p.versions) == len(ar.taskNames)
	for i, name := range ar.taskNames {
		if !same {
			break
		}
		same = ar.tasks[name].TaskStateVersion() == p.versions[i]
	}
	if same {
		return p.alloc, true
	}
	versions := make([]uint64, len(ar.taskNames))
	for i, name := range ar.taskNames {
		versions[i] = ar.tasks[name].TaskStateVersion()
	}
	a = ar.clientAlloc(ar.taskStates()) // never changed: the task runners' published states
	*p = builtAlloc{server: server, override: override, versions: versions, alloc: a}
	return a, false
}

// AcknowledgeState implements interfaces.AllocRunner: it stores s as the
// state the server acknowledged and persists it (STATE-2; a write error
// is logged).
func (ar *allocRunner) AcknowledgeState(s *structs.AllocState) {
	ar.setAcked(s)
	err := ar.life.unlessDestroyed(func() error {
		return ar.stateDB.PutAcknowledgedState(ar.id, s)
	})
	if err != nil {
		ar.logger.Error("failed to persist acknowledged state", "error", fmt.Errorf("failed to persist acknowledged state of alloc %s: %w", ar.id, err))
	}
}

// GetUpdatePriority implements interfaces.AllocRunner: SYNC-2 against the
// acknowledged state (model/syncpolicy).
func (ar *allocRunner) GetUpdatePriority(alloc *structs.Allocation) syncpolicy.Priority {
	ar.stateMu.Lock()
	defer ar.stateMu.Unlock()
	return syncpolicy.UpdatePriority(alloc, ar.acked)
}

// Reconnect implements interfaces.AllocRunner (AR-1): Reconnected to every
// task (name order), the server's indexes copied, the computed alloc
// persisted through the state updater and pushed.
func (ar *allocRunner) Reconnect(update *structs.Allocation) error {
	ev := structs.NewTaskEvent(structs.TaskClientReconnected, ar.clock.Now())
	for _, name := range ar.taskNames {
		ar.tasks[name].AppendEvent(ev.Copy())
	}
	if update != nil {
		ar.allocMu.Lock()
		a := ar.alloc.CopySkipJob() // shares the immutable job
		a.CreateIndex, a.ModifyIndex, a.AllocModifyIndex = update.CreateIndex, update.ModifyIndex, update.AllocModifyIndex
		ar.alloc = a
		ar.allocMu.Unlock()
	}
	calloc := ar.Alloc()
	if err := ar.stateUpdater.PutAllocation(calloc); err != nil {
		return fmt.Errorf("failed to persist alloc %s: %w", ar.id, err)
	}
	ar.push(calloc)
	return nil
}
