package sim_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// register [job=] [type=] [profile=ce] [restart=(...)], one task per
// input line: prints the evaluation and the indexes, or the error.
func (e *apiEnv) handleRegister(d *datadriven.TestData) string {
	t := e.t
	onlyArgs(t, d, "job", "type", "profile", "restart")
	job := parseJob(t, d)
	c := e.c
	switch p := arg(t, d, "profile", "ent"); p {
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
		return failure(err)
	}
	out := fmt.Sprintf("eval=%s job_modify_index=%d eval_create_index=%d", resp.EvalID, resp.JobModifyIndex, resp.EvalCreateIndex)
	if !isUUID(resp.EvalID) {
		out += " (the eval ID is not a UUID)"
	}
	return out
}

// parseJob builds the job of a register directive: one group "g" of one
// alloc, one task per input line; none at all without job=.
func parseJob(t *testing.T, d *datadriven.TestData) *api.Job {
	t.Helper()
	id := arg(t, d, "job", "")
	if id == "" {
		if d.Input != "" || d.HasArg("type") || d.HasArg("restart") {
			d.Fatalf(t, "register: without job= the job is empty: no other argument, no task")
		}
		return &api.Job{}
	}
	var job *api.Job
	switch typ := arg(t, d, "type", "service"); typ {
	case "service":
		job = api.NewServiceJob(id, id, "global", 50)
	case "batch":
		job = api.NewBatchJob(id, id, "global", 50)
	default:
		d.Fatalf(t, "type: %q is neither service nor batch", typ)
	}
	tg := api.NewTaskGroup("g", 1)
	if a, ok := d.Arg("restart"); ok {
		if len(a.Vals) != 4 {
			d.Fatalf(t, "restart: want (attempts, interval, delay, mode)")
		}
		attempts, err := strconv.Atoi(a.Vals[0])
		if err != nil {
			d.Fatalf(t, "restart attempts: %v", err)
		}
		interval, err1 := time.ParseDuration(a.Vals[1])
		delay, err2 := time.ParseDuration(a.Vals[2])
		if err1 != nil || err2 != nil {
			d.Fatalf(t, "restart: bad duration in %v", a.Vals)
		}
		tg.RestartPolicy = &api.RestartPolicy{Attempts: &attempts, Interval: &interval, Delay: &delay, Mode: &a.Vals[3]}
	}
	for line := range strings.SplitSeq(d.Input, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		tg.AddTask(parseTask(t, d, line))
	}
	job.AddTaskGroup(tg)
	return job
}

// parseTask reads one task line: <name> [driver=] [schedule=(start, end,
// zone)] and config: a list in parentheses, a whole number, or a string.
func parseTask(t *testing.T, d *datadriven.TestData, line string) *api.Task {
	t.Helper()
	name, args, err := datadriven.ParseLine(line)
	if err != nil {
		d.Fatalf(t, "task line %q: %v", line, err)
	}
	task := api.NewTask(name, "mock_driver")
	for _, a := range args {
		switch {
		case len(a.Vals) == 0:
			d.Fatalf(t, "task %s: %s has no value", name, a.Key)
		case a.Key == "driver":
			task.Driver = a.Vals[0]
		case a.Key == "schedule":
			if len(a.Vals) != 3 {
				d.Fatalf(t, "task %s: want schedule=(<start>, <end>, <zone>)", name)
			}
			task.Schedule = &api.TaskSchedule{Cron: &api.TaskScheduleCron{Start: a.Vals[0], End: a.Vals[1], Timezone: a.Vals[2]}}
		default:
			if task.Config == nil {
				task.Config = map[string]any{}
			}
			task.Config[a.Key] = configValue(line, a)
		}
	}
	return task
}

// configValue is a task config value: a list if written in parentheses,
// else a whole number or a string.
func configValue(line string, a datadriven.CmdArg) any {
	if strings.Contains(line, a.Key+"=(") {
		return a.Vals
	}
	if n, err := strconv.Atoi(a.Vals[0]); err == nil {
		return n
	}
	return a.Vals[0]
}

// allocs job= [all]: the job's allocs, as the CLI lists them (API-5).
func (e *apiEnv) handleAllocs(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "job", "all")
	id := mustArg(e.t, d, "job")
	var stubs []*api.AllocationListStub
	if err := e.do(func() (err error) {
		stubs, _, err = e.c.Jobs().Allocations(id, d.HasArg("all"), nil)
		return err
	}); err != nil {
		return failure(err)
	}
	return stubLines(stubs)
}

// stubLines prints alloc stubs, one a line; [] for none, null for nil.
func stubLines(stubs []*api.AllocationListStub) string {
	if stubs == nil {
		return "null"
	}
	if len(stubs) == 0 {
		return "[]"
	}
	var out []string
	for _, s := range stubs {
		out = append(out, fmt.Sprintf("%s %s create_index=%d client=%s desired=%s", s.ID, s.Name, s.CreateIndex, s.ClientStatus, s.DesiredStatus))
	}
	return strings.Join(out, "\n")
}

// job job=: what `job status` prints of the job itself.
func (e *apiEnv) handleJob(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "job")
	id := mustArg(e.t, d, "job")
	var job *api.Job
	if err := e.do(func() (err error) {
		job, _, err = e.c.Jobs().Info(id, nil)
		return err
	}); err != nil {
		return failure(err)
	}
	return fmt.Sprintf("%s status=%s stop=%t version=%d", *job.ID, deref(job.Status), deref(job.Stop), deref(job.Version))
}

// job-evals job=: the job's evaluations, newest first.
func (e *apiEnv) handleJobEvals(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "job")
	id := mustArg(e.t, d, "job")
	var evals []*api.Evaluation
	if err := e.do(func() (err error) {
		evals, _, err = e.c.Jobs().Evaluations(id, nil)
		return err
	}); err != nil {
		return failure(err)
	}
	var out []string
	for _, ev := range evals {
		out = append(out, evalLine(ev))
	}
	return strings.Join(out, "\n")
}

// deregister job=: stops the job (`job stop`); prints its evaluation.
func (e *apiEnv) handleDeregister(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "job")
	id := mustArg(e.t, d, "job")
	var evalID string
	if err := e.do(func() (err error) {
		evalID, _, err = e.c.Jobs().Deregister(id, false, nil)
		return err
	}); err != nil {
		return failure(err)
	}
	return "eval=" + evalID
}

// eval id=: one evaluation.
func (e *apiEnv) handleEval(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "id")
	ref := mustArg(e.t, d, "id")
	id, ok := e.ids.id(ref)
	if !ok {
		id = ref
	}
	var ev *api.Evaluation
	if err := e.do(func() (err error) {
		ev, _, err = e.c.Evaluations().Info(id, nil)
		return err
	}); err != nil {
		return failure(err)
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
