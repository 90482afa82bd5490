package allocrunner

import (
	"errors"
	"fmt"

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
	ar.restored.Store(true)
	var errs []error
	if _, err := ar.allocDir.Stat(""); err != nil {
		errs = append(errs, fmt.Errorf(MsgAllocDirInaccessible, err))
	}
	if vols, err := ar.stateDB.GetAllocVolumes(ar.id); err != nil {
		errs = append(errs, fmt.Errorf(msgLoadVolumes, ar.id, err))
	} else {
		ar.csi.restore(vols)
	}
	if acked, err := ar.stateDB.GetAcknowledgedState(ar.id); err != nil {
		errs = append(errs, fmt.Errorf(msgLoadAckState, ar.id, err))
	} else {
		ar.setAcked(acked)
	}
	for _, name := range ar.taskNames {
		if err := ar.tasks[name].Restore(); err != nil {
			errs = append(errs, fmt.Errorf(msgRestoreTask, name, err))
		}
	}
	return errors.Join(errs...)
}

func (ar *allocRunner) setAcked(s *structs.AllocState) {
	ar.stateMu.Lock()
	defer ar.stateMu.Unlock()
	ar.acked = s.Copy()
}

// persistAlloc writes the alloc entry; failures are logged (STATE-2).
func (ar *allocRunner) persistAlloc(a *structs.Allocation) {
	if err := ar.stateDB.PutAllocation(a); err != nil {
		ar.logger.Error("failed to persist alloc", "error", fmt.Errorf(msgPersistAlloc, ar.id, err))
	}
}

// PersistState implements interfaces.AllocRunner: it writes the computed
// alloc (STATE-2) unless the runner is destroyed. Task runners persist
// their own state.
func (ar *allocRunner) PersistState() error {
	a := ar.Alloc()
	return ar.life.unlessDestroyed(func() error {
		if err := ar.stateDB.PutAllocation(a); err != nil {
			return fmt.Errorf(msgPersistAlloc, ar.id, err)
		}
		return nil
	})
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
		ar.logger.Error("failed to persist acknowledged state", "error", fmt.Errorf(msgPersistAckState, ar.id, err))
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
		return fmt.Errorf(msgPersistAlloc, ar.id, err)
	}
	ar.push(calloc)
	return nil
}
