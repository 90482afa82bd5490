package drivers

import "time"

// DefaultStopSignal is the signal of a StopTask without one: the DATA-4
// KillSignal default (contract step 3).
const DefaultStopSignal = "SIGINT"

// Op names a traced driver operation.
type Op string

// The operations every driver traces: one per Driver call, named after
// the method, and one Exit per task exit. Which calls a driver traces
// (failures too, or successes only) is its own; it may add operations
// of its own (raw_exec's ForceKill).
const (
	OpStart   Op = "StartTask"
	OpRecover Op = "RecoverTask"
	OpWait    Op = "WaitTask"
	OpStop    Op = "StopTask"
	OpSignal  Op = "SignalTask"
	OpDestroy Op = "DestroyTask"
	OpExit    Op = "Exit"
)

// Event is one traced driver operation, as a driver's OnEvent observer
// sees it. Its content is a deterministic function of the calls, the
// tasks' outcomes and the driver's clock.
type Event struct {
	Op     Op
	TaskID string
	// At is the driver clock's instant of the event.
	At time.Time
	// Detail is a stable key=value description (outcome, pid, signal,
	// error, exit result).
	Detail string
}
