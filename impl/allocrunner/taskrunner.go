package allocrunner

import (
	"context"

	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/structs"
)

// taskRunner is what the alloc runner uses of a task runner
// (impl/taskrunner.TaskRunner). It is an interface so that unit tests can
// drive the alloc runner's logic with a scripted task runner.
//
// The alloc runner relies on these behaviours:
//
//  1. Run blocks until the task runner is done and then closes WaitCh; it
//     first waits for StartConditionMetCh, a kill or a shutdown (AR-6).
//  2. Kill(ctx, ev) appends ev unless it is nil, kills the task (also one
//     waiting for its start condition, or dead and waiting for an alloc
//     restart) and returns once Run has returned or ctx is done.
//  3. MarkFailedKill(reason), before Run, appends Setup Failure with
//     DisplayMessage reason, FailsTask and kill_reason Failed Restoring
//     Task, and makes Run end the task dead and failed without starting it
//     (AR-4).
//  4. Shutdown returns once Run has returned, leaving the task running.
//  5. StateUpdated (taskrunner.Config) is called after every task state
//     change, without task runner locks held.
//  6. TaskStateVersion changes whenever what TaskState returns may have
//     changed (PersistState reuses the alloc it built while no version
//     moved).
//
// Lifecycle classification comes from the group's task definitions
// (model/status), not from the task runners.
type taskRunner interface {
	Run()
	Restore() error
	WaitCh() <-chan struct{}
	Task() *structs.Task
	TaskState() *structs.TaskState
	TaskStateVersion() uint64
	IsPoststopTask() bool
	AppendEvent(ev *structs.TaskEvent)
	Kill(ctx context.Context, ev *structs.TaskEvent) error
	Restart(ctx context.Context, ev *structs.TaskEvent, failure bool) error
	Signal(ev *structs.TaskEvent, sig string) error
	SetAlloc(alloc *structs.Allocation)
	Update(alloc *structs.Allocation)
	Shutdown()
	MarkFailedKill(reason string)
	SetPauseState(s structs.TaskScheduleState) error
	GetPauseState() structs.TaskScheduleState
}

var _ taskRunner = (*taskrunner.TaskRunner)(nil)

// taskRunnerFactory builds one task runner.
type taskRunnerFactory func(cfg *taskrunner.Config) (taskRunner, error)

// newTaskRunner is the production taskRunnerFactory: the reference task
// runner.
func newTaskRunner(cfg *taskrunner.Config) (taskRunner, error) {
	tr, err := taskrunner.NewTaskRunner(cfg)
	if err != nil {
		return nil, err
	}
	return tr, nil
}
