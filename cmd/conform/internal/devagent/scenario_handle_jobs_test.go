package devagent

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// register [job=] [type=], one task per input line: prints the
// evaluation, or the error.
func (e *agentEnv) handleRegister(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "job", "type")
	resp, _, err := e.c.Jobs().Register(parseJob(e.t, d), nil)
	if err != nil {
		return failure(err)
	}
	out := "eval=" + resp.EvalID
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
		if d.Input != "" || d.HasArg("type") {
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
	for line := range strings.SplitSeq(d.Input, "\n") {
		if strings.TrimSpace(line) != "" {
			tg.AddTask(parseTask(t, d, line))
		}
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
			start, end := a.Vals[0], a.Vals[1]
			if v, ok := strings.CutPrefix(start, "now"); ok {
				s := fromNow(t, d, v)
				start = fmt.Sprintf("%d %d * * * *", s.Minute(), s.Hour())
			}
			if v, ok := strings.CutPrefix(end, "now"); ok {
				e := fromNow(t, d, v)
				end = fmt.Sprintf("%d %d", e.Minute(), e.Hour())
			}
			task.Schedule = &api.TaskSchedule{Cron: &api.TaskScheduleCron{Start: start, End: end, Timezone: a.Vals[2]}}
		default:
			if task.Config == nil {
				task.Config = map[string]any{}
			}
			task.Config[a.Key] = configValue(line, a)
		}
	}
	return task
}

// fromNow is the wall-clock instant, in UTC, of an offset such as "-1m".
func fromNow(t *testing.T, d *datadriven.TestData, offset string) time.Time {
	t.Helper()
	off, err := time.ParseDuration(offset)
	if err != nil {
		d.Fatalf(t, "schedule: now%s: %v", offset, err)
	}
	return time.Now().UTC().Add(off)
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
func (e *agentEnv) handleAllocs(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "job", "all")
	stubs, _, err := e.c.Jobs().Allocations(mustArg(e.t, d, "job"), d.HasArg("all"), nil)
	if err != nil {
		return failure(err)
	}
	if stubs == nil {
		return "null"
	}
	if len(stubs) == 0 {
		return "[]"
	}
	var out []string
	for _, s := range stubs {
		out = append(out, fmt.Sprintf("%s %s desired=%s", s.ID, s.Name, s.DesiredStatus))
	}
	return strings.Join(out, "\n")
}
