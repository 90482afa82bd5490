package sim

import (
	"time"

	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// liveFaults hands an incarnation's driver the world's driver faults only
// while the incarnation is live. A crashed client's shutdown still calls
// its driver until Crash closes it, unheld and racing the world (its calls
// are no longer held at the gate), so consulting the injector then would
// trace a fault, or not, depending on goroutine order (DET-4); a dying
// client gets no faults instead.
type liveFaults struct {
	inc  *incarnation
	next mock.Faults
}

var _ mock.Faults = liveFaults{}

func (f liveFaults) StartTask(cfg *drivers.TaskConfig) mock.StartFault {
	if !f.inc.live() {
		return mock.StartFault{}
	}
	return f.next.StartTask(cfg)
}

func (f liveFaults) RecoverTask(h *drivers.TaskHandle) error {
	if !f.inc.live() {
		return nil
	}
	return f.next.RecoverTask(h)
}

func (f liveFaults) StopTask(taskID string, timeout time.Duration, signal string) mock.StopFault {
	if !f.inc.live() {
		return mock.StopFault{}
	}
	return f.next.StopTask(taskID, timeout, signal)
}
