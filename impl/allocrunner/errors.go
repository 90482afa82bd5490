package allocrunner

// Exact SPEC messages; format verbs are substituted where the error is
// made, and tests compare the results verbatim.
const (
	MsgTaskNotFound         = "Task not found"                           // PAUSE-2, API-6: an unknown task
	MsgTaskRunnerNotFound   = "Could not find task runner for task: %s"  // AR-1: RestartTask, the task name
	MsgRestartShouldNotRun  = "restart of an alloc that should not run"  // AR-1
	MsgPrerunFailed         = "pre-run hook %q failed: %w"               // AR-4: the hook's name and error
	MsgSetupFailed          = "failed to setup alloc: %v"                // AR-4: Setup Failure's DisplayMessage
	MsgAllocDirInaccessible = "allocation directory is inaccessible: %w" // STATE-3 step 4: Restore
)
