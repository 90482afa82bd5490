package syncpolicy

import (
	"fmt"

	"github.com/allocsim/allocsim/model/structs"
)

// Priority is an update's urgency against the last acknowledged state
// (SYNC-2). Values are ordered: None < Typical < Urgent.
type Priority int

// Priorities of SYNC-2, with their numeric values fixed by the SPEC.
const (
	None    Priority = 0
	Typical Priority = 1
	Urgent  Priority = 2
)

// String returns "none", "typical" or "urgent".
func (p Priority) String() string {
	switch p {
	case None:
		return "none"
	case Typical:
		return "typical"
	case Urgent:
		return "urgent"
	default:
		return fmt.Sprintf("priority(%d)", int(p))
	}
}

// clientView is the part of an update that SYNC-2 compares; it lets
// UpdatePriority and StatePriority share one rule without copying.
type clientView struct {
	status     string
	desc       string
	taskStates map[string]*structs.TaskState
	deployment *structs.AllocDeploymentStatus
	network    *structs.AllocNetworkStatus
}

// UpdatePriority is SYNC-2 for an alloc update (usually the stripped alloc
// of SYNC-1) against the runner's acknowledged state, nil when nothing was
// acknowledged yet:
//
//  1. none acknowledged: Urgent if ClientStatus is failed, else Typical;
//  2. ClientStatus differs: Urgent;
//  3. ClientDescription, DeploymentStatus, NetworkStatus or TaskStates
//     (DATA-6 equality) differ: Typical;
//  4. else None.
//
// A nil update has nothing to send: None.
func UpdatePriority(update *structs.Allocation, acked *structs.AllocState) Priority {
	if update == nil {
		return None
	}
	return priority(clientView{
		status:     update.ClientStatus,
		desc:       update.ClientDescription,
		taskStates: update.TaskStates,
		deployment: update.DeploymentStatus,
		network:    update.NetworkStatus,
	}, acked)
}

// StatePriority is UpdatePriority for an update already reduced to its
// client-computed fields (AR-1 AllocState). A nil update is None.
func StatePriority(update, acked *structs.AllocState) Priority {
	if update == nil {
		return None
	}
	return priority(clientView{
		status:     update.ClientStatus,
		desc:       update.ClientDescription,
		taskStates: update.TaskStates,
		deployment: update.DeploymentStatus,
		network:    update.NetworkStatus,
	}, acked)
}

func priority(u clientView, acked *structs.AllocState) Priority {
	switch {
	case acked == nil && u.status == structs.AllocClientStatusFailed:
		return Urgent
	case acked == nil:
		return Typical
	case u.status != acked.ClientStatus:
		return Urgent
	case u.desc != acked.ClientDescription,
		!u.deployment.Equal(acked.DeploymentStatus),
		!u.network.Equal(acked.NetworkStatus),
		!structs.TaskStatesEqual(u.taskStates, acked.TaskStates):
		return Typical
	default:
		return None
	}
}
