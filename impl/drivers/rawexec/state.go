package rawexec

import (
	"fmt"

	"github.com/allocsim/allocsim/plugins/drivers"
)

// handleVersion is the TaskHandle.Version this driver writes and reads.
const handleVersion = 1

// driverState is TaskHandle.DriverState, as JSON.
type driverState struct {
	// PID of the task's main process.
	PID int `json:"pid"`
	// PGID of its process group (the driver starts each task as the
	// leader of its own group, so PGID = PID).
	PGID int `json:"pgid"`
	// StartedAt is the start instant on the driver's clock, Unix ns.
	StartedAt int64 `json:"started_at"`
	// Command is the resolved program path that was executed.
	Command string `json:"command"`
	// ProcStart is the process's start time in clock ticks since boot
	// (/proc/<pid>/stat field 22), so recovery can tell a reused pid from
	// the task's process; 0 if it could not be read.
	ProcStart uint64 `json:"proc_start,omitempty"`
}

// encodeHandle builds the handle a task runner persists.
func encodeHandle(taskID string, st *driverState) (*drivers.TaskHandle, error) {
	return drivers.EncodeHandle(Name, handleVersion, taskID, st)
}

// decodeHandle checks a handle is this driver's and decodes its state.
func decodeHandle(h *drivers.TaskHandle) (*driverState, error) {
	var st driverState
	if err := drivers.DecodeHandle(h, Name, handleVersion, &st); err != nil {
		return nil, err
	}
	if st.PID <= 0 || st.PGID <= 0 {
		return nil, fmt.Errorf("driver state has no valid pid and pgid (%d, %d)", st.PID, st.PGID)
	}
	return &st, nil
}
