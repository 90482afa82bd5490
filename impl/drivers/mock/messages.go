package mock

// Messages of this package, in one place so that tests compare them verbatim.
const (
	msgClosed           = "mock driver closed"
	msgNoTaskID         = "task config has no ID"
	msgNilHandle        = "nil task handle"
	msgSignalKillListed = "SIGKILL cannot be trapped or ignored"

	fmtConfigKey     = "invalid mock driver config key %q: %w"
	fmtBothLists     = "exit_on_signals and ignore_signals both list %s"
	fmtBadDuration   = "invalid duration %q"
	fmtNegDuration   = "negative duration %s"
	fmtWantDuration  = "want a duration string or integer nanoseconds, got %T"
	fmtBadInteger    = "invalid integer %q"
	fmtNotInteger    = "not an integer: %v"
	fmtWantInteger   = "want an integer, got %T"
	fmtBadBool       = "invalid boolean %q"
	fmtWantBool      = "want a boolean, got %T"
	fmtWantString    = "want a string, got %T"
	fmtWantList      = "want a list of signal names, got %T"
	fmtNegSignal     = "negative signal %d"
	fmtStart         = "start task %q: %w"
	fmtRecover       = "recover task %q: %w"
	fmtWait          = "wait task %q: %w"
	fmtStop          = "stop task %q: %w"
	fmtSignal        = "signal task %q: %w"
	fmtDestroy       = "destroy task %q: %w"
	fmtStateMismatch = "driver state is for task %q"
	fmtStateNotRun   = "driver state %q, want %q"
)
