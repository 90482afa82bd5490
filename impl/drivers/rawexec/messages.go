package rawexec

// Messages of this package, in one place so that tests compare them verbatim.
const (
	msgClosed      = "raw_exec driver closed"
	msgNoTaskID    = "task config has no ID"
	msgNilHandle   = "nil task handle"
	msgMissing     = "missing required string"
	msgEmpty       = "empty string"
	msgExitUnknown = "exit status unknown: the task was recovered, not started, by this driver"
	msgUnsupported = "the raw_exec driver runs on linux only"

	fmtConfigKey      = "invalid raw_exec config key %q: %w"
	fmtWantString     = "want a string, got %T"
	fmtWantStringList = "want a list of strings, got %T"
	fmtWantListElem   = "element %d: want a string, got %T"
	fmtLookPath       = "look up command %q in PATH %q: %w"
	fmtOpenLog        = "open log file: %w"
	fmtStartProcess   = "start process %q: %w"
	fmtStart          = "start task %q: %w"
	fmtRecover        = "recover task %q: %w"
	fmtWait           = "wait task %q: %w"
	fmtStop           = "stop task %q: %w"
	fmtSignal         = "signal task %q: %w"
	fmtDestroy        = "destroy task %q: %w"
	fmtSignalGroup    = "send %s to process group %d: %w"
	fmtBadPID         = "driver state has no valid pid and pgid (%d, %d)"
	fmtProcessGone    = "process %d is not running"
	fmtProcessReused  = "process %d is another process (start time %d, want %d)"
	fmtProbe          = "probe process %d: %w"
	fmtProcStatName   = "parse /proc/%d/stat: no command name"
	fmtProcStatFields = "parse /proc/%d/stat: %d fields"
	fmtProcStatStart  = "parse /proc/%d/stat start time: %w"
)
