package sim_test

import (
	"fmt"
	"strings"

	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// register [job=] [type=] [profile=ce] [restart=(...)], one task per
// input line: prints the evaluation and the indexes, or the error.
func (e *apiEnv) handleRegister(d *datadriven.TestData) string {
	t := e.t
	apiscenario.OnlyArgs(t, d, "job", "type", "profile", "restart")
	job := apiscenario.ParseJob(t, d, nil)
	c := e.c
	switch p := apiscenario.Arg(t, d, "profile", "ent"); p {
	case "ent":
	case "ce":
		if e.ce == nil {
			e.ce = e.client(schedule.ProfileCE)
		}
		c = e.ce
	default:
		d.Fatalf(t, "profile: %q is neither ent nor ce", p)
	}
	var resp *api.JobRegisterResponse
	if err := e.do(func() (err error) {
		resp, _, err = c.Jobs().Register(job, nil)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	out := fmt.Sprintf("eval=%s job_modify_index=%d eval_create_index=%d", resp.EvalID, resp.JobModifyIndex, resp.EvalCreateIndex)
	if !apiscenario.IsUUID(resp.EvalID) {
		out += " (the eval ID is not a UUID)"
	}
	return out
}

// allocs job= [all]: the job's allocs, as the CLI lists them (API-5).
func (e *apiEnv) handleAllocs(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "job", "all")
	id := apiscenario.MustArg(e.t, d, "job")
	var stubs []*api.AllocationListStub
	if err := e.do(func() (err error) {
		stubs, _, err = e.c.Jobs().Allocations(id, d.HasArg("all"), nil)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	return stubLines(stubs)
}

// stubLines prints alloc stubs as the CLI lists them (apiscenario.StubLines).
func stubLines(stubs []*api.AllocationListStub) string {
	return apiscenario.StubLines(stubs, func(s *api.AllocationListStub) string {
		return fmt.Sprintf("create_index=%d client=%s desired=%s", s.CreateIndex, s.ClientStatus, s.DesiredStatus)
	})
}

// job job=: what `job status` prints of the job itself.
func (e *apiEnv) handleJob(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "job")
	id := apiscenario.MustArg(e.t, d, "job")
	var job *api.Job
	if err := e.do(func() (err error) {
		job, _, err = e.c.Jobs().Info(id, nil)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	return fmt.Sprintf("%s status=%s stop=%t version=%d", *job.ID, deref(job.Status), deref(job.Stop), deref(job.Version))
}

// job-evals job=: the job's evaluations, newest first.
func (e *apiEnv) handleJobEvals(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "job")
	id := apiscenario.MustArg(e.t, d, "job")
	var evals []*api.Evaluation
	if err := e.do(func() (err error) {
		evals, _, err = e.c.Jobs().Evaluations(id, nil)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	var out []string
	for _, ev := range evals {
		out = append(out, evalLine(ev))
	}
	return strings.Join(out, "\n")
}

// deregister job=: stops the job (`job stop`); prints its evaluation.
func (e *apiEnv) handleDeregister(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "job")
	id := apiscenario.MustArg(e.t, d, "job")
	var evalID string
	if err := e.do(func() (err error) {
		evalID, _, err = e.c.Jobs().Deregister(id, false, nil)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	return "eval=" + evalID
}

// eval id=: one evaluation.
func (e *apiEnv) handleEval(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "id")
	ref := apiscenario.MustArg(e.t, d, "id")
	id, ok := e.ids.ID(ref)
	if !ok {
		id = ref
	}
	var ev *api.Evaluation
	if err := e.do(func() (err error) {
		ev, _, err = e.c.Evaluations().Info(id, nil)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	return evalLine(ev)
}

func evalLine(ev *api.Evaluation) string {
	return fmt.Sprintf("%s triggered_by=%s status=%s type=%s job=%s", ev.ID, ev.TriggeredBy, ev.Status, ev.Type, ev.JobID)
}

// deref is *p, or the zero value for nil.
func deref[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}
