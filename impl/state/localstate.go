package state

import (
	"bytes"
	"maps"

	"github.com/allocsim/allocsim/impl/drivers"
)

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
