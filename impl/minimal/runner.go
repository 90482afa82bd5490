package minimal

import (
	"errors"
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

var (
	errNilConfig  = errors.New("minimal alloc runner: config is nil")
	errNilAlloc   = errors.New("minimal alloc runner: config has no alloc")
	errNilUpdater = errors.New("minimal alloc runner: config has no state updater")
)

// AllocRunner is the minimal runner; see the package documentation for
// why each method does what it does. It is safe for concurrent use.
type AllocRunner struct {
	updater interfaces.StateUpdater

	mu    sync.Mutex
	alloc *structs.Allocation

	// waitCh is never closed (package doc, step 3); stopped starts closed
	// and serves as both DestroyCh and ShutdownCh (step 4).
	waitCh  chan struct{}
	stopped chan struct{}
}

var _ interfaces.AllocRunner = (*AllocRunner)(nil)

// NewAllocRunner builds a minimal runner; it matches
// interfaces.AllocRunnerFactory. It needs only cfg.Alloc and
// cfg.StateUpdater; everything else in cfg is ignored.
func NewAllocRunner(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	switch {
	case cfg == nil:
		return nil, errNilConfig
	case cfg.Alloc == nil:
		return nil, errNilAlloc
	case cfg.StateUpdater == nil:
		return nil, errNilUpdater
	}
	stopped := make(chan struct{})
	close(stopped)
	return &AllocRunner{
		updater: cfg.StateUpdater,
		alloc:   cfg.Alloc.CopySkipJob(),
		waitCh:  make(chan struct{}),
		stopped: stopped,
	}, nil
}

// Run sets ClientStatus running and reports the alloc once (SYNC-1), then
// returns without closing WaitCh.
func (r *AllocRunner) Run() {
	r.mu.Lock()
	r.alloc.ClientStatus = structs.AllocClientStatusRunning
	report := r.alloc.CopySkipJob()
	r.mu.Unlock()
	// Reported outside the lock: a state updater may call back (AR-2).
	r.updater.AllocStateUpdated(report)
}

// Alloc returns a copy of the latest alloc.
func (r *AllocRunner) Alloc() *structs.Allocation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alloc.CopySkipJob()
}

// Update replaces the alloc with the server's.
func (r *AllocRunner) Update(alloc *structs.Allocation) { r.replace(alloc) }

// Reconnect replaces the alloc with the server's; it never fails.
func (r *AllocRunner) Reconnect(alloc *structs.Allocation) error {
	r.replace(alloc)
	return nil
}

func (r *AllocRunner) replace(alloc *structs.Allocation) {
	if alloc == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.alloc = alloc.CopySkipJob()
}

// WaitCh never closes: nothing runs that could finish.
func (r *AllocRunner) WaitCh() <-chan struct{} { return r.waitCh }

// DestroyCh is closed from the start: there is nothing to destroy.
func (r *AllocRunner) DestroyCh() <-chan struct{} { return r.stopped }

// ShutdownCh is closed from the start: there is nothing to stop.
func (r *AllocRunner) ShutdownCh() <-chan struct{} { return r.stopped }

// GetUpdatePriority is always Urgent, so every state rides the next tick.
func (r *AllocRunner) GetUpdatePriority(*structs.Allocation) syncpolicy.Priority {
	return syncpolicy.Urgent
}

// AllocState returns the client-side fields of the current alloc.
func (r *AllocRunner) AllocState() *structs.AllocState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alloc.ClientState()
}

// Restore is a no-op: nothing was persisted.
func (r *AllocRunner) Restore() error { return nil }

// Shutdown is a no-op: ShutdownCh is already closed.
func (r *AllocRunner) Shutdown() {}

// Destroy is a no-op: DestroyCh is already closed.
func (r *AllocRunner) Destroy() {}

// IsDestroyed is false: Destroy does nothing, so nothing is ever destroyed.
func (r *AllocRunner) IsDestroyed() bool { return false }

// IsMigrating is false: there is no previous alloc.
func (r *AllocRunner) IsMigrating() bool { return false }

// IsWaiting is false: there is no previous alloc.
func (r *AllocRunner) IsWaiting() bool { return false }

// PersistState is a no-op: the runner has no state of its own.
func (r *AllocRunner) PersistState() error { return nil }

// AcknowledgeState is a no-op: priorities never look at it.
func (r *AllocRunner) AcknowledgeState(*structs.AllocState) {}

// SetClientStatus is a no-op.
func (r *AllocRunner) SetClientStatus(string) {}

// Signal is a no-op: there are no tasks to signal.
func (r *AllocRunner) Signal(string, string) error { return nil }

// RestartTask is a no-op.
func (r *AllocRunner) RestartTask(string, *structs.TaskEvent) error { return nil }

// RestartRunning is a no-op.
func (r *AllocRunner) RestartRunning(*structs.TaskEvent) error { return nil }

// RestartAll is a no-op.
func (r *AllocRunner) RestartAll(*structs.TaskEvent) error { return nil }

// Listener returns a subscription that never delivers: the runner computes
// no alloc after Run's one report.
func (r *AllocRunner) Listener() interfaces.AllocListener { return silentListener{} }

// GetAllocDir is nil: the runner builds no alloc dir.
func (r *AllocRunner) GetAllocDir() interfaces.AllocDir { return nil }

// SetTaskPauseState is a no-op.
func (r *AllocRunner) SetTaskPauseState(string, structs.TaskScheduleState) error { return nil }

// GetTaskPauseState is always "".
func (r *AllocRunner) GetTaskPauseState(string) (structs.TaskScheduleState, error) { return "", nil }

// silentListener is an AllocListener whose channel never delivers. A nil
// channel blocks a receive forever, which is exactly "never delivers", and
// costs nothing to close.
type silentListener struct{}

func (silentListener) Ch() <-chan *structs.Allocation { return nil }
func (silentListener) Close()                         {}
