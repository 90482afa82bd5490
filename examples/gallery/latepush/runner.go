package latepush

import (
	"errors"
	"fmt"
	"time"

	"example.com/gallery/inert"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
)

// settleDelay is how long a change waits before it is pushed, so that a
// quick follow-up change rides the same push.
const settleDelay = 100 * time.Millisecond

// Runner is the alloc runner.
type Runner struct {
	*inert.Base
	clock clock.Clock
}

var _ interfaces.AllocRunner = (*Runner)(nil)

// New is the runner's interfaces.AllocRunnerFactory.
func New(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	if cfg == nil || cfg.Alloc == nil || cfg.StateUpdater == nil || cfg.Clock == nil {
		return nil, errors.New("latepush: config needs an alloc, a clock and a state updater")
	}
	base, err := inert.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("latepush: %w", err)
	}
	return &Runner{Base: base, clock: cfg.Clock}, nil
}

// Run starts the (fake) tasks and reports them running once the change
// has settled.
func (r *Runner) Run() {
	now := r.clock.Now()
	r.Mu.Lock()
	if r.A.TaskStates == nil {
		r.A.TaskStates = map[string]*structs.TaskState{}
	}
	for _, name := range r.TaskNames() {
		ts := r.A.TaskStates[name]
		if ts == nil {
			ts = structs.NewTaskState()
			r.A.TaskStates[name] = ts
		}
		ts.AppendEvent(structs.NewTaskEvent(structs.TaskReceived, now))
		ts.AppendEvent(structs.NewTaskEvent(structs.TaskStarted, now))
		ts.SetState(structs.TaskStateRunning, now)
	}
	if st, desc := status.ClientStatus(r.A.TaskStates); st != "" {
		r.A.ClientStatus, r.A.ClientDescription = st, desc
	}
	r.Mu.Unlock()

	r.clock.Sleep(settleDelay)
	r.Updater.AllocStateUpdated(r.Alloc())
}
