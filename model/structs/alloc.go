package structs

import (
	"maps"
	"slices"
	"time"
)

// Desired statuses (DATA-5).
const (
	AllocDesiredStatusRun   = "run"
	AllocDesiredStatusStop  = "stop"
	AllocDesiredStatusEvict = "evict"
)

// Client statuses (DATA-5); lost and unknown are server-assigned only.
const (
	AllocClientStatusPending  = "pending"
	AllocClientStatusRunning  = "running"
	AllocClientStatusComplete = "complete"
	AllocClientStatusFailed   = "failed"
	AllocClientStatusLost     = "lost"
	AllocClientStatusUnknown  = "unknown"
)

// Allocation is DATA-5. Name, CreateTime and ModifyTime (Unix ns) are the
// server's, shown in API stubs (API-5).
type Allocation struct {
	ID                string                 `json:"ID"`
	Name              string                 `json:"Name"`
	NodeID            string                 `json:"NodeID"`
	Namespace         string                 `json:"Namespace"`
	JobID             string                 `json:"JobID"`
	Job               *Job                   `json:"Job"`
	TaskGroup         string                 `json:"TaskGroup"`
	DesiredStatus     string                 `json:"DesiredStatus"`
	ClientStatus      string                 `json:"ClientStatus"`
	ClientDescription string                 `json:"ClientDescription"`
	TaskStates        map[string]*TaskState  `json:"TaskStates"`
	DeploymentStatus  *AllocDeploymentStatus `json:"DeploymentStatus"`
	NetworkStatus     *AllocNetworkStatus    `json:"NetworkStatus"`
	CreateIndex       uint64                 `json:"CreateIndex"`
	ModifyIndex       uint64                 `json:"ModifyIndex"`
	AllocModifyIndex  uint64                 `json:"AllocModifyIndex"`
	CreateTime        int64                  `json:"CreateTime"`
	ModifyTime        int64                  `json:"ModifyTime"`
}

// AllocDeploymentStatus is the client-reported deployment health.
type AllocDeploymentStatus struct {
	Healthy     *bool     `json:"Healthy"`
	Timestamp   time.Time `json:"Timestamp"`
	Canary      bool      `json:"Canary"`
	ModifyIndex uint64    `json:"ModifyIndex"`
}

// AllocNetworkStatus is the client-reported network status.
type AllocNetworkStatus struct {
	InterfaceName string `json:"InterfaceName"`
	Address       string `json:"Address"`
}

// Equal compares two deployment statuses by value.
func (d *AllocDeploymentStatus) Equal(o *AllocDeploymentStatus) bool {
	if d == nil || o == nil {
		return d == o
	}
	hd := d.Healthy != nil && *d.Healthy
	ho := o.Healthy != nil && *o.Healthy
	return (d.Healthy == nil) == (o.Healthy == nil) && hd == ho &&
		d.Timestamp.Equal(o.Timestamp) && d.Canary == o.Canary && d.ModifyIndex == o.ModifyIndex
}

// Copy returns a deep copy.
func (d *AllocDeploymentStatus) Copy() *AllocDeploymentStatus {
	if d == nil {
		return nil
	}
	out := *d
	if d.Healthy != nil {
		h := *d.Healthy
		out.Healthy = &h
	}
	return &out
}

// Equal compares two network statuses by value.
func (n *AllocNetworkStatus) Equal(o *AllocNetworkStatus) bool {
	if n == nil || o == nil {
		return n == o
	}
	return *n == *o
}

// Copy returns a copy.
func (n *AllocNetworkStatus) Copy() *AllocNetworkStatus {
	if n == nil {
		return nil
	}
	out := *n
	return &out
}

// ServerTerminal reports desired stop or evict (DATA-5).
func (a *Allocation) ServerTerminal() bool {
	return a.DesiredStatus == AllocDesiredStatusStop || a.DesiredStatus == AllocDesiredStatusEvict
}

// ClientTerminal reports client status complete, failed or lost (DATA-5).
func (a *Allocation) ClientTerminal() bool { return ClientStatusTerminal(a.ClientStatus) }

// ClientStatusTerminal reports whether a client status is terminal.
func ClientStatusTerminal(s string) bool {
	return s == AllocClientStatusComplete || s == AllocClientStatusFailed || s == AllocClientStatusLost
}

// Terminal reports server- or client-terminal.
func (a *Allocation) Terminal() bool { return a.ServerTerminal() || a.ClientTerminal() }

// LookupTaskGroup returns the alloc's task group from its job, or nil.
func (a *Allocation) LookupTaskGroup() *TaskGroup {
	if a == nil || a.Job == nil {
		return nil
	}
	return a.Job.LookupTaskGroup(a.TaskGroup)
}

// Copy returns a deep copy, job included.
func (a *Allocation) Copy() *Allocation {
	if a == nil {
		return nil
	}
	out := a.CopySkipJob()
	out.Job = a.Job.Copy()
	return out
}

// CopySkipJob returns a deep copy that shares the (immutable) job.
func (a *Allocation) CopySkipJob() *Allocation {
	if a == nil {
		return nil
	}
	out := *a
	out.TaskStates = copyTaskStates(a.TaskStates)
	out.DeploymentStatus = a.DeploymentStatus.Copy()
	out.NetworkStatus = a.NetworkStatus.Copy()
	return &out
}

// Stripped is the client-to-server update of SYNC-1: ID, NodeID,
// TaskStates, ClientStatus, ClientDescription, DeploymentStatus and
// NetworkStatus, deep-copied.
func (a *Allocation) Stripped() *Allocation {
	return &Allocation{
		ID:                a.ID,
		NodeID:            a.NodeID,
		TaskStates:        copyTaskStates(a.TaskStates),
		ClientStatus:      a.ClientStatus,
		ClientDescription: a.ClientDescription,
		DeploymentStatus:  a.DeploymentStatus.Copy(),
		NetworkStatus:     a.NetworkStatus.Copy(),
	}
}

// ClientState returns the client-computed fields of an alloc.
func (a *Allocation) ClientState() *AllocState {
	return a.clientStateWith(copyTaskStates(a.TaskStates))
}

// clientStateWith is a copy of a's client-computed fields holding
// states as its task states.
func (a *Allocation) clientStateWith(states map[string]*TaskState) *AllocState {
	return &AllocState{
		ClientStatus:      a.ClientStatus,
		ClientDescription: a.ClientDescription,
		TaskStates:        states,
		DeploymentStatus:  a.DeploymentStatus.Copy(),
		NetworkStatus:     a.NetworkStatus.Copy(),
	}
}

// SharedClientState returns the client-computed fields of an alloc
// without copying them: the state shares a's task states and statuses.
// For an alloc its caller owns and hands over (a fresh copy it reads no
// further); ClientState is the copy.
func (a *Allocation) SharedClientState() *AllocState {
	return &AllocState{
		ClientStatus:      a.ClientStatus,
		ClientDescription: a.ClientDescription,
		TaskStates:        a.TaskStates,
		DeploymentStatus:  a.DeploymentStatus,
		NetworkStatus:     a.NetworkStatus,
	}
}

// AllocState is the client-computed part of an alloc (AR-1 AllocState) and
// the acknowledged state that sync priority compares against (SYNC-2).
type AllocState struct {
	ClientStatus      string                 `json:"ClientStatus"`
	ClientDescription string                 `json:"ClientDescription"`
	TaskStates        map[string]*TaskState  `json:"TaskStates"`
	DeploymentStatus  *AllocDeploymentStatus `json:"DeploymentStatus"`
	NetworkStatus     *AllocNetworkStatus    `json:"NetworkStatus"`
}

// Copy returns a deep copy.
func (s *AllocState) Copy() *AllocState {
	if s == nil {
		return nil
	}
	return &AllocState{
		ClientStatus:      s.ClientStatus,
		ClientDescription: s.ClientDescription,
		TaskStates:        copyTaskStates(s.TaskStates),
		DeploymentStatus:  s.DeploymentStatus.Copy(),
		NetworkStatus:     s.NetworkStatus.Copy(),
	}
}

func copyTaskStates(in map[string]*TaskState) map[string]*TaskState {
	if in == nil {
		return nil
	}
	out := make(map[string]*TaskState, len(in))
	for k, v := range in {
		out[k] = v.Copy()
	}
	return out
}

// SortedTaskNames returns the keys of a task state map in name order
// (DET-2).
func SortedTaskNames(states map[string]*TaskState) []string {
	return slices.Sorted(maps.Keys(states))
}
