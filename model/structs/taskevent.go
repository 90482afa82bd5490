package structs

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"
)

// Task event types (DATA-8).
const (
	TaskReceived            = "Received"
	TaskStarted             = "Started"
	TaskSetup               = "Task Setup"
	TaskTerminated          = "Terminated"
	TaskRestarting          = "Restarting"
	TaskNotRestarting       = "Not Restarting"
	TaskKilling             = "Killing"
	TaskKilled              = "Killed"
	TaskSignaling           = "Signaling"
	TaskRestartSignal       = "Restart Signaled"
	TaskSetupFailure        = "Setup Failure"
	TaskDriverFailure       = "Driver Failure"
	TaskFailedValidation    = "Failed Validation"
	TaskSiblingFailed       = "Sibling Task Failed"
	TaskLeaderDead          = "Leader Task Dead"
	TaskMainDead            = "Main Tasks Dead"
	TaskClientReconnected   = "Reconnected"
	TaskPausing             = "Pausing"
	TaskRunning             = "Running"
	TaskRestoreFailed       = "Failed Restoring Task"
	TaskHookFailed          = "Task hook failed"
	TaskHookMessage         = "Task hook message"
	TaskDriverMessage       = "Driver"
	TaskDownloadingArtifact = "Downloading Artifacts"
	TaskArtifactDownloadErr = "Failed Artifact Download"
	TaskDiskExceeded        = "Disk Resources Exceeded"
	TaskPluginUnhealthy     = "Plugin became unhealthy"
	TaskPluginHealthy       = "Plugin became healthy"
	TaskWaitingShuttingDown = "Waiting for shutdown delay"
	TaskSkippingShutdown    = "Skipping shutdown delay"
)

// Fixed messages of DATA-8, AR-7 and PAUSE-4.
const (
	MsgTaskSetupBuildingDir   = "Building Task Directory"
	MsgRestoreFailed          = "failed to restore task; will not run until server is contacted"
	ReasonWithinPolicy        = "Restart within policy"
	DisplayPausingSchedule    = "Pausing due to schedule"
	DisplayPausingOverride    = "Pausing due to override"
	DisplayRunningSchedule    = "Running due to schedule"
	DisplayRunningOverride    = "Running due to override"
	DisplaySignalingGeneric   = "Task being sent a signal"
	displayNotRestartingDeflt = "Task exceeded restart policy"
)

// Fixed texts of HOOKRES-3 and AR-5's `Task hook failed` Message.
const (
	// FmtNoCSIMount is the volumes prestart error for a CSI volume the
	// task mounts that has no mount point (HOOKRES-3), %s the alias.
	FmtNoCSIMount = "No CSI Mount Point found for volume: %s"
	// FmtHookFailedMessage is `Task hook failed`'s Message: hook name,
	// error.
	FmtHookFailedMessage = "%s: %v"
	// FmtHookPanic is the error of a prestart hook that panicked, %v the
	// panic value (a runner that recovers hook panics reports them so;
	// HOOKRES-4 requires none).
	FmtHookPanic = "panic: %v"
)

// FmtSignalTaskFailed is a failure in a signal of every task (API-6).
const FmtSignalTaskFailed = "Failed to signal task: %s, err: %w"

// SplitHookFailed splits a `Task hook failed` Message
// (FmtHookFailedMessage) into the hook's name and its error.
func SplitHookFailed(message string) (hook, err string, ok bool) {
	return strings.Cut(message, ": ")
}

// MissingCSIMount returns the alias of a FmtNoCSIMount error
// (HOOKRES-3).
func MissingCSIMount(err string) (alias string, ok bool) {
	return strings.CutPrefix(err, strings.TrimSuffix(FmtNoCSIMount, "%s"))
}

// IsHookPanic reports whether err is a panicking hook's (FmtHookPanic).
func IsHookPanic(err string) bool {
	return strings.HasPrefix(err, strings.TrimSuffix(FmtHookPanic, "%v"))
}

// TaskEvent is DATA-7. Time is Unix nanoseconds from the injected clock.
type TaskEvent struct {
	Type             string            `json:"Type"`
	Time             int64             `json:"Time"`
	Message          string            `json:"Message"`
	DisplayMessage   string            `json:"DisplayMessage"`
	Details          map[string]string `json:"Details"`
	FailsTask        bool              `json:"FailsTask"`
	RestartReason    string            `json:"RestartReason"`
	SetupError       string            `json:"SetupError"`
	DriverError      string            `json:"DriverError"`
	ExitCode         int               `json:"ExitCode"`
	Signal           int               `json:"Signal"`
	KillReason       string            `json:"KillReason"`
	KillTimeout      time.Duration     `json:"KillTimeout"`
	KillError        string            `json:"KillError"`
	StartDelay       int64             `json:"StartDelay"`
	FailedSibling    string            `json:"FailedSibling"`
	TaskSignal       string            `json:"TaskSignal"`
	TaskSignalReason string            `json:"TaskSignalReason"`
	ValidationError  string            `json:"ValidationError"`
}

// NewTaskEvent returns an event of type typ at instant at.
func NewTaskEvent(typ string, at time.Time) *TaskEvent {
	return &TaskEvent{Type: typ, Time: at.UnixNano(), Details: map[string]string{}}
}

func (e *TaskEvent) detail(k, v string) *TaskEvent {
	if e.Details == nil {
		e.Details = map[string]string{}
	}
	e.Details[k] = v
	return e
}

// Setters fill the field and its Details entry (DATA-7); each returns e.

func (e *TaskEvent) SetMessage(m string) *TaskEvent { e.Message = m; return e.detail("message", m) }
func (e *TaskEvent) SetDisplayMessage(m string) *TaskEvent {
	e.DisplayMessage = m
	return e
}
func (e *TaskEvent) SetFailsTask() *TaskEvent {
	e.FailsTask = true
	return e.detail("fails_task", "true")
}
func (e *TaskEvent) SetRestartReason(r string) *TaskEvent {
	e.RestartReason = r
	return e.detail("restart_reason", r)
}
func (e *TaskEvent) SetSetupError(err error) *TaskEvent {
	if err == nil {
		return e
	}
	e.SetupError = err.Error()
	return e.detail("setup_error", e.SetupError)
}
func (e *TaskEvent) SetDriverError(err error) *TaskEvent {
	if err == nil {
		return e
	}
	e.DriverError = err.Error()
	return e.detail("driver_error", e.DriverError)
}
func (e *TaskEvent) SetExitCode(c int) *TaskEvent {
	e.ExitCode = c
	return e.detail("exit_code", strconv.Itoa(c))
}
func (e *TaskEvent) SetSignal(s int) *TaskEvent {
	e.Signal = s
	return e.detail("signal", strconv.Itoa(s))
}

// SetSignalText records a signal name in Details only (PAUSE-11), leaving
// TaskSignal empty so the DisplayMessage stays generic.
func (e *TaskEvent) SetSignalText(sig string) *TaskEvent { return e.detail("signal", sig) }
func (e *TaskEvent) SetExitMessage(err error) *TaskEvent {
	if err == nil {
		return e
	}
	e.Message = err.Error()
	return e.detail("exit_message", e.Message)
}
func (e *TaskEvent) SetOOMKilled(oom bool) *TaskEvent {
	return e.detail("oom_killed", strconv.FormatBool(oom))
}
func (e *TaskEvent) SetKillTimeout(d time.Duration) *TaskEvent {
	e.KillTimeout = d
	return e.detail("kill_timeout", d.String())
}
func (e *TaskEvent) SetKillReason(r string) *TaskEvent {
	e.KillReason = r
	return e.detail("kill_reason", r)
}
func (e *TaskEvent) SetKillError(err error) *TaskEvent {
	if err == nil {
		return e
	}
	e.KillError = err.Error()
	return e.detail("kill_error", e.KillError)
}
func (e *TaskEvent) SetStartDelay(d time.Duration) *TaskEvent {
	e.StartDelay = int64(d)
	return e.detail("start_delay", strconv.FormatInt(int64(d), 10))
}
func (e *TaskEvent) SetFailedSibling(name string) *TaskEvent {
	e.FailedSibling = name
	return e.detail("failed_sibling", name)
}
func (e *TaskEvent) SetTaskSignal(sig string) *TaskEvent {
	e.TaskSignal = sig
	return e.detail("task_signal", sig)
}
func (e *TaskEvent) SetTaskSignalReason(r string) *TaskEvent {
	e.TaskSignalReason = r
	return e.detail("task_signal_reason", r)
}
func (e *TaskEvent) SetValidationError(err error) *TaskEvent {
	if err == nil {
		return e
	}
	e.ValidationError = err.Error()
	return e.detail("validation_error", e.ValidationError)
}

// Copy returns a deep copy.
func (e *TaskEvent) Copy() *TaskEvent {
	if e == nil {
		return nil
	}
	out := new(TaskEvent)
	e.copyTo(out)
	return out
}

// copyTo makes *out a deep copy of e.
func (e *TaskEvent) copyTo(out *TaskEvent) {
	*out = *e
	// maps.Clone copies the map's table as it is (nil stays nil), a
	// fraction of the cost of inserting every entry anew.
	out.Details = maps.Clone(e.Details)
}

// PopulateDisplayMessage keeps an explicit DisplayMessage and otherwise
// derives it from the event's type and fields (DATA-8).
func (e *TaskEvent) PopulateDisplayMessage() {
	if e.DisplayMessage != "" {
		return
	}
	e.DisplayMessage = e.derivedDisplayMessage()
}

func orElse(v, dflt string) string {
	if v != "" {
		return v
	}
	return dflt
}

func (e *TaskEvent) derivedDisplayMessage() string {
	switch e.Type {
	case TaskReceived:
		return "Task received by client"
	case TaskStarted:
		return "Task started by client"
	case TaskTerminated:
		s := fmt.Sprintf("Exit Code: %d", e.ExitCode)
		if e.Signal != 0 {
			s += fmt.Sprintf(", Signal: %d", e.Signal)
		}
		if e.Message != "" {
			s += fmt.Sprintf(", Exit Message: %q", e.Message)
		}
		return s
	case TaskRestarting:
		s := fmt.Sprintf("Task restarting in %v", time.Duration(e.StartDelay))
		if e.RestartReason != "" && e.RestartReason != ReasonWithinPolicy {
			s = e.RestartReason + " - " + s
		}
		return s
	case TaskNotRestarting:
		return orElse(e.RestartReason, displayNotRestartingDeflt)
	case TaskKilling:
		if e.KillReason != "" {
			return e.KillReason
		}
		if e.KillTimeout != 0 {
			return fmt.Sprintf("Sent interrupt. Waiting %v before force killing", e.KillTimeout)
		}
		return "Sent interrupt"
	case TaskKilled:
		return orElse(e.KillError, "Task successfully killed")
	case TaskSignaling:
		switch {
		case e.TaskSignal == "" && e.TaskSignalReason == "":
			return DisplaySignalingGeneric
		case e.TaskSignalReason == "":
			return "Task being sent signal " + e.TaskSignal
		case e.TaskSignal == "":
			return e.TaskSignalReason
		default:
			return fmt.Sprintf("Task being sent signal %s: %s", e.TaskSignal, e.TaskSignalReason)
		}
	case TaskRestartSignal:
		return orElse(e.RestartReason, "Task signaled to restart")
	case TaskSetupFailure:
		return orElse(e.SetupError, "Task setup failed")
	case TaskDriverFailure:
		return orElse(e.DriverError, "Failed to start task")
	case TaskFailedValidation:
		return orElse(e.ValidationError, "Validation of task failed")
	case TaskSiblingFailed:
		return fmt.Sprintf("Task's sibling %q failed", e.FailedSibling)
	case TaskLeaderDead:
		return "Leader Task in Group dead"
	case TaskMainDead:
		return "Main tasks in the group died"
	case TaskClientReconnected:
		return "Client reconnected"
	case TaskRestoreFailed:
		return MsgRestoreFailed
	default:
		// Task Setup, Task hook failed, Task hook message, Pausing/Running
		// without an explicit DisplayMessage, and the valid-but-unused types.
		return e.Message
	}
}
