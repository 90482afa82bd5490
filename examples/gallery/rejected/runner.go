package rejected

import (
	"errors"
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
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
		return nil, errors.New("rejected: config needs an alloc and a state updater")
	}
	closed := make(chan struct{})
	close(closed)
	return &Runner{updater: cfg.StateUpdater, alloc: cfg.Alloc.CopySkipJob(), waitCh: make(chan struct{}), closed: closed}, nil
}

// Run reports the alloc running, once.
func (r *Runner) Run() {
	r.mu.Lock()
	r.alloc.ClientStatus = structs.AllocClientStatusRunning
	u := r.statusUpdate()
	r.mu.Unlock()
	r.updater.AllocStateUpdated(u)
}

// statusUpdate is what the servers need to hear about the alloc: which
// one it is, and what the client computed of it.
func (r *Runner) statusUpdate() *structs.Allocation {
	s := r.alloc.ClientState()
	return &structs.Allocation{
		ID:                r.alloc.ID,
		ClientStatus:      s.ClientStatus,
		ClientDescription: s.ClientDescription,
		TaskStates:        s.TaskStates,
		DeploymentStatus:  s.DeploymentStatus,
		NetworkStatus:     s.NetworkStatus,
	}
}

// Alloc is the latest alloc.
func (r *Runner) Alloc() *structs.Allocation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alloc.CopySkipJob()
}

// Update replaces the alloc.
func (r *Runner) Update(a *structs.Allocation) {
	if a == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	status := r.alloc.ClientStatus
	r.alloc = a.CopySkipJob()
	r.alloc.ClientStatus = status
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

// Listener never delivers: the runner computes nothing after Run.
func (r *Runner) Listener() interfaces.AllocListener { return silent{} }

// GetAllocDir is nil: the runner builds no alloc dir.
func (r *Runner) GetAllocDir() interfaces.AllocDir { return nil }

// SetTaskPauseState and GetTaskPauseState do nothing: no tasks.
func (r *Runner) SetTaskPauseState(string, structs.TaskScheduleState) error   { return nil }
func (r *Runner) GetTaskPauseState(string) (structs.TaskScheduleState, error) { return "", nil }

type silent struct{}

func (silent) Ch() <-chan *structs.Allocation { return nil }
func (silent) Close()                         {}
