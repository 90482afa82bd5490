package drivers

import "bytes"

// TaskHandle is what a task runner persists after a driver start (SPEC
// STATE-1 local_state.TaskHandle) and hands back to RecoverTask after a
// client restart (STATE-4). DriverState is opaque to everyone but the
// driver that wrote it.
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
