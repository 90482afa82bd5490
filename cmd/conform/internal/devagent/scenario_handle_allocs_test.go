package devagent

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// run-until alloc= [task=] [status=] [state=] [events= [type=]] [within=]:
// polls the alloc through the API until it meets every condition.
func (e *agentEnv) handleRunUntil(d *datadriven.TestData) string {
	u := apiscenario.ParseUntil(e.t, d)
	id, limit := e.allocID(u.Alloc), within(e.t, d)
	for deadline := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		a, _, err := e.c.Allocations().Info(id, nil)
		if err == nil && u.MetAPI(a) {
			return "reached"
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Sprintf("not within %v: %s", limit, apiscenario.Failure(err))
			}
			return fmt.Sprintf("not within %v: client=%s", limit, a.ClientStatus)
		}
	}
}

// events alloc= [task=]: the task events that no earlier events
// directive printed, per task, without their (wall-clock) time
// (apiscenario.EventLog).
func (e *agentEnv) handleEvents(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "task")
	id := e.allocID(apiscenario.MustArg(e.t, d, "alloc"))
	a, _, err := e.c.Allocations().Info(id, nil)
	if err != nil {
		return apiscenario.Failure(err)
	}
	return e.events.Unseen(id, a.TaskStates, apiscenario.Arg(e.t, d, "task", ""))
}

// get-pause alloc= task=: the task's pause state (API-3, apiscenario.PauseState).
func (e *agentEnv) handleGetPause(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "task")
	target := &api.Allocation{ID: e.allocID(apiscenario.MustArg(e.t, d, "alloc"))}
	s, _, err := e.c.Allocations().GetPauseState(target, nil, apiscenario.MustArg(e.t, d, "task"))
	if err != nil {
		return apiscenario.Failure(err)
	}
	return apiscenario.PauseState(s)
}

// pause alloc= task= state=: sets the task's pause state (API-2).
func (e *agentEnv) handlePause(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "task", "state")
	target := &api.Allocation{ID: e.allocID(apiscenario.MustArg(e.t, d, "alloc"))}
	return apiscenario.Result(e.c.Allocations().SetPauseState(target, nil, apiscenario.MustArg(e.t, d, "task"), apiscenario.MustArg(e.t, d, "state")))
}
