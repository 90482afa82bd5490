package drivers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Driver starts, waits on, signals, stops, destroys and recovers tasks. The
// numbered contract is in the package doc. Implementations are safe for
// concurrent use and read time only from an injected clock (SPEC DET-1).
type Driver interface {
	// Name is the driver's name as tasks spell it (DATA-4 Task.Driver).
	Name() string
	// Capabilities describes what the driver supports.
	Capabilities() *Capabilities
	// StartTask starts cfg's task and returns the handle to persist.
	StartTask(cfg *TaskConfig) (*TaskHandle, error)
	// WaitTask returns a channel that receives the task's exit result.
	WaitTask(ctx context.Context, taskID string) (<-chan *ExitResult, error)
	// StopTask sends signal, force-kills after timeout and returns once
	// the task has exited.
	StopTask(taskID string, timeout time.Duration, signal string) error
	// DestroyTask forgets a task, killing it first if force.
	DestroyTask(taskID string, force bool) error
	// SignalTask delivers signal to a running task.
	SignalTask(taskID string, signal string) error
	// RecoverTask re-attaches to the task of a persisted handle.
	RecoverTask(handle *TaskHandle) error
}

// FSIsolation is how a driver isolates a task's file system.
type FSIsolation string

// File system isolation kinds.
const (
	FSIsolationNone   FSIsolation = "none"
	FSIsolationChroot FSIsolation = "chroot"
	FSIsolationImage  FSIsolation = "image"
)

// Capabilities describes what a driver supports.
type Capabilities struct {
	// SendSignals: SignalTask delivers signals.
	SendSignals bool
	// Exec: commands can be executed inside a task (not used here).
	Exec bool
	// FSIsolation of the task's file system.
	FSIsolation FSIsolation
}

// TaskConfig is what a task runner hands StartTask.
type TaskConfig struct {
	// ID identifies the task to the driver: "<allocID>/<taskName>".
	ID string `json:"ID"`
	// AllocID of the task's allocation.
	AllocID string `json:"AllocID"`
	// Name of the task.
	Name string `json:"Name"`
	// Namespace, JobName and TaskGroupName locate the task's job.
	Namespace     string `json:"Namespace"`
	JobName       string `json:"JobName"`
	TaskGroupName string `json:"TaskGroupName"`
	// Driver is the driver the task asked for (DATA-4 Task.Driver).
	Driver string `json:"Driver"`
	// Config is the task's driver Config, as decoded from the job.
	Config map[string]any `json:"Config"`
	// Env is the task's environment.
	Env map[string]string `json:"Env"`
	// TaskDir is the task's directory in the alloc dir, if any.
	TaskDir string `json:"TaskDir"`
}

// TaskID returns the driver task ID of a task: "<allocID>/<taskName>".
func TaskID(allocID, taskName string) string { return allocID + "/" + taskName }

// Copy returns a deep copy (Config values of JSON shape are copied deeply).
func (c *TaskConfig) Copy() *TaskConfig {
	if c == nil {
		return nil
	}
	out := *c
	if c.Config != nil {
		out.Config = copyValue(c.Config).(map[string]any)
	}
	if c.Env != nil {
		out.Env = make(map[string]string, len(c.Env))
		for k, v := range c.Env {
			out.Env[k] = v
		}
	}
	return &out
}

// copyValue deep-copies the container shapes decoded JSON and HCL produce;
// anything else is returned as is.
func copyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = copyValue(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = copyValue(e)
		}
		return out
	case []string:
		return append([]string(nil), v...)
	case map[string]string:
		out := make(map[string]string, len(v))
		for k, e := range v {
			out[k] = e
		}
		return out
	default:
		return v
	}
}

// DriverManager hands out drivers by name (SPEC AR-2).
type DriverManager interface {
	// Dispense returns the driver called name, or an error wrapping
	// ErrDriverNotFound.
	Dispense(name string) (Driver, error)
}

// ExitResult is how a task ended, as WaitTask reports it.
type ExitResult struct {
	// ExitCode of the task's process.
	ExitCode int
	// Signal that killed it, 0 if none.
	Signal int
	// OOMKilled is true when the task was killed for exceeding its memory.
	OOMKilled bool
	// Err is a driver-side error about the exit (DATA-7 exit_message).
	Err error
}

// Successful reports a successful exit (SPEC AR-7): code 0, signal 0, no
// error.
func (r *ExitResult) Successful() bool {
	return r != nil && r.ExitCode == 0 && r.Signal == 0 && r.Err == nil
}

// Copy returns a copy (Err is shared: errors are immutable values).
func (r *ExitResult) Copy() *ExitResult {
	if r == nil {
		return nil
	}
	out := *r
	return &out
}

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

// Sentinel errors a driver wraps (with %w) so callers can test them with
// errors.Is.
var (
	// ErrTaskNotFound: the driver does not know the task ID.
	ErrTaskNotFound = errors.New("task not found")
	// ErrTaskRunning: DestroyTask without force on a task still running.
	ErrTaskRunning = errors.New("task is still running")
	// ErrTaskExists: StartTask of an ID whose task is still running.
	ErrTaskExists = errors.New("task already started")
	// ErrTaskExited: SignalTask to a task that has exited.
	ErrTaskExited = errors.New("task has exited")
	// ErrDriverNotFound: a DriverManager has no driver of that name.
	ErrDriverNotFound = errors.New("driver not found")
)

// RecoverableError marks a start error as recoverable or not (SPEC AR-7
// rule 5). Its message is the wrapped error's, unchanged, so task events
// carry the driver's own text (DATA-8 `Driver Failure`).
type RecoverableError struct {
	Err         error
	Recoverable bool
}

// NewRecoverableError wraps err, marking it recoverable or not. A nil err
// stays nil.
func NewRecoverableError(err error, recoverable bool) error {
	if err == nil {
		return nil
	}
	return &RecoverableError{Err: err, Recoverable: recoverable}
}

// Error returns the wrapped error's message.
func (e *RecoverableError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *RecoverableError) Unwrap() error { return e.Err }

// IsRecoverable reports whether the outermost RecoverableError in err's
// chain is marked recoverable. Errors without one are not recoverable.
func IsRecoverable(err error) bool {
	var re *RecoverableError
	return errors.As(err, &re) && re.Recoverable
}
