package faults

// Errors the injected faults return. They are plain messages so that task
// events carrying them are stable (DATA-8 Driver Failure).
const (
	MsgDriverStartFailure   = "simulated driver start failure"
	MsgDriverRecoverFailure = "simulated driver recover failure"
	MsgStateDBWriteFailure  = "simulated state DB write failure"
	MsgRPCFailure           = "simulated rpc failure"
	MsgCSIMountFailure      = "simulated CSI mount failure"

	fmtUnknownClass = "unknown fault class %q"
	fmtBadParam     = "fault %s: bad %s=%q: %w"
	fmtUnknownParam = "fault %s: unknown parameter %q"
	fmtMissingParam = "fault %s: missing %s"
	fmtBadToken     = "fault %s: %q is not key=value"
	fmtBadLine      = "fault plan line %d: %w"
)
