package apiconv

import (
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// Allocation is the full alloc the agent serves (API-5): api.Allocation
// whose TaskStates carry Paused. The embedded api.Allocation is complete on
// its own (its TaskStates are filled too, without Paused), for callers that
// want the plain API type.
type Allocation struct {
	api.Allocation
	TaskStates map[string]*TaskState `json:"TaskStates"`
}

// AllocationListStub is the stub the agent serves (API-5): every DATA-5
// field but Job, plus Name, CreateTime and ModifyTime. It is
// api.AllocationListStub with TaskStates carrying Paused, plus the two
// DATA-5 fields Nomad's stub lacks: AllocModifyIndex and NetworkStatus.
type AllocationListStub struct {
	api.AllocationListStub
	TaskStates       map[string]*TaskState   `json:"TaskStates"`
	AllocModifyIndex uint64                  `json:"AllocModifyIndex"`
	NetworkStatus    *api.AllocNetworkStatus `json:"NetworkStatus"`
}

// AllocToAPI converts a domain alloc, job included, to its wire form.
func AllocToAPI(a *structs.Allocation) *Allocation {
	if a == nil {
		return nil
	}
	wire, plain := taskStatesToAPI(a.TaskStates)
	return &Allocation{
		Allocation: api.Allocation{
			ID:                a.ID,
			Namespace:         a.Namespace,
			Name:              a.Name,
			NodeID:            a.NodeID,
			JobID:             a.JobID,
			Job:               JobToAPI(a.Job),
			TaskGroup:         a.TaskGroup,
			DesiredStatus:     a.DesiredStatus,
			ClientStatus:      a.ClientStatus,
			ClientDescription: a.ClientDescription,
			TaskStates:        plain,
			DeploymentStatus:  deploymentToAPI(a.DeploymentStatus),
			NetworkStatus:     networkToAPI(a.NetworkStatus),
			CreateIndex:       a.CreateIndex,
			ModifyIndex:       a.ModifyIndex,
			AllocModifyIndex:  a.AllocModifyIndex,
			CreateTime:        a.CreateTime,
			ModifyTime:        a.ModifyTime,
		},
		TaskStates: wire,
	}
}

// Domain converts the wire form back to a domain alloc, Paused included.
func (a *Allocation) Domain() *structs.Allocation {
	if a == nil {
		return nil
	}
	out := AllocFromAPI(&a.Allocation)
	out.TaskStates = taskStatesFromWire(a.TaskStates)
	return out
}

// AllocFromAPI converts an API alloc (as the official Go client decodes
// it) to a domain alloc; task states have Paused "".
func AllocFromAPI(a *api.Allocation) *structs.Allocation {
	if a == nil {
		return nil
	}
	return &structs.Allocation{
		ID:                a.ID,
		Name:              a.Name,
		NodeID:            a.NodeID,
		Namespace:         a.Namespace,
		JobID:             a.JobID,
		Job:               JobFromAPI(a.Job),
		TaskGroup:         a.TaskGroup,
		DesiredStatus:     a.DesiredStatus,
		ClientStatus:      a.ClientStatus,
		ClientDescription: a.ClientDescription,
		TaskStates:        taskStatesFromAPI(a.TaskStates),
		DeploymentStatus:  deploymentFromAPI(a.DeploymentStatus),
		NetworkStatus:     networkFromAPI(a.NetworkStatus),
		CreateIndex:       a.CreateIndex,
		ModifyIndex:       a.ModifyIndex,
		AllocModifyIndex:  a.AllocModifyIndex,
		CreateTime:        a.CreateTime,
		ModifyTime:        a.ModifyTime,
	}
}

// StubToAPI converts a domain alloc to its wire stub; the job is left out
// but for JobType.
func StubToAPI(a *structs.Allocation) *AllocationListStub {
	if a == nil {
		return nil
	}
	wire, plain := taskStatesToAPI(a.TaskStates)
	out := &AllocationListStub{
		AllocationListStub: api.AllocationListStub{
			ID:                a.ID,
			Name:              a.Name,
			Namespace:         a.Namespace,
			NodeID:            a.NodeID,
			JobID:             a.JobID,
			TaskGroup:         a.TaskGroup,
			DesiredStatus:     a.DesiredStatus,
			ClientStatus:      a.ClientStatus,
			ClientDescription: a.ClientDescription,
			TaskStates:        plain,
			DeploymentStatus:  deploymentToAPI(a.DeploymentStatus),
			CreateIndex:       a.CreateIndex,
			ModifyIndex:       a.ModifyIndex,
			CreateTime:        a.CreateTime,
			ModifyTime:        a.ModifyTime,
		},
		TaskStates:       wire,
		AllocModifyIndex: a.AllocModifyIndex,
		NetworkStatus:    networkToAPI(a.NetworkStatus),
	}
	if a.Job != nil {
		out.JobType = a.Job.Type
	}
	return out
}

// Domain converts the wire stub back to a domain alloc without a Job.
func (s *AllocationListStub) Domain() *structs.Allocation {
	if s == nil {
		return nil
	}
	out := StubFromAPI(&s.AllocationListStub)
	out.TaskStates = taskStatesFromWire(s.TaskStates)
	out.AllocModifyIndex = s.AllocModifyIndex
	out.NetworkStatus = networkFromAPI(s.NetworkStatus)
	return out
}

// StubFromAPI converts an API stub (as the official Go client decodes it)
// to a domain alloc without Job, AllocModifyIndex or NetworkStatus, which
// Nomad's stub does not carry.
func StubFromAPI(s *api.AllocationListStub) *structs.Allocation {
	if s == nil {
		return nil
	}
	return &structs.Allocation{
		ID:                s.ID,
		Name:              s.Name,
		NodeID:            s.NodeID,
		Namespace:         s.Namespace,
		JobID:             s.JobID,
		TaskGroup:         s.TaskGroup,
		DesiredStatus:     s.DesiredStatus,
		ClientStatus:      s.ClientStatus,
		ClientDescription: s.ClientDescription,
		TaskStates:        taskStatesFromAPI(s.TaskStates),
		DeploymentStatus:  deploymentFromAPI(s.DeploymentStatus),
		CreateIndex:       s.CreateIndex,
		ModifyIndex:       s.ModifyIndex,
		CreateTime:        s.CreateTime,
		ModifyTime:        s.ModifyTime,
	}
}

func deploymentToAPI(d *structs.AllocDeploymentStatus) *api.AllocDeploymentStatus {
	if d == nil {
		return nil
	}
	return &api.AllocDeploymentStatus{
		Healthy: clonePtr(d.Healthy), Timestamp: d.Timestamp, Canary: d.Canary, ModifyIndex: d.ModifyIndex,
	}
}

func deploymentFromAPI(d *api.AllocDeploymentStatus) *structs.AllocDeploymentStatus {
	if d == nil {
		return nil
	}
	return &structs.AllocDeploymentStatus{
		Healthy: clonePtr(d.Healthy), Timestamp: d.Timestamp, Canary: d.Canary, ModifyIndex: d.ModifyIndex,
	}
}

func networkToAPI(n *structs.AllocNetworkStatus) *api.AllocNetworkStatus {
	if n == nil {
		return nil
	}
	return &api.AllocNetworkStatus{InterfaceName: n.InterfaceName, Address: n.Address}
}

// networkFromAPI drops AddressIPv6 and DNS, which the domain does not model.
func networkFromAPI(n *api.AllocNetworkStatus) *structs.AllocNetworkStatus {
	if n == nil {
		return nil
	}
	return &structs.AllocNetworkStatus{InterfaceName: n.InterfaceName, Address: n.Address}
}
