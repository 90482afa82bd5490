package taskrunner

import (
	"context"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/structs"
)

// pauseHook is the `pause` task hook (AR-5): its update adopts a changed
// schedule (PAUSE-7) and its stop ends tracking. The gate itself sits in
// the run loop (pause_gate.go); the hook has no prestart.
type pauseHook struct {
	gate *pauseGate
	task string
}

var (
	_ interfaces.TaskUpdateHook = (*pauseHook)(nil)
	_ interfaces.TaskStopHook   = (*pauseHook)(nil)
)

func (*pauseHook) Name() string { return pause.HookName }

// Update hands the gate the task's schedule in the new alloc.
func (h *pauseHook) Update(_ context.Context, alloc *structs.Allocation) error {
	t := alloc.LookupTaskGroup().LookupTask(h.task)
	if t == nil {
		return nil
	}
	h.gate.scheduleChanged(t.Schedule)
	return nil
}

// Stop ends tracking for good (idempotent).
func (h *pauseHook) Stop(context.Context) error {
	h.gate.finish()
	return nil
}
