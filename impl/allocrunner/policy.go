package allocrunner

import (
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
)

// Policies are the SPEC decisions the alloc runner takes from model/, each
// a function of plain inputs that a mutant of impl/mutants may replace by
// a wrong one, and how it builds its task runners. A nil field is the
// reference's (named after it): the zero value is the reference.
type Policies struct {
	ClientStatus  func(states map[string]*structs.TaskState) (status, description string)               // AR-8: model/status.ClientStatus
	KillRule      func(tasks []*structs.Task, states map[string]*structs.TaskState) (status.Kill, bool) // AR-9: model/status.KillRule
	KillOrder     func(tasks []*structs.Task) [][]string                                                // AR-9: phases in turn, each's tasks concurrently (model/status.KillOrder)
	Startable     func(tasks []*structs.Task, states map[string]*structs.TaskState) []string            // AR-9: model/status.Startable
	Supersedes    func(queued, update *structs.Allocation) bool                                         // AR-10: an update replaces the queued one unless its AllocModifyIndex is lower
	HookStats     func(hookstats.Config) hookstats.Handler                                              // TELEM-2..5: hookstats.New
	NewTaskRunner func(cfg *taskrunner.Config) (TaskRunner, error)
	Task          taskrunner.Policies // the task runners' (taskrunner.Config.Policies)
}

// Factory returns the factory of the reference alloc runner deciding by
// p; Factory(Policies{}) behaves exactly as NewAllocRunner.
func Factory(p Policies) interfaces.AllocRunnerFactory {
	return func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		ar, err := newAllocRunner(cfg, p)
		if err != nil {
			return nil, err
		}
		return ar, nil
	}
}

// withDefaults returns p with the reference's in every nil field.
func (p Policies) withDefaults() Policies {
	if p.ClientStatus == nil {
		p.ClientStatus = status.ClientStatus
	}
	if p.KillRule == nil {
		p.KillRule = status.KillRule
	}
	if p.KillOrder == nil {
		p.KillOrder = func(tasks []*structs.Task) [][]string {
			o := status.KillOrder(tasks)
			return [][]string{o.Leader, o.Main, o.Sidecars}
		}
	}
	if p.Startable == nil {
		p.Startable = status.Startable
	}
	if p.Supersedes == nil {
		p.Supersedes = func(queued, update *structs.Allocation) bool {
			return update.AllocModifyIndex >= queued.AllocModifyIndex
		}
	}
	if p.HookStats == nil {
		p.HookStats = hookstats.New
	}
	if p.NewTaskRunner == nil {
		p.NewTaskRunner = func(cfg *taskrunner.Config) (TaskRunner, error) { return taskrunner.NewTaskRunner(cfg) }
	}
	return p
}
