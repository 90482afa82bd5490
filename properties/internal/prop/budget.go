package prop

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/trace"
)

// CheckBudget bounds one check while it runs: a runner (or a scenario)
// that makes a run grow without end stops there with a diagnosis, and the
// suite goes on. Steps and Records are counted in the run itself, so a
// replay of the seed ends the same way; Real is a backstop on the real
// clock (read outside the bubble), which a replay on another machine may
// not hit at the same instant.
type CheckBudget struct {
	// Steps is the most settled instants a run may take (the world's
	// Steps); Records the most trace records it may write; Real the most
	// real time. Zero means the default, negative none.
	Steps   int
	Records int
	Real    time.Duration
}

// DefaultCheckBudget is a budget far above what a conforming run of any
// property takes (the largest of 40 checks of every property with the
// reference took 15,780 settled instants, and 1,639 trace records) and
// far below what makes a machine swap (a run that grew to 3.5 GB).
var DefaultCheckBudget = CheckBudget{Steps: 200_000, Records: 200_000, Real: 2 * time.Minute}

// BudgetRule names the verdict of a check stopped at its budget.
const BudgetRule = "BUDGET"

func (b CheckBudget) resolved() CheckBudget {
	d := DefaultCheckBudget
	if b.Steps != 0 {
		d.Steps = b.Steps
	}
	if b.Records != 0 {
		d.Records = b.Records
	}
	if b.Real != 0 {
		d.Real = b.Real
	}
	return d
}

// budgetWatch is one check's budget while it runs.
type budgetWatch struct {
	b       CheckBudget
	timeout atomic.Bool // set by a real-time timer outside the bubble
	stop    func() bool
}

// watchBudget starts the real-time backstop; call it outside the bubble,
// and end stops it.
func watchBudget(b CheckBudget) *budgetWatch {
	w := &budgetWatch{b: b.resolved()}
	w.stop = func() bool { return true }
	if w.b.Real > 0 {
		t := time.AfterFunc(w.b.Real, func() { w.timeout.Store(true) })
		w.stop = t.Stop
	}
	return w
}

func (w *budgetWatch) end() { w.stop() }

// exceeded returns the budget verdict if the run went past its budget.
func (w *budgetWatch) exceeded(world *sim.World, records int, runner string, seed uint64) (Violation, bool) {
	steps := world.Steps()
	var what string
	switch {
	case w.b.Steps > 0 && steps > uint64(w.b.Steps):
		what = fmt.Sprintf("its budget of %d settled instants", w.b.Steps)
	case w.b.Records > 0 && records > w.b.Records:
		what = fmt.Sprintf("its budget of %d trace records", w.b.Records)
	case w.timeout.Load():
		what = fmt.Sprintf("its real-time budget of %s (a backstop: a replay on another machine may stop elsewhere)", w.b.Real)
	default:
		return Violation{}, false
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	now := world.Now()
	return Violation{At: now, World: fmt.Sprintf("%s (runner %q, seed %d): the check stopped at %s, at virtual time %s after %d settled instants and %d trace records (heap %d MiB), want a run that ends within it (a runner that makes events without end, e.g. restarts or pushes in a loop)",
		BudgetRule, runner, seed, what, now.UTC().Format(trace.TimeFormat), steps, records, m.HeapAlloc>>20)}, true
}
