package interfaces

import (
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// AllocRunner runs one allocation on a client (SPEC AR-1). Every method is
// safe for concurrent use.
type AllocRunner interface {
	// Alloc returns the latest alloc the server sent, with the client-side
	// fields computed by the runner.
	Alloc() *structs.Allocation
	// Run runs the alloc and blocks until it is finished or shut down; it
	// closes WaitCh on return. Called once, in its own goroutine.
	Run()
	// Restore loads the runner's persisted state (STATE-3); before Run.
	Restore() error
	// Update hands the runner a newer server alloc (AR-10), whose Job is
	// shared and read only (Config.Alloc).
	Update(alloc *structs.Allocation)
	// Reconnect appends Reconnected to every task, copies the server's
	// indexes, persists and pushes state.
	Reconnect(alloc *structs.Allocation) error
	// Shutdown stops the runner, leaving tasks running; closes ShutdownCh.
	Shutdown()
	// Destroy kills the tasks, runs destroy hooks and deletes the persisted
	// state; closes DestroyCh and ShutdownCh.
	Destroy()

	IsDestroyed() bool
	IsMigrating() bool
	IsWaiting() bool
	WaitCh() <-chan struct{}
	DestroyCh() <-chan struct{}
	ShutdownCh() <-chan struct{}

	// AllocState returns a copy of the computed client-side fields.
	AllocState() *structs.AllocState
	PersistState() error
	// AcknowledgeState stores and persists the state the server
	// acknowledged. s becomes the runner's, which may keep it as is: the
	// caller hands over a value of its own (a fresh copy, a decoded one)
	// and neither changes it nor hands it out afterwards.
	AcknowledgeState(s *structs.AllocState)
	// GetUpdatePriority classifies an update against the acknowledged state
	// (SYNC-2). The update is the client's buffered one, not a copy: read
	// it, never keep or change it.
	GetUpdatePriority(alloc *structs.Allocation) syncpolicy.Priority
	SetClientStatus(status string)

	// Signal sends sig to one task (PAUSE-11).
	Signal(taskName, sig string) error
	RestartTask(taskName string, ev *structs.TaskEvent) error
	RestartRunning(ev *structs.TaskEvent) error
	RestartAll(ev *structs.TaskEvent) error

	// Listener subscribes to every computed client alloc.
	Listener() AllocListener
	GetAllocDir() AllocDir

	// SetTaskPauseState and GetTaskPauseState are PAUSE-2.
	SetTaskPauseState(taskName string, state structs.TaskScheduleState) error
	GetTaskPauseState(taskName string) (structs.TaskScheduleState, error)
}

// AllocListener receives the runner's computed client allocs. Ch delivers
// the newest alloc; a slow reader may miss intermediate ones but always
// sees the latest. Close releases the subscription.
type AllocListener interface {
	Ch() <-chan *structs.Allocation
	Close()
}

// AllocRunnerFactory builds an alloc runner (AR-3); an error makes the
// client report the alloc failed.
type AllocRunnerFactory func(cfg *Config) (AllocRunner, error)
