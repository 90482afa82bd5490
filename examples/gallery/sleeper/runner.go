package sleeper

import (
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// Fake start-up delays between the steps of Run.
const (
	pullDelay  = 100 * time.Millisecond
	startDelay = 200 * time.Millisecond
)

// Runner is the alloc runner.
type Runner struct {
	updater interfaces.StateUpdater
	waitCh  chan struct{}
	closed  chan struct{}

	mu    sync.Mutex
	alloc *structs.Allocation
}

var _ interfaces.AllocRunner = (*Runner)(nil)

// New is the runner's interfaces.AllocRunnerFactory.
func New(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	if cfg == nil || cfg.Alloc == nil || cfg.StateUpdater == nil {
		return nil, errors.New("sleeper: config needs an alloc and a state updater")
	}
	closed := make(chan struct{})
	close(closed)
	return &Runner{updater: cfg.StateUpdater, alloc: cfg.Alloc.CopySkipJob(), waitCh: make(chan struct{}), closed: closed}, nil
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
	r.mu.Lock()
	if r.alloc.TaskStates == nil {
		r.alloc.TaskStates = map[string]*structs.TaskState{}
	}
	for _, name := range r.taskNames() {
		ts := r.alloc.TaskStates[name]
		if ts == nil {
			ts = structs.NewTaskState()
			r.alloc.TaskStates[name] = ts
		}
		change(ts, now)
	}
	if st, desc := status.ClientStatus(r.alloc.TaskStates); st != "" {
		r.alloc.ClientStatus, r.alloc.ClientDescription = st, desc
	}
	a := r.alloc.CopySkipJob()
	r.mu.Unlock()
	r.updater.AllocStateUpdated(a)
}

// taskNames lists the group's tasks by name.
func (r *Runner) taskNames() []string {
	tg := r.alloc.LookupTaskGroup()
	if tg == nil {
		return nil
	}
	names := make([]string, 0, len(tg.Tasks))
	for _, t := range tg.Tasks {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return names
}

// Alloc is the latest alloc.
func (r *Runner) Alloc() *structs.Allocation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alloc.CopySkipJob()
}

// Update replaces the alloc, keeping what the client computed.
func (r *Runner) Update(a *structs.Allocation) {
	if a == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	prev := r.alloc
	r.alloc = a.CopySkipJob()
	r.alloc.ClientStatus, r.alloc.ClientDescription = prev.ClientStatus, prev.ClientDescription
	r.alloc.TaskStates = prev.TaskStates
}

// Reconnect replaces the alloc.
func (r *Runner) Reconnect(a *structs.Allocation) error {
	r.Update(a)
	return nil
}

// AllocState is the client-side state.
func (r *Runner) AllocState() *structs.AllocState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alloc.ClientState()
}

// GetUpdatePriority is always Urgent.
func (r *Runner) GetUpdatePriority(*structs.Allocation) syncpolicy.Priority {
	return syncpolicy.Urgent
}

// WaitCh never closes; DestroyCh and ShutdownCh start closed.
func (r *Runner) WaitCh() <-chan struct{}     { return r.waitCh }
func (r *Runner) DestroyCh() <-chan struct{}  { return r.closed }
func (r *Runner) ShutdownCh() <-chan struct{} { return r.closed }

// The rest does nothing.
func (r *Runner) Restore() error                               { return nil }
func (r *Runner) Shutdown()                                    {}
func (r *Runner) Destroy()                                     {}
func (r *Runner) IsDestroyed() bool                            { return false }
func (r *Runner) IsMigrating() bool                            { return false }
func (r *Runner) IsWaiting() bool                              { return false }
func (r *Runner) PersistState() error                          { return nil }
func (r *Runner) AcknowledgeState(*structs.AllocState)         {}
func (r *Runner) SetClientStatus(string)                       {}
func (r *Runner) Signal(string, string) error                  { return nil }
func (r *Runner) RestartTask(string, *structs.TaskEvent) error { return nil }
func (r *Runner) RestartRunning(*structs.TaskEvent) error      { return nil }
func (r *Runner) RestartAll(*structs.TaskEvent) error          { return nil }

// Listener never delivers.
func (r *Runner) Listener() interfaces.AllocListener { return silent{} }

// GetAllocDir is nil: the runner builds no alloc dir.
func (r *Runner) GetAllocDir() interfaces.AllocDir { return nil }

// SetTaskPauseState and GetTaskPauseState do nothing: the tasks are fake.
func (r *Runner) SetTaskPauseState(string, structs.TaskScheduleState) error   { return nil }
func (r *Runner) GetTaskPauseState(string) (structs.TaskScheduleState, error) { return "", nil }

type silent struct{}

func (silent) Ch() <-chan *structs.Allocation { return nil }
func (silent) Close()                         {}
