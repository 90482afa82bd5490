package interfaces

import (
	"context"

	"github.com/allocsim/allocsim/model/structs"
)

// Alloc runner hooks (AR-4). A hook implements RunnerHook and any of the
// kinds; the runner calls each kind's hooks sequentially in registration
// order.
type RunnerHook interface {
	Name() string
}

// RunnerPrerunHook runs before tasks start, only if the alloc should run.
type RunnerPrerunHook interface {
	RunnerHook
	Prerun(ctx context.Context) error
}

// RunnerPostrunHook runs after all task runners exit (not on shutdown).
type RunnerPostrunHook interface {
	RunnerHook
	Postrun() error
}

// RunnerDestroyHook runs in Destroy.
type RunnerDestroyHook interface {
	RunnerHook
	Destroy() error
}

// RunnerUpdateHook runs per non-terminal server update, serialised.
type RunnerUpdateHook interface {
	RunnerHook
	Update(alloc *structs.Allocation) error
}

// RunnerPreKillHook runs at a kill's start and when all tasks finished.
type RunnerPreKillHook interface {
	RunnerHook
	PreKill()
}

// ShutdownHook runs on Shutdown.
type ShutdownHook interface {
	RunnerHook
	Shutdown()
}

// Task runner hooks (AR-5).
type TaskHook interface {
	Name() string
}

// TaskPrestartRequest is what a prestart hook sees.
type TaskPrestartRequest struct {
	Task *structs.Task
	// PreviousData is the hook's Data from its last successful run (restore).
	PreviousData map[string]string
	// Env is the task's environment so far.
	Env map[string]string
}

// TaskPrestartResponse is what a prestart hook returns.
type TaskPrestartResponse struct {
	Env  map[string]string
	Data map[string]string
	// Done marks the hook as not needing to run again (PrestartDone).
	Done bool
}

// TaskPrestartHook runs before each (re)start; ctx is cancelled on kill or
// shutdown.
type TaskPrestartHook interface {
	TaskHook
	Prestart(ctx context.Context, req *TaskPrestartRequest, resp *TaskPrestartResponse) error
}

// TaskPoststartHook runs after a driver start; errors are logged.
type TaskPoststartHook interface {
	TaskHook
	Poststart(ctx context.Context) error
}

// TaskPreKillHook runs before a kill or a pause stop.
type TaskPreKillHook interface {
	TaskHook
	PreKill()
}

// TaskExitedHook runs on each exit.
type TaskExitedHook interface {
	TaskHook
	Exited(ctx context.Context) error
}

// TaskUpdateHook runs when the alloc is updated (concurrently).
type TaskUpdateHook interface {
	TaskHook
	Update(ctx context.Context, alloc *structs.Allocation) error
}

// TaskStopHook runs once when the task will never run again; idempotent.
type TaskStopHook interface {
	TaskHook
	Stop(ctx context.Context) error
}
