package allocrunner

// Exact SPEC messages (AR-1, AR-4, PAUSE-2, STATE-3, API-6). Format verbs
// are substituted where the error is made; tests compare the results
// verbatim.
const (
	// MsgTaskNotFound answers Signal, SetTaskPauseState and
	// GetTaskPauseState for a task the alloc does not have (PAUSE-2, API-6).
	MsgTaskNotFound = "Task not found"
	// MsgTaskRunnerNotFound answers RestartTask for an unknown task (AR-1);
	// %s is the task name.
	MsgTaskRunnerNotFound = "Could not find task runner for task: %s"
	// MsgRestartShouldNotRun refuses a restart of an alloc that should not
	// run (AR-1).
	MsgRestartShouldNotRun = "restart of an alloc that should not run"
	// MsgPrerunFailed is the prerun abort (AR-4); %q is the hook name, %w
	// its error.
	MsgPrerunFailed = "pre-run hook %q failed: %w"
	// MsgSetupFailed is the DisplayMessage of the Setup Failure every task
	// gets when prerun fails (AR-4); %v is the prerun error.
	MsgSetupFailed = "failed to setup alloc: %v"
	// MsgAllocDirInaccessible fails Restore when the alloc dir is missing
	// (STATE-3 step 4); %w is the stat error.
	MsgAllocDirInaccessible = "allocation directory is inaccessible: %w"
	// MsgSignalTaskFailed is one item of a signal-all failure (API-6); %s
	// is the task name, %w the error.
	MsgSignalTaskFailed = "Failed to signal task: %s, err: %w"
)

// Package-own messages where SPEC is silent (lower-case, wrapped).
const (
	msgNilConfig         = "alloc runner config is nil"
	msgConfigMissing     = "alloc runner config has no %s"
	msgNoTaskGroup       = "alloc %s has no task group %q in its job"
	msgNewTaskRunner     = "failed to build task runner %q: %w"
	msgRestoreTask       = "failed to restore task %q: %w"
	msgLoadAckState      = "failed to load acknowledged state of alloc %s: %w"
	msgLoadVolumes       = "failed to load CSI volume stubs of alloc %s: %w"
	msgPersistAlloc      = "failed to persist alloc %s: %w"
	msgPersistAckState   = "failed to persist acknowledged state of alloc %s: %w"
	msgPostrunFailed     = "post-run hook %q failed: %w"
	msgDestroyHookFailed = "destroy hook %q failed: %w"
	msgUpdateHookFailed  = "update hook %q failed: %w"
	msgRestartTask       = "failed to restart task %q: %w"
	msgNoCSIManager      = "no CSI manager to mount volume %q"
	msgCSIMount          = "failed to mount CSI volume %q: %w"
	msgCSINoMountPoint   = "CSI volume %q mounted without a mount point"
	msgCSIUnmount        = "failed to unmount CSI volume %q: %w"
)
