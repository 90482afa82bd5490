package mutexheld

import (
	"errors"
	"log/slog"
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// Runner is the alloc runner.
type Runner struct {
	updater interfaces.StateUpdater
	db      interfaces.StateDB
	logger  *slog.Logger
	waitCh  chan struct{}
	closed  chan struct{}

	// mu guards alloc, and is held while the alloc is persisted so that
	// what is announced is never ahead of what is on disk.
	mu    sync.Mutex
	alloc *structs.Allocation
}

var _ interfaces.AllocRunner = (*Runner)(nil)

// New is the runner's interfaces.AllocRunnerFactory.
func New(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	if cfg == nil || cfg.Alloc == nil || cfg.StateUpdater == nil || cfg.StateDB == nil {
		return nil, errors.New("mutexheld: config needs an alloc, a state DB and a state updater")
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	closed := make(chan struct{})
	close(closed)
	return &Runner{updater: cfg.StateUpdater, db: cfg.StateDB, logger: logger, alloc: cfg.Alloc.CopySkipJob(),
		waitCh: make(chan struct{}), closed: closed}, nil
}

// Run marks the alloc running and persists it; the announcement goes
// out once the write is done and the lock released.
func (r *Runner) Run() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.alloc.ClientStatus = structs.AllocClientStatusRunning
	go r.announce()
	if err := r.db.PutAllocation(r.alloc.CopySkipJob()); err != nil {
		r.logger.Warn("persisting alloc failed", "error", err)
	}
}

// announce pushes the current alloc.
func (r *Runner) announce() {
	r.mu.Lock()
	a := r.alloc.CopySkipJob()
	r.mu.Unlock()
	r.updater.AllocStateUpdated(a)
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
