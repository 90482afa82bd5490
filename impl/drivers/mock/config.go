package mock

import (
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// DefaultName is the driver's name unless Config.Name says otherwise
// (Nomad's mock driver is called mock_driver).
const DefaultName = "mock_driver"

// Config configures a Driver. Clock is required; with only a Clock set it
// is a mock_driver with no faults and no observer.
type Config struct {
	// Clock is the only source of time (SPEC DET-1). Required: New
	// panics when it is nil (the production adapter passes clock.New()).
	// Only Now and AfterFunc are used.
	Clock clock.Clock
	// Name is the driver's name. Empty: DefaultName.
	Name string
	// Faults, if set, is consulted at StartTask, RecoverTask and StopTask.
	Faults Faults
	// OnEvent, if set, observes every driver call and every task exit, in
	// order. It is called with the driver's lock held: it must return
	// quickly and must not call the driver.
	OnEvent func(DriverEvent)
}

// Faults lets the simulator inject driver faults. Its answers must be a
// deterministic function of the run's seed and history. Embed NoFaults to
// implement only some methods.
type Faults interface {
	// StartTask is consulted once per StartTask whose config decoded.
	StartTask(cfg *drivers.TaskConfig) StartFault
	// RecoverTask is consulted first in each RecoverTask; a non-nil
	// error fails it.
	RecoverTask(handle *drivers.TaskHandle) error
	// StopTask is consulted first in each StopTask.
	StopTask(taskID string, timeout time.Duration, signal string) StopFault
}

// StartFault is what a fault does to one StartTask. The zero value does
// nothing.
type StartFault struct {
	// Delay blocks StartTask that much longer (added to start_block_for).
	Delay time.Duration
	// Err fails the start after the block, returned unchanged (wrap it
	// with drivers.NewRecoverableError to make it recoverable). It takes
	// precedence over start_error.
	Err error
	// Exit, if set, replaces the task's natural exit (run_for, exit_*).
	Exit *PlannedExit
}

// PlannedExit is a task exiting by itself After its start with Result.
// After ≤ 0 exits at once.
type PlannedExit struct {
	After  time.Duration
	Result drivers.ExitResult
}

// StopFault is what a fault does to one StopTask. The zero value does
// nothing.
type StopFault struct {
	// Err fails the StopTask with this error before any signal is sent.
	Err error
	// Hang makes the task ignore the stop signal, so only the force kill
	// at the timeout ends it.
	Hang bool
}

// NoFaults injects nothing; embed it to override only some Faults methods.
type NoFaults struct{}

var _ Faults = NoFaults{}

// StartTask injects nothing.
func (NoFaults) StartTask(*drivers.TaskConfig) StartFault { return StartFault{} }

// RecoverTask injects nothing.
func (NoFaults) RecoverTask(*drivers.TaskHandle) error { return nil }

// StopTask injects nothing.
func (NoFaults) StopTask(string, time.Duration, string) StopFault { return StopFault{} }

// Op names a traced driver operation (drivers.Op).
type Op = drivers.Op

// Traced operations: one event per driver call, at its completion (Start,
// Recover, Wait, Signal, Destroy) or at signal delivery (Stop, whose
// completion is the task's Exit event), plus one Exit event per task exit.
const (
	OpStart   = drivers.OpStart
	OpRecover = drivers.OpRecover
	OpWait    = drivers.OpWait
	OpStop    = drivers.OpStop
	OpSignal  = drivers.OpSignal
	OpDestroy = drivers.OpDestroy
	OpExit    = drivers.OpExit
)

// DriverEvent is one traced driver operation (drivers.Event). Its content
// is a deterministic function of the calls and the clock.
type DriverEvent = drivers.Event
