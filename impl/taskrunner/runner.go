package taskrunner

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/restart"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// TaskRunner runs one task (AR-5..AR-7, PAUSE). Build it with
// NewTaskRunner, optionally Restore it, then call Start once (it runs the
// task loop in a goroutine of its own).
type TaskRunner struct {
	cfg      *Config
	logger   *slog.Logger
	clock    clock.Clock
	allocID  string
	taskName string
	driverID string // drivers.TaskID(allocID, taskName)

	hooks   []interfaces.TaskHook
	taskDir *interfaces.TaskDir
	gate    *pauseGate
	// gatePassed, set only by tests before Start, runs on the task loop
	// right after the start gate returned, so a test can land a kill in
	// the instant between the gate and the kill check.
	gatePassed func()

	// Contexts: killCtx ends on Kill (and MarkFailedKill), shutdownCtx on
	// Shutdown, hookCtx on either (the prestart hooks' context, AR-5).
	killCtx        context.Context
	killCancel     context.CancelFunc
	shutdownCtx    context.Context
	shutdownCancel context.CancelFunc
	hookCtx        context.Context
	hookCancel     context.CancelFunc

	waitCh    chan struct{} // closed when the task loop returns
	restartCh chan struct{} // an alloc restart of a dead task (buffer 1)
	stopped   atomic.Bool   // the stop hooks ran (they run once)
	bg        sync.WaitGroup
	quiet     atomic.Bool // Restore in progress: no StateUpdated calls

	// mu guards the fields below.
	mu                sync.Mutex
	task              *structs.Task
	alloc             *structs.Allocation
	tracker           *restart.Tracker
	run               *driverRun // the live driver run, nil if none
	runStarted        bool
	deadWaiting       bool
	waitOnServers     bool
	restoredComplete  bool
	pendingPauseStops []*driverRun
	killErr           error

	// taskStateMu serialises task state changes with their task_state
	// writes, localStateMu the local_state writes, so the DB never gets an
	// older copy of either after a newer one (STATE-2). One lock per key:
	// a goroutine writing one key never waits for a write of the other.
	// chanLocks: each is held across its write, which a simulator may
	// hold. taskStatePersisted (guarded by taskStateMu) tells whether the
	// task state was written (or loaded) since construction.
	taskStateMu        chanLock
	localStateMu       chanLock
	taskStatePersisted bool
	// stateMu guards state, published and localState. state is the
	// working task state, changed only with taskStateMu held; published is
	// what TaskState returns: the state as of the last task_state write,
	// set once the write returned (whatever its outcome, STATE-2). So what
	// other goroutines (the alloc runner's kill rules) see advances at the
	// injected write, a point a simulator orders, never while the change
	// is still in flight (DET-3). publishedVersion counts the
	// publications (TaskStateVersion).
	stateMu          sync.Mutex
	state            *structs.TaskState
	published        *structs.TaskState
	publishedVersion uint64
	localState       *interfaces.LocalState
}

// NewTaskRunner builds a task runner; it appends Received (AR-6) and
// persists that fresh state (STATE-2) unless the DB holds a task state
// for the task already, which Restore is to load (STATE-3): Restore then
// replaces the fresh state. Either way the task state is in the DB before
// the runner is handed out, so no goroutine's first change races another
// one to write the first copy (DET-3). It is not reported here.
func NewTaskRunner(cfg *Config) (*TaskRunner, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	tr := &TaskRunner{
		cfg:          c,
		clock:        c.Clock,
		allocID:      c.Alloc.ID,
		taskName:     c.Task.Name,
		driverID:     drivers.TaskID(c.Alloc.ID, c.Task.Name),
		waitCh:       make(chan struct{}),
		restartCh:    make(chan struct{}, 1),
		taskStateMu:  newChanLock(),
		localStateMu: newChanLock(),
		task:         c.Task,
		alloc:        c.Alloc,
		state:        structs.NewTaskState(),
		localState:   interfaces.NewLocalState(),
	}
	tr.logger = c.Logger.With("alloc_id", tr.allocID, "task", tr.taskName)
	tr.killCtx, tr.killCancel = context.WithCancel(context.Background())
	tr.shutdownCtx, tr.shutdownCancel = context.WithCancel(context.Background())
	tr.hookCtx, tr.hookCancel = context.WithCancel(context.Background())

	tg := c.Alloc.LookupTaskGroup()
	tr.tracker = restart.New(tg.RestartPolicy, jobType(c.Alloc), c.Task, tr.clock.Now())
	tr.taskDir = c.AllocDir.NewTaskDir(tr.taskName)
	tr.gate = newPauseGate(tr, tr.taskName, c.Task.Schedule, c.ClientConfig.LocalZone, c.Policies)
	tr.hooks = tr.buildHooks()

	tr.state.AppendEvent(structs.NewTaskEvent(structs.TaskReceived, tr.clock.Now()))
	tr.publishLocked(tr.state.Copy()) // not shared yet: no lock needed
	tr.persistFreshState()
	return tr, nil
}

func jobType(a *structs.Allocation) string {
	if a.Job == nil || a.Job.Type == "" {
		return structs.JobTypeService
	}
	return a.Job.Type
}

// WaitCh closes when the task loop returns.
func (tr *TaskRunner) WaitCh() <-chan struct{} { return tr.waitCh }

// Task returns the task definition (the latest one an Update delivered).
func (tr *TaskRunner) Task() *structs.Task {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.task
}

// Alloc returns the latest alloc the runner was given.
func (tr *TaskRunner) Alloc() *structs.Allocation {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.alloc
}

// TaskState returns a copy of the task's state as of its last task_state
// write (a change in flight shows once its write returned).
func (tr *TaskRunner) TaskState() *structs.TaskState {
	tr.stateMu.Lock()
	defer tr.stateMu.Unlock()
	return tr.published.Copy()
}

// SharedTaskState is TaskState without the copy: the published state
// itself, which the task runner never changes afterwards (a change
// publishes a new one). The caller reads it and must not change it; what
// it hands on to others it copies.
func (tr *TaskRunner) SharedTaskState() *structs.TaskState {
	tr.stateMu.Lock()
	defer tr.stateMu.Unlock()
	return tr.published
}

// TaskStateVersion returns a number that changes whenever what TaskState
// returns may have changed: two equal versions of one runner mean equal
// task states, so a caller holding the state of a version need not copy
// it again. It is cheap (no copy).
func (tr *TaskRunner) TaskStateVersion() uint64 {
	tr.stateMu.Lock()
	defer tr.stateMu.Unlock()
	return tr.publishedVersion
}

// publishLocked makes s what TaskState returns; stateMu is held and s is
// the runner's own (never changed afterwards).
func (tr *TaskRunner) publishLocked(s *structs.TaskState) {
	tr.published = s
	tr.publishedVersion++
}

// LocalState returns a copy of the runner's local state (STATE-1).
func (tr *TaskRunner) LocalState() *interfaces.LocalState {
	tr.stateMu.Lock()
	defer tr.stateMu.Unlock()
	return tr.localState.Copy()
}

// IsLeader, IsPoststopTask, IsSidecarTask, IsPrestartTask, IsPoststartTask
// classify the task (DATA-4).
func (tr *TaskRunner) IsLeader() bool        { return tr.Task().Leader }
func (tr *TaskRunner) IsPoststopTask() bool  { return tr.Task().IsPoststop() }
func (tr *TaskRunner) IsSidecarTask() bool   { return tr.Task().IsSidecar() }
func (tr *TaskRunner) IsPrestartTask() bool  { return tr.Task().IsPrestart() }
func (tr *TaskRunner) IsPoststartTask() bool { return tr.Task().IsPoststart() }

// Update hands the TR a newer alloc (AR-10): the task definition is
// replaced by the alloc's and the update hooks run (the pause hook adopts a
// changed schedule, PAUSE-7).
func (tr *TaskRunner) Update(alloc *structs.Allocation) {
	if alloc == nil {
		return
	}
	tr.SetAlloc(alloc)
	tr.runUpdateHooks(alloc)
}

// SetAlloc replaces the TR's alloc and task definition without running
// the update hooks: the alloc runner calls it from its Update, so that
// the task sees a newer alloc before the update is handled (AR-10).
func (tr *TaskRunner) SetAlloc(alloc *structs.Allocation) {
	if alloc == nil {
		return
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.alloc = alloc
	if t := alloc.LookupTaskGroup().LookupTask(tr.taskName); t != nil {
		tr.task = t
	}
}

// Shutdown stops the TR leaving the task running; it returns when the loop
// and a pause stop in flight have returned (at once if Start was not
// called). A driver call in flight (a blocking StartTask, a kill's or
// pause stop's StopTask) is waited for: it has no context, and closing
// the driver ends it. The local state of a runner that ran is persisted
// (STATE-2); one that never ran leaves the DB alone, so a runner built for
// a restore never overwrites what it did not load.
func (tr *TaskRunner) Shutdown() {
	tr.gate.shutdown()
	tr.shutdownCancel()
	tr.hookCancel()
	tr.mu.Lock()
	started := tr.runStarted
	tr.mu.Unlock()
	if !started {
		return
	}
	<-tr.waitCh
	tr.bg.Wait() // a pause stop in flight (startPauseStop) ends first
	tr.persistLocalStateLogged("shutdown")
}
