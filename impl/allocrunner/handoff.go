package allocrunner

import (
	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/internal/defect"
)

// The two #16623 mutants (HOOKRES-4) share Nomad 1.5.2's restore path: a
// restored alloc's task runners run while its prerun hooks run, so a
// restored prestart races the CSI hook. The reference runs every prerun
// hook before any task runner starts (AR-4) and needs none of this.
const restoreRacesPrerun = defect.HookresRMW | defect.HookresLateHandoff

// launchRestoredEarly starts a restored CSI alloc's task runners, start
// gates open, before the prerun hooks: the mutants' restore path.
func (ar *allocRunner) launchRestoredEarly() {
	if !ar.defects.Has(restoreRacesPrerun) || !ar.restored.Load() || !ar.hasCSIVolumes() || !ar.shouldRun() || !ar.life.launchEarly() {
		return
	}
	ar.launchedEarly = true
	ar.gates.enable()
	ar.updateGates(ar.taskStates())
	for _, name := range ar.taskNames {
		ar.tasks[name].Start()
	}
}

// handOffHookResources is the hookres-late-handoff mutant's handoff: once
// the prerun hooks (the CSI hook among them) ran, each task runner gets
// the hook resources through its unsynchronised setter: before the task
// runners are launched, or, on the restore path where they already run,
// once the launch is done (its last step, after the state push, so that
// nothing the alloc runner does after the write orders it before a task
// runner's read: the race detector then sees the race whenever the write
// and a read share an instant).
func (ar *allocRunner) handOffHookResources() {
	if !ar.defects.Has(defect.HookresLateHandoff) {
		return
	}
	for _, name := range ar.taskNames {
		if s, ok := ar.tasks[name].(interface{ SetHookResources(*hookres.HookResources) }); ok {
			s.SetHookResources(ar.hookResources)
		}
	}
}

// launchEarly decides the launch before the setup (the #16623 mutants):
// the task runners count as launched, so Shutdown and Destroy wait for
// them; false once a shutdown was asked for.
func (l *lifecycle) launchEarly() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shutdownLaunched {
		return false
	}
	l.closeLaunchLocked(true)
	return true
}

// hasCSIVolumes reports whether the alloc's group has a CSI volume.
func (ar *allocRunner) hasCSIVolumes() bool {
	reqs, _ := ar.csi.volumes()
	return len(reqs) > 0
}
