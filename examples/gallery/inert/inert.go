// Package inert is the part of the gallery's alloc runners that no shape
// is about: the alloc under a lock, the state updater, and the methods of
// interfaces.AllocRunner a runner without real tasks has no use for (a
// node simulator's runner looks like this). Each shape embeds a *Base and
// writes its own Run, the part its verdict is about.
package inert

import (
	"errors"
	"slices"
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// Base is an alloc runner that does nothing but keep its alloc.
type Base struct {
	Updater interfaces.StateUpdater

	// Mu guards A, the runner's alloc.
	Mu sync.Mutex
	A  *structs.Allocation

	waitCh, closed chan struct{}
}

// New is the Base of cfg's alloc.
func New(cfg *interfaces.Config) (*Base, error) {
	if cfg == nil || cfg.Alloc == nil || cfg.StateUpdater == nil {
		return nil, errors.New("config needs an alloc and a state updater")
	}
	closed := make(chan struct{})
	close(closed)
	return &Base{Updater: cfg.StateUpdater, A: cfg.Alloc.CopySkipJob(), waitCh: make(chan struct{}), closed: closed}, nil
}

// Alloc is the latest alloc.
func (r *Base) Alloc() *structs.Allocation {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return r.A.CopySkipJob()
}

// Update replaces the alloc, keeping what the client computed.
func (r *Base) Update(a *structs.Allocation) {
	if a == nil {
		return
	}
	r.Mu.Lock()
	defer r.Mu.Unlock()
	prev := r.A
	r.A = a.CopySkipJob()
	r.A.ClientStatus, r.A.ClientDescription = prev.ClientStatus, prev.ClientDescription
	r.A.TaskStates = prev.TaskStates
}

// TaskNames lists the group's tasks by name; call it with Mu held.
func (r *Base) TaskNames() []string {
	tg := r.A.LookupTaskGroup()
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

// Reconnect replaces the alloc.
func (r *Base) Reconnect(a *structs.Allocation) error {
	r.Update(a)
	return nil
}

// AllocState is the client-side state.
func (r *Base) AllocState() *structs.AllocState {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	return r.A.ClientState()
}

// GetUpdatePriority is always Urgent.
func (r *Base) GetUpdatePriority(*structs.Allocation) syncpolicy.Priority {
	return syncpolicy.Urgent
}

// WaitCh never closes; DestroyCh and ShutdownCh start closed.
func (r *Base) WaitCh() <-chan struct{}     { return r.waitCh }
func (r *Base) DestroyCh() <-chan struct{}  { return r.closed }
func (r *Base) ShutdownCh() <-chan struct{} { return r.closed }

// The rest does nothing.
func (r *Base) Restore() error                               { return nil }
func (r *Base) Shutdown()                                    {}
func (r *Base) Destroy()                                     {}
func (r *Base) IsDestroyed() bool                            { return false }
func (r *Base) IsMigrating() bool                            { return false }
func (r *Base) IsWaiting() bool                              { return false }
func (r *Base) PersistState() error                          { return nil }
func (r *Base) AcknowledgeState(*structs.AllocState)         {}
func (r *Base) SetClientStatus(string)                       {}
func (r *Base) Signal(string, string) error                  { return nil }
func (r *Base) RestartTask(string, *structs.TaskEvent) error { return nil }
func (r *Base) RestartRunning(*structs.TaskEvent) error      { return nil }
func (r *Base) RestartAll(*structs.TaskEvent) error          { return nil }

// Listener never delivers: the runner computes nothing after Run.
func (r *Base) Listener() interfaces.AllocListener { return silent{} }

// GetAllocDir is nil: the runner builds no alloc dir.
func (r *Base) GetAllocDir() interfaces.AllocDir { return nil }

// SetTaskPauseState and GetTaskPauseState do nothing: the tasks are fake.
func (r *Base) SetTaskPauseState(string, structs.TaskScheduleState) error   { return nil }
func (r *Base) GetTaskPauseState(string) (structs.TaskScheduleState, error) { return "", nil }

type silent struct{}

func (silent) Ch() <-chan *structs.Allocation { return nil }
func (silent) Close()                         {}
