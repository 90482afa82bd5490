package drivers

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// TaskHandle is what a task runner persists after a driver start (SPEC
// STATE-1 local_state.TaskHandle) and hands back to RecoverTask after a
// client restart (STATE-4). DriverState is opaque to everyone but the
// driver that wrote it; the drivers here write it as JSON with
// EncodeHandle and read it back with DecodeHandle.
type TaskHandle struct {
	// Version of the handle encoding, for the driver's own migrations.
	Version int `json:"Version"`
	// Driver is the name of the driver that started the task.
	Driver string `json:"Driver"`
	// TaskID identifies the task to the driver: "<allocID>/<taskName>".
	TaskID string `json:"TaskID"`
	// DriverState is the driver's own encoding of what it needs to recover.
	DriverState []byte `json:"DriverState"`
}

// Copy returns a deep copy.
func (h *TaskHandle) Copy() *TaskHandle {
	if h == nil {
		return nil
	}
	out := *h
	if h.DriverState != nil {
		out.DriverState = bytes.Clone(h.DriverState)
	}
	return &out
}

// EncodeHandle returns the handle of driver's task taskID at version,
// with state encoded as JSON in DriverState.
func EncodeHandle(driver string, version int, taskID string, state any) (*TaskHandle, error) {
	data, err := json.Marshal(state)
	if err != nil {
		return nil, fmt.Errorf("encode driver state: %w", err)
	}
	return &TaskHandle{Version: version, Driver: driver, TaskID: taskID, DriverState: data}, nil
}

// DecodeHandle checks that h was written by driver at version and decodes
// its DriverState (JSON) into state, a pointer. Checking what was decoded
// is the driver's job.
func DecodeHandle(h *TaskHandle, driver string, version int, state any) error {
	if h.Driver != driver {
		return fmt.Errorf("handle of driver %q, want %q", h.Driver, driver)
	}
	if h.Version != version {
		return fmt.Errorf("unsupported handle version %d, want %d", h.Version, version)
	}
	if err := json.Unmarshal(h.DriverState, state); err != nil {
		return fmt.Errorf("decode driver state: %w", err)
	}
	return nil
}
