package concurrent

import (
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// statePort is a state DB whose calls the watch counts.
type statePort struct {
	w  *watch
	db interfaces.StateDB
}

var _ interfaces.StateDB = statePort{}

func (p statePort) Name() string { return p.db.Name() }

func (p statePort) PutAllocation(a *structs.Allocation) error {
	defer p.w.enter("StateDB PutAllocation")()
	return p.db.PutAllocation(a)
}

func (p statePort) GetAllAllocations() ([]*structs.Allocation, map[string]error, error) {
	defer p.w.enter("StateDB GetAllAllocations")()
	return p.db.GetAllAllocations()
}

func (p statePort) PutAcknowledgedState(id string, s *structs.AllocState) error {
	defer p.w.enter("StateDB PutAcknowledgedState")()
	return p.db.PutAcknowledgedState(id, s)
}

func (p statePort) GetAcknowledgedState(id string) (*structs.AllocState, error) {
	defer p.w.enter("StateDB GetAcknowledgedState")()
	return p.db.GetAcknowledgedState(id)
}

func (p statePort) PutDeploymentStatus(id string, ds *structs.AllocDeploymentStatus) error {
	defer p.w.enter("StateDB PutDeploymentStatus")()
	return p.db.PutDeploymentStatus(id, ds)
}

func (p statePort) GetDeploymentStatus(id string) (*structs.AllocDeploymentStatus, error) {
	defer p.w.enter("StateDB GetDeploymentStatus")()
	return p.db.GetDeploymentStatus(id)
}

func (p statePort) PutNetworkStatus(id string, ns *structs.AllocNetworkStatus) error {
	defer p.w.enter("StateDB PutNetworkStatus")()
	return p.db.PutNetworkStatus(id, ns)
}

func (p statePort) GetNetworkStatus(id string) (*structs.AllocNetworkStatus, error) {
	defer p.w.enter("StateDB GetNetworkStatus")()
	return p.db.GetNetworkStatus(id)
}

func (p statePort) PutAllocVolumes(id string, v *interfaces.AllocVolumes) error {
	defer p.w.enter("StateDB PutAllocVolumes")()
	return p.db.PutAllocVolumes(id, v)
}

func (p statePort) GetAllocVolumes(id string) (*interfaces.AllocVolumes, error) {
	defer p.w.enter("StateDB GetAllocVolumes")()
	return p.db.GetAllocVolumes(id)
}

func (p statePort) PutTaskRunnerLocalState(id, task string, ls *interfaces.LocalState) error {
	defer p.w.enter("StateDB PutTaskRunnerLocalState")()
	return p.db.PutTaskRunnerLocalState(id, task, ls)
}

func (p statePort) PutTaskState(id, task string, ts *structs.TaskState) error {
	defer p.w.enter("StateDB PutTaskState")()
	return p.db.PutTaskState(id, task, ts)
}

func (p statePort) GetTaskRunnerState(id, task string) (*interfaces.LocalState, *structs.TaskState, error) {
	defer p.w.enter("StateDB GetTaskRunnerState")()
	return p.db.GetTaskRunnerState(id, task)
}

func (p statePort) DeleteTaskBucket(id, task string) error {
	defer p.w.enter("StateDB DeleteTaskBucket")()
	return p.db.DeleteTaskBucket(id, task)
}

func (p statePort) DeleteAllocationBucket(id string) error {
	defer p.w.enter("StateDB DeleteAllocationBucket")()
	return p.db.DeleteAllocationBucket(id)
}

func (p statePort) Close() error {
	defer p.w.enter("StateDB Close")()
	return p.db.Close()
}
