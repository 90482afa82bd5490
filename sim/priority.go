package sim

import (
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/trace"
)

// priorityHold hands the client a runner whose GetUpdatePriority waits
// at the world's gate (HoldPriority), so that a sync tick classifies
// across the release of other held calls: runners then push newer states
// while the tick classifies, and the client's re-classification (SYNC-3)
// runs, which serialised events never reach otherwise. Each held call is
// traced at its release, with whether a runner pushed while it was held.
// The wrapper offers only interfaces.AllocRunner's methods.
type priorityHold struct {
	interfaces.AllocRunner
	w   *World
	inc *incarnation
}

// MsgPriorityReleased is the KindWorld record of a held GetUpdatePriority
// released (Alloc: the update's; Data: {"pushed": whether a runner pushed
// a state while it was held}).
const MsgPriorityReleased = "priority_released"

func (p priorityHold) GetUpdatePriority(a *structs.Allocation) syncpolicy.Priority {
	if p.inc.live() {
		before := p.w.sync.pushes()
		p.w.hold(p.inc, "priority "+a.ID)
		pushed := p.w.sync.pushes() != before
		p.w.rec.Emit(trace.Record{At: p.w.clk.Now(), Kind: trace.KindWorld, Alloc: a.ID, Msg: MsgPriorityReleased,
			Data: trace.Encode(map[string]bool{"pushed": pushed})})
	}
	return p.AllocRunner.GetUpdatePriority(a)
}
