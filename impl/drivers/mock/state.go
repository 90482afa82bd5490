package mock

import (
	"errors"
	"fmt"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
)

// handleVersion is the TaskHandle.Version this driver writes and reads.
const handleVersion = 1

// stateRunning is the only state a handle records: it is written at start.
const stateRunning = "running"

// driverState is TaskHandle.DriverState, as JSON. Times are Unix ns on
// the driver's clock, so the encoding is byte-stable and zone-free.
type driverState struct {
	Task      *drivers.TaskConfig `json:"Task"`
	Spec      taskSpec            `json:"Spec"`
	StartedAt int64               `json:"StartedAt"`
	State     string              `json:"State"`
	// Exit is the natural exit (run_for or a fault's), nil if the task
	// runs until stopped.
	Exit *exitPlan `json:"Exit"`
}

// exitPlan is an exit After the task's start.
type exitPlan struct {
	After  time.Duration `json:"After"`
	Result exitRecord    `json:"Result"`
}

// exitRecord is an ExitResult in encodable form.
type exitRecord struct {
	ExitCode  int    `json:"ExitCode"`
	Signal    int    `json:"Signal"`
	OOMKilled bool   `json:"OOMKilled"`
	Err       string `json:"Err"`
}

func recordOf(r drivers.ExitResult) exitRecord {
	rec := exitRecord{ExitCode: r.ExitCode, Signal: r.Signal, OOMKilled: r.OOMKilled}
	if r.Err != nil {
		rec.Err = r.Err.Error()
	}
	return rec
}

func (r exitRecord) result() *drivers.ExitResult {
	out := &drivers.ExitResult{ExitCode: r.ExitCode, Signal: r.Signal, OOMKilled: r.OOMKilled}
	if r.Err != "" {
		out.Err = errors.New(r.Err)
	}
	return out
}

// encodeHandle builds the handle a task runner persists.
func encodeHandle(driver string, st *driverState) (*drivers.TaskHandle, error) {
	return drivers.EncodeHandle(driver, handleVersion, st.Task.ID, st)
}

// decodeHandle checks a handle is this driver's and decodes its state.
func decodeHandle(driver string, h *drivers.TaskHandle) (*driverState, error) {
	var st driverState
	if err := drivers.DecodeHandle(h, driver, handleVersion, &st); err != nil {
		return nil, err
	}
	if st.Task == nil || st.Task.ID != h.TaskID {
		id := ""
		if st.Task != nil {
			id = st.Task.ID
		}
		return nil, fmt.Errorf("driver state is for task %q", id)
	}
	if st.State != stateRunning {
		return nil, fmt.Errorf("driver state %q, want %q", st.State, stateRunning)
	}
	return &st, nil
}
