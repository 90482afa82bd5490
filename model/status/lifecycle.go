package status

import (
	"github.com/allocsim/allocsim/model/structs"
)

// Stage is a task's lifecycle stage (DATA-4).
type Stage int

// Lifecycle stages in start order (AR-9).
const (
	StagePrestart Stage = iota
	StageMain
	StagePoststart
	StagePoststop
)

// String names the stage by its lifecycle hook ("main" for none).
func (s Stage) String() string {
	switch s {
	case StagePrestart:
		return structs.TaskLifecycleHookPrestart
	case StagePoststart:
		return structs.TaskLifecycleHookPoststart
	case StagePoststop:
		return structs.TaskLifecycleHookPoststop
	default:
		return "main"
	}
}

// StageOf returns a task's lifecycle stage.
func StageOf(t *structs.Task) Stage {
	switch {
	case t.IsPrestart():
		return StagePrestart
	case t.IsPoststart():
		return StagePoststart
	case t.IsPoststop():
		return StagePoststop
	default:
		return StageMain
	}
}

// MayStart reports whether a task's AR-9 start condition holds given the
// group's tasks and their current states (a task without a state is
// pending and has not started):
//   - prestart tasks start at once;
//   - main tasks once every prestart non-sidecar is dead and not failed
//     and every prestart sidecar has started;
//   - poststart tasks once the main condition holds and every main task
//     has started;
//   - poststop tasks once every main task is dead.
//
// "Started" means a non-zero StartedAt (the task has been running), so
// once true a condition stays true while the task restarts. A paused task
// is pending (PAUSE-8): a paused prestart task holds main tasks back, a
// paused main task holds poststart and poststop tasks back. With no tasks
// of the awaited stage a condition holds vacuously.
func MayStart(task *structs.Task, tasks []*structs.Task, states map[string]*structs.TaskState) bool {
	switch StageOf(task) {
	case StagePrestart:
		return true
	case StageMain:
		return prestartDone(tasks, states)
	case StagePoststart:
		return prestartDone(tasks, states) && allMain(tasks, states, started)
	default:
		return allMain(tasks, states, dead)
	}
}

// Startable lists, by name, the group's tasks whose start condition holds
// (MayStart), whether or not they already started.
func Startable(tasks []*structs.Task, states map[string]*structs.TaskState) []string {
	var out []string
	for _, t := range byName(tasks) {
		if MayStart(t, tasks, states) {
			out = append(out, t.Name)
		}
	}
	return out
}

func prestartDone(tasks []*structs.Task, states map[string]*structs.TaskState) bool {
	for _, t := range tasks {
		if t == nil || !t.IsPrestart() {
			continue
		}
		s := states[t.Name]
		if t.IsSidecar() {
			if !started(s) {
				return false
			}
		} else if s == nil || !s.Successful() {
			return false
		}
	}
	return true
}

func allMain(tasks []*structs.Task, states map[string]*structs.TaskState, ok func(*structs.TaskState) bool) bool {
	for _, t := range tasks {
		if t != nil && t.IsMain() && !ok(states[t.Name]) {
			return false
		}
	}
	return true
}

func started(s *structs.TaskState) bool { return s != nil && !s.StartedAt.IsZero() }

func dead(s *structs.TaskState) bool { return s != nil && s.State == structs.TaskStateDead }
