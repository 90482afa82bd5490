package devagent

import (
	"time"

	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// register [job=] [type=], one task per input line: prints the
// evaluation, or the error.
func (e *agentEnv) handleRegister(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "job", "type")
	resp, _, err := e.c.Jobs().Register(apiscenario.ParseJob(e.t, d, time.Now), nil)
	if err != nil {
		return apiscenario.Failure(err)
	}
	out := "eval=" + resp.EvalID
	if !apiscenario.IsUUID(resp.EvalID) {
		out += " (the eval ID is not a UUID)"
	}
	return out
}

// allocs job= [all]: the job's allocs, as the CLI lists them (API-5).
func (e *agentEnv) handleAllocs(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "job", "all")
	stubs, _, err := e.c.Jobs().Allocations(apiscenario.MustArg(e.t, d, "job"), d.HasArg("all"), nil)
	if err != nil {
		return apiscenario.Failure(err)
	}
	return apiscenario.StubLines(stubs, func(s *api.AllocationListStub) string { return "desired=" + s.DesiredStatus })
}
