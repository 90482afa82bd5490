package drivers

// Messages of this package, in one place so that tests compare them verbatim.
const (
	msgTaskNotFound   = "task not found"
	msgTaskRunning    = "task is still running"
	msgTaskExists     = "task already started"
	msgTaskExited     = "task has exited"
	msgDriverNotFound = "driver not found"

	fmtDispense      = "dispense driver %q: %w"
	fmtUnknownSignal = "unknown signal %q"
	fmtEncodeState   = "encode driver state: %w"
	fmtWrongDriver   = "handle of driver %q, want %q"
	fmtBadVersion    = "unsupported handle version %d, want %d"
	fmtDecodeState   = "decode driver state: %w"
)
