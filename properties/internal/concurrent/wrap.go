package concurrent

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
)

// runTail is how long a watched runner's Run goes on after the runner's
// own Run returned: a Run may return at any time after it closed WaitCh,
// and a client's Shutdown must wait for it all the same (interfaces.
// Client: it returns when all of the client's goroutines have ended).
const runTail = time.Millisecond

// runs counts the Run calls of a client's runners still in progress and
// keeps the runners.
type runs struct {
	inFlight atomic.Int64
	mu       sync.Mutex
	built    []interfaces.AllocRunner
}

// open returns how many runners the client built whose ShutdownCh is
// still open.
func (r *runs) open() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, ar := range r.built {
		select {
		case <-ar.ShutdownCh():
		default:
			n++
		}
	}
	return n
}

// factory wraps f: every runner the client builds is watched (its Run
// counted) and reports through a tap of its StateUpdater.
func (r *runs) factory(f interfaces.AllocRunnerFactory, w *watch, clk clock.Clock) interfaces.AllocRunnerFactory {
	return func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		c := *cfg
		if c.StateUpdater != nil {
			c.StateUpdater = updaterTap{w: w, next: cfg.StateUpdater}
		}
		ar, err := f(&c)
		if err != nil || ar == nil {
			return ar, err
		}
		r.mu.Lock()
		r.built = append(r.built, ar)
		r.mu.Unlock()
		return watchedRunner{AllocRunner: ar, runs: r, clk: clk}, nil
	}
}

// watchedRunner is a runner whose Run the check counts. It hides any
// method beyond interfaces.AllocRunner: a client may use only the
// contract's.
type watchedRunner struct {
	interfaces.AllocRunner
	runs *runs
	clk  clock.Clock
}

// Run runs the runner, then lingers runTail.
func (r watchedRunner) Run() {
	r.runs.inFlight.Add(1)
	defer r.runs.inFlight.Add(-1)
	r.AllocRunner.Run()
	<-r.clk.After(runTail)
}

// updaterTap counts the pushes of a client's runners as port calls: one
// after the client shut down is a goroutine left running.
type updaterTap struct {
	w    *watch
	next interfaces.StateUpdater
}

func (u updaterTap) AllocStateUpdated(a *structs.Allocation) {
	defer u.w.enter("StateUpdater AllocStateUpdated")()
	u.next.AllocStateUpdated(a)
}

func (u updaterTap) PutAllocation(a *structs.Allocation) error {
	defer u.w.enter("StateUpdater PutAllocation")()
	return u.next.PutAllocation(a)
}
