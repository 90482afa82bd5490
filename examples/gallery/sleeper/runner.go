package sleeper

import (
	"errors"
	"fmt"
	"time"

	"example.com/gallery/inert"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
)

// Fake start-up delays between the steps of Run.
const (
	pullDelay  = 100 * time.Millisecond
	startDelay = 200 * time.Millisecond
)

// Runner is the alloc runner.
type Runner struct {
	*inert.Base
}

var _ interfaces.AllocRunner = (*Runner)(nil)

// New is the runner's interfaces.AllocRunnerFactory.
func New(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	if cfg == nil || cfg.Alloc == nil || cfg.StateUpdater == nil {
		return nil, errors.New("sleeper: config needs an alloc and a state updater")
	}
	base, err := inert.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("sleeper: %w", err)
	}
	return &Runner{Base: base}, nil
}

// Run fakes the tasks' start-up: received, a pull, the task directory, a
// start, then running.
func (r *Runner) Run() {
	r.step(func(ts *structs.TaskState, now time.Time) {
		ts.AppendEvent(structs.NewTaskEvent(structs.TaskReceived, now))
	})
	time.Sleep(pullDelay)
	r.step(func(ts *structs.TaskState, now time.Time) {
		ts.AppendEvent(structs.NewTaskEvent(structs.TaskSetup, now).SetMessage(structs.MsgTaskSetupBuildingDir))
	})
	time.Sleep(startDelay)
	r.step(func(ts *structs.TaskState, now time.Time) {
		ts.AppendEvent(structs.NewTaskEvent(structs.TaskStarted, now))
		ts.SetState(structs.TaskStateRunning, now)
	})
}

// step applies change to every task's state, stamped now, and pushes the
// alloc.
func (r *Runner) step(change func(ts *structs.TaskState, now time.Time)) {
	now := time.Now()
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
		change(ts, now)
	}
	if st, desc := status.ClientStatus(r.A.TaskStates); st != "" {
		r.A.ClientStatus, r.A.ClientDescription = st, desc
	}
	a := r.A.CopySkipJob()
	r.Mu.Unlock()
	r.Updater.AllocStateUpdated(a)
}
