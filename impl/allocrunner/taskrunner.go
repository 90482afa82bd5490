package allocrunner

import (
	"context"

	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/structs"
)

// TaskRunner is what the alloc runner uses of a task runner
// (impl/taskrunner.TaskRunner, built by Policies.NewTaskRunner). It is an
// interface so that unit tests can drive the alloc runner's logic with a
// scripted task runner.
//
// The alloc runner relies on these behaviours:
//
//  1. Start runs the task runner in a goroutine of its own, which closes
//     WaitCh once the task runner is done; it first waits for
//     StartConditionMetCh, a kill or a shutdown (AR-6). The task runner
//     counts as running from Start's return, so a Kill or Shutdown right
//     after it waits for that run whatever the goroutine has done yet.
//  2. Kill(ctx, ev) appends ev unless it is nil, kills the task (also one
//     waiting for its start condition, or dead and waiting for an alloc
//     restart) and returns once the run has ended or ctx is done.
//  3. MarkFailedKill(reason), before Start, appends Setup Failure with
//     DisplayMessage reason, FailsTask and kill_reason Failed Restoring
//     Task, and makes Run end the task dead and failed without starting it
//     (AR-4).
//  4. Shutdown returns once the run has ended, leaving the task running;
//     a task runner never started just stops (at once).
//  5. StateUpdated (taskrunner.Config) is called after every task state
//     change, without task runner locks held.
//  6. TaskStateVersion changes whenever what TaskState returns may have
//     changed (PersistState reuses the alloc it built while no version
//     moved).
//  7. SharedTaskState is what TaskState returns, not copied: a value the
//     task runner never changes once returned. The alloc runner only
//     reads it, and copies it before handing it out (AllocState, Alloc).
//
// Lifecycle classification comes from the group's task definitions
// (model/status), not from the task runners.
type TaskRunner interface {
	Start()
	Restore() error
	WaitCh() <-chan struct{}
	Task() *structs.Task
	TaskState() *structs.TaskState
	SharedTaskState() *structs.TaskState
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

var _ TaskRunner = (*taskrunner.TaskRunner)(nil)
