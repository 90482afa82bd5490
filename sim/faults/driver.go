package faults

import (
	"time"

	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// Driver returns the mock driver's fault hook for this injector.
func (in *Injector) Driver() mock.Faults { return driverFaults{in} }

type driverFaults struct{ in *Injector }

var _ mock.Faults = driverFaults{}

// StartTask injects, independently, a start delay, a start failure and an
// exit of the started task (driver_start_delay, driver_start_failure,
// driver_exit), keyed by the task ID.
func (d driverFaults) StartTask(cfg *drivers.TaskConfig) mock.StartFault {
	var sf mock.StartFault
	key := cfg.ID
	if f, r, ok := d.in.hit(DriverStartDelay, key); ok {
		sf.Delay = upTo(r, f.Max)
		d.in.fire(DriverStartDelay, key, "delay="+sf.Delay.String())
	}
	if f, _, ok := d.in.hit(DriverStartFailure, key); ok {
		sf.Err = drivers.NewRecoverableError(ErrDriverStart, f.Recoverable)
		d.in.fire(DriverStartFailure, key, "recoverable="+boolString(f.Recoverable))
	}
	if f, r, ok := d.in.hit(DriverExit, key); ok {
		after := upTo(r, f.Max)
		code, sig, detail := exitResult(r)
		sf.Exit = &mock.PlannedExit{After: after, Result: drivers.ExitResult{ExitCode: code, Signal: sig}}
		d.in.fire(DriverExit, key, "after="+after.String()+" "+detail)
	}
	return sf
}

// RecoverTask fails with ErrDriverRecover (driver_recover_failure).
func (d driverFaults) RecoverTask(h *drivers.TaskHandle) error {
	if _, _, ok := d.in.hit(DriverRecoverFailure, h.TaskID); ok {
		d.in.fire(DriverRecoverFailure, h.TaskID, "error="+ErrDriverRecover.Error())
		return ErrDriverRecover
	}
	return nil
}

// StopTask fails the stop before any signal is sent
// (driver_stop_failure), or makes the task ignore its stop signal
// (driver_stop_hang).
func (d driverFaults) StopTask(taskID string, timeout time.Duration, _ string) mock.StopFault {
	if _, _, ok := d.in.hit(DriverStopFailure, taskID); ok {
		d.in.fire(DriverStopFailure, taskID, "error="+ErrDriverStop.Error())
		return mock.StopFault{Err: ErrDriverStop}
	}
	if _, _, ok := d.in.hit(DriverStopHang, taskID); ok {
		d.in.fire(DriverStopHang, taskID, "hang until="+timeout.String())
		return mock.StopFault{Hang: true}
	}
	return mock.StopFault{}
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
