package taskrunner

import (
	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/internal/defect"
)

// hookResources returns the alloc's hook resources as the volumes hook
// reads them: the Config's one object (HOOKRES-1). The hookres-late-
// handoff mutant reads the task runner's own field instead, which stays
// nil until the alloc runner hands the object over (SetHookResources) and
// is read and written without synchronisation, as Nomad 1.5.2's task
// runners received theirs (HOOKRES-4, #16623).
func (tr *TaskRunner) hookResources() *hookres.HookResources {
	if tr.cfg.Defects.Has(defect.HookresLateHandoff) {
		return tr.lateResources // mutant: unsynchronised, nil before the handoff
	}
	return tr.cfg.HookResources
}

// SetHookResources is the hookres-late-handoff mutant's setter: the alloc
// runner calls it once the CSI hook ran. It deliberately takes no lock
// (the data race of #16623); the reference task runner never needs it.
func (tr *TaskRunner) SetHookResources(h *hookres.HookResources) {
	tr.lateResources = h
}
