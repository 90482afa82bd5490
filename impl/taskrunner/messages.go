package taskrunner

import (
	"errors"

	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/structs"
)

// Hook names (AR-5), in the order the hooks run.
const (
	hookNameValidate = "validate"
	hookNameTaskDir  = "task_dir"
	hookNameVolumes  = "volumes"
	hookNamePause    = pause.HookName
)

// Exact SPEC messages and the formats of this package's errors.
const (
	// MsgTaskNotRunning is PAUSE-11's error for a task with no live handle.
	MsgTaskNotRunning = "Task not running"

	// fmtPrestartFailed is AR-5's recoverable start error.
	fmtPrestartFailed = "prestart hook %q failed: %w"
	// fmtHookFailedMessage is the Message of AR-5's `Task hook failed`.
	fmtHookFailedMessage = structs.FmtHookFailedMessage
	// fmtNoCSIMount is HOOKRES-3's volumes prestart error.
	fmtNoCSIMount = structs.FmtNoCSIMount
	// fmtHookPanic is a panicking prestart hook's error.
	fmtHookPanic = structs.FmtHookPanic

	fmtPersistHookState = "failed to persist local state of hook %q: %w"
	fmtRestoreState     = "failed to read the state of task %q: %w"
	fmtBuildTaskDir     = "failed to build the task directory of %q: %w"
	fmtEnsureSecrets    = "failed to ensure the secrets directory of %q: %w"
	fmtNilConfig        = "task runner config has no %s"
	fmtNoTaskGroup      = "alloc %q has no task group %q"

	msgValidateNoName   = "task has no name"
	fmtValidateNoDriver = "task %q has no driver"
	fmtValidateTimeout  = "task %q has a negative kill timeout %v"
	msgWaitEnded        = "driver wait ended without an exit result"
)

// Keys of the task_dir hook's Data and the environment it contributes.
const (
	taskDirDataDone = "is_done"
	envAllocDir     = "NOMAD_ALLOC_DIR"
	envTaskDir      = "NOMAD_TASK_DIR"
	envSecretsDir   = "NOMAD_SECRETS_DIR"
)

// ErrTaskNotRunning is returned by Signal and Restart when the task has no
// live driver handle (PAUSE-11).
var ErrTaskNotRunning = errors.New(MsgTaskNotRunning)

// errWaitEnded is the exit error of a wait that ended without a result
// (the driver forgot the task).
var errWaitEnded = errors.New(msgWaitEnded)
