package drivers

import (
	"context"
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
