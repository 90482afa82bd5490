package interfaces

import (
	"bytes"
	"maps"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// StateDB is the client state DB of SPEC §10. Every method is safe for
// concurrent use. The bucket layout and error values are those of impl/state.
// A Put changes nothing of the value it is given, nor keeps it to change
// later: the caller may go on reading it, or hand it to readers, as its
// own (a task runner publishes the very task state it wrote).
type StateDB interface {
	// Name identifies the implementation in logs ("boltdb", "memdb").
	Name() string

	// PutAllocation stores the alloc under its ID (STATE-2 `alloc`).
	PutAllocation(alloc *structs.Allocation) error
	// GetAllAllocations returns every decodable alloc sorted by ID (DET-2);
	// undecodable ones are skipped and reported per alloc ID in the map,
	// which is never nil. The error is for a failure of the whole read.
	GetAllAllocations() ([]*structs.Allocation, map[string]error, error)

	PutAcknowledgedState(allocID string, s *structs.AllocState) error
	GetAcknowledgedState(allocID string) (*structs.AllocState, error)
	PutDeploymentStatus(allocID string, ds *structs.AllocDeploymentStatus) error
	GetDeploymentStatus(allocID string) (*structs.AllocDeploymentStatus, error)
	PutNetworkStatus(allocID string, ns *structs.AllocNetworkStatus) error
	GetNetworkStatus(allocID string) (*structs.AllocNetworkStatus, error)
	// PutAllocVolumes stores the CSI stubs that let csi_hook re-mount on
	// restore without the server (STATE-1 `alloc_volume`, HOOKRES-2).
	PutAllocVolumes(allocID string, v *AllocVolumes) error
	GetAllocVolumes(allocID string) (*AllocVolumes, error)

	// PutTaskRunnerLocalState stores a task runner's local state.
	PutTaskRunnerLocalState(allocID, taskName string, ls *LocalState) error
	// PutTaskState stores a task's state (with Paused).
	PutTaskState(allocID, taskName string, ts *structs.TaskState) error
	// GetTaskRunnerState reads a task's local state and task state in one
	// consistent read; either is nil when missing.
	GetTaskRunnerState(allocID, taskName string) (*LocalState, *structs.TaskState, error)
	// DeleteTaskBucket deletes one task's bucket.
	DeleteTaskBucket(allocID, taskName string) error
	// DeleteAllocationBucket deletes an alloc and everything under it.
	DeleteAllocationBucket(allocID string) error

	// Close releases the store; later calls return ErrClosed.
	Close() error
}

// LocalState is what a task runner persists about itself (STATE-1
// `local_state`): its prestart hooks' progress, the driver network, the
// driver's task handle and whether Run finished.
type LocalState struct {
	// Hooks maps a task hook's name to its persisted state (STATE-4: Done
	// hooks are skipped on restore, others rerun with their Data).
	Hooks map[string]*HookState `json:"Hooks"`
	// DriverNetwork is the network the driver reported at start, or nil.
	DriverNetwork *DriverNetwork `json:"DriverNetwork"`
	// TaskHandle is the handle of the last driver start, for RecoverTask
	// (STATE-4), or nil.
	TaskHandle *drivers.TaskHandle `json:"TaskHandle"`
	// RunComplete is set when the task runner's Run exited (STATE-2).
	RunComplete bool `json:"RunComplete"`
}

// NewLocalState returns an empty local state with a non-nil Hooks map.
func NewLocalState() *LocalState {
	return &LocalState{Hooks: map[string]*HookState{}}
}

// Copy returns a deep copy.
func (s *LocalState) Copy() *LocalState {
	if s == nil {
		return nil
	}
	out := *s
	if s.Hooks != nil {
		out.Hooks = make(map[string]*HookState, len(s.Hooks))
		for name, h := range s.Hooks {
			out.Hooks[name] = h.Copy()
		}
	}
	out.DriverNetwork = s.DriverNetwork.Copy()
	out.TaskHandle = copyHandle(s.TaskHandle)
	return &out
}

// copyHandle deep-copies a task handle keeping an empty DriverState empty
// rather than nil (drivers.TaskHandle.Copy turns it into nil), so that a
// copy encodes exactly like the original.
func copyHandle(h *drivers.TaskHandle) *drivers.TaskHandle {
	if h == nil {
		return nil
	}
	out := *h
	out.DriverState = bytes.Clone(h.DriverState)
	return &out
}

// HookState is one task hook's persisted state.
type HookState struct {
	// PrestartDone is set once the prestart hook reported Done.
	PrestartDone bool `json:"PrestartDone"`
	// Data is the hook's own state, handed back to it when it reruns.
	Data map[string]string `json:"Data"`
	// Env is the environment the hook contributed, re-applied on restore.
	Env map[string]string `json:"Env"`
}

// Copy returns a deep copy.
func (h *HookState) Copy() *HookState {
	if h == nil {
		return nil
	}
	return &HookState{PrestartDone: h.PrestartDone, Data: maps.Clone(h.Data), Env: maps.Clone(h.Env)}
}

// Equal compares two hook states by value; a nil map equals an empty one.
// Task runners use it to persist local state only when a prestart hook's
// state changed (STATE-2).
func (h *HookState) Equal(o *HookState) bool {
	if h == nil || o == nil {
		return h == o
	}
	return h.PrestartDone == o.PrestartDone && maps.Equal(h.Data, o.Data) && maps.Equal(h.Env, o.Env)
}

// DriverNetwork is the network a driver reports for a started task.
type DriverNetwork struct {
	// PortMap maps a port label to the port inside the task's network.
	PortMap map[string]int `json:"PortMap"`
	// IP is the task's address, if the driver assigned one.
	IP string `json:"IP"`
	// AutoAdvertise asks services to advertise IP rather than the host's.
	AutoAdvertise bool `json:"AutoAdvertise"`
}

// Copy returns a deep copy.
func (n *DriverNetwork) Copy() *DriverNetwork {
	if n == nil {
		return nil
	}
	out := *n
	out.PortMap = maps.Clone(n.PortMap)
	return &out
}

// AllocVolumes is an alloc's persisted CSI state (STATE-1 `alloc_volume`):
// enough for csi_hook to re-mount every CSI volume on restore without
// asking the server (STATE-4, HOOKRES-2).
type AllocVolumes struct {
	// CSIVolumes maps a group volume alias to its stub.
	CSIVolumes map[string]*CSIVolumeStub `json:"CSIVolumes"`
}

// Copy returns a deep copy.
func (v *AllocVolumes) Copy() *AllocVolumes {
	if v == nil {
		return nil
	}
	out := &AllocVolumes{}
	if v.CSIVolumes != nil {
		out.CSIVolumes = make(map[string]*CSIVolumeStub, len(v.CSIVolumes))
		for alias, s := range v.CSIVolumes {
			out.CSIVolumes[alias] = s.Copy()
		}
	}
	return out
}

// CSIVolumeStub is what a CSI mount needs, per group volume alias.
type CSIVolumeStub struct {
	// VolumeID is the CSI volume's ID (the group VolumeRequest's Source).
	VolumeID string `json:"VolumeID"`
	// VolumeName is the group VolumeRequest's Name.
	VolumeName string `json:"VolumeName"`
	// PluginID names the CSI plugin that serves the volume.
	PluginID string `json:"PluginID"`
	// ExternalNodeID is the plugin's ID for this node.
	ExternalNodeID string `json:"ExternalNodeID"`
	// ReadOnly mounts the volume read-only.
	ReadOnly bool `json:"ReadOnly"`
	// AttachmentMode is "file-system" or "block-device".
	AttachmentMode string `json:"AttachmentMode"`
	// AccessMode is the CSI access mode, e.g. "single-node-writer".
	AccessMode string `json:"AccessMode"`
	// MountInfo is where the volume was last mounted, or nil before the
	// first mount.
	MountInfo *CSIMountPoint `json:"MountInfo"`
}

// Copy returns a deep copy.
func (s *CSIVolumeStub) Copy() *CSIVolumeStub {
	if s == nil {
		return nil
	}
	out := *s
	if s.MountInfo != nil {
		mi := *s.MountInfo
		out.MountInfo = &mi
	}
	return &out
}
