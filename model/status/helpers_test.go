package status

import (
	"time"

	"github.com/allocsim/allocsim/model/structs"
)

var t0 = time.Date(2024, 11, 3, 5, 30, 0, 0, time.UTC)

func task(name string) *structs.Task { return &structs.Task{Name: name} }

func leader(name string) *structs.Task { return &structs.Task{Name: name, Leader: true} }

func hooked(name, hook string, sidecar bool) *structs.Task {
	return &structs.Task{Name: name, Lifecycle: &structs.TaskLifecycle{Hook: hook, Sidecar: sidecar}}
}

func prestart(name string) *structs.Task {
	return hooked(name, structs.TaskLifecycleHookPrestart, false)
}
func prestartSidecar(name string) *structs.Task {
	return hooked(name, structs.TaskLifecycleHookPrestart, true)
}
func poststart(name string) *structs.Task {
	return hooked(name, structs.TaskLifecycleHookPoststart, false)
}
func poststartSidecar(name string) *structs.Task {
	return hooked(name, structs.TaskLifecycleHookPoststart, true)
}
func poststop(name string) *structs.Task {
	return hooked(name, structs.TaskLifecycleHookPoststop, false)
}

// Task state shorthands.
func pending() *structs.TaskState { return &structs.TaskState{State: structs.TaskStatePending} }

// paused is a task held in the pause gate: pending with a pause state
// (PAUSE-8), possibly after it ran.
func paused(ranBefore bool) *structs.TaskState {
	s := &structs.TaskState{State: structs.TaskStatePending, Paused: structs.TaskScheduleStateSchedulePause}
	if ranBefore {
		s.StartedAt = t0
	}
	return s
}

func running() *structs.TaskState {
	return &structs.TaskState{State: structs.TaskStateRunning, StartedAt: t0}
}

// restarting is pending after having run.
func restarting() *structs.TaskState {
	return &structs.TaskState{State: structs.TaskStatePending, StartedAt: t0}
}

func complete() *structs.TaskState {
	return &structs.TaskState{State: structs.TaskStateDead, StartedAt: t0, FinishedAt: t0.Add(time.Minute)}
}

func failed() *structs.TaskState {
	return &structs.TaskState{State: structs.TaskStateDead, Failed: true, StartedAt: t0, FinishedAt: t0.Add(time.Minute)}
}

// deadUnfinished is dead without FinishedAt (a broken state AR-8 must
// catch when terminal).
func deadUnfinished() *structs.TaskState { return &structs.TaskState{State: structs.TaskStateDead} }

type states = map[string]*structs.TaskState
