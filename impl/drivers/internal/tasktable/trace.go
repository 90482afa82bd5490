package tasktable

import (
	"fmt"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// Tracer hands a driver's events to its observer. The zero OnEvent
// traces nothing (and reads no clock).
type Tracer struct {
	// Clock stamps each event (SPEC DET-1).
	Clock clock.Clock
	// OnEvent, if set, observes each event, called with the driver's
	// lock held.
	OnEvent func(drivers.Event)
}

// Emit traces one event at the clock's instant.
func (tr Tracer) Emit(op drivers.Op, taskID, detail string) {
	if tr.OnEvent != nil {
		tr.OnEvent(drivers.Event{Op: op, TaskID: taskID, At: tr.Clock.Now(), Detail: detail})
	}
}

// ExitDetail is the Detail of an Exit event: exit_code and signal, then
// oom_killed=true and err=<quoted message> when set.
func ExitDetail(r *drivers.ExitResult) string {
	detail := fmt.Sprintf("exit_code=%d signal=%d", r.ExitCode, r.Signal)
	if r.OOMKilled {
		detail += " oom_killed=true"
	}
	if r.Err != nil {
		detail += fmt.Sprintf(" err=%q", r.Err.Error())
	}
	return detail
}
