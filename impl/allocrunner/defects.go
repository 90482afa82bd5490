package allocrunner

import (
	"time"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
)

// anyRunning reports whether a task is running (the status-running-over-
// failed mutant's check, AR-8).
func anyRunning(states map[string]*structs.TaskState) bool {
	for _, s := range states {
		if s != nil && s.State == structs.TaskStateRunning {
			return true
		}
	}
	return false
}

// wallclockTick is what the telem-wallclock mutant's private clock
// advances per hook execution, whatever the injected clock did.
const wallclockTick = time.Millisecond

// wallclockStats is the telem-wallclock mutant's handler (TELEM-4 broken):
// elapsed is read from a private clock that advances a fixed tick per hook
// execution and not while the hook blocks on the injected clock, as a
// wall-clock MeasureSince behaves under simulated time. Only the duration
// changes; keys, labels and counters are inner's.
func wallclockStats(inner hookstats.Handler, injected clock.Clock) hookstats.Handler {
	return wallclockHandler{inner: inner, injected: injected}
}

type wallclockHandler struct {
	inner    hookstats.Handler
	injected clock.Clock
}

func (h wallclockHandler) Emit(_ time.Time, hookName, hookType string, err error) {
	h.inner.Emit(h.injected.Now().Add(-wallclockTick), hookName, hookType, err)
}

// prestartAsSidecars is the lifecycle-main-early mutant's view of the
// group (AR-9 broken): every prestart task reads as a prestart sidecar,
// so the main tasks start once the prestart tasks started instead of
// once the non-sidecar ones completed.
func prestartAsSidecars(tasks []*structs.Task) []*structs.Task {
	out := make([]*structs.Task, len(tasks))
	for i, t := range tasks {
		out[i] = t
		if t.IsPrestart() && !t.IsSidecar() {
			c := *t
			c.Lifecycle = &structs.TaskLifecycle{Hook: t.Lifecycle.Hook, Sidecar: true}
			out[i] = &c
		}
	}
	return out
}
