package apiscenario

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// ParseJob builds the job of a register directive,
//
//	register [job=<id>] [type=service|batch] [restart=(<attempts>, <interval>, <delay>, <mode>)]
//	<task> [driver=<driver>] [schedule=(<start>, <end>, <zone>)] [<config key>=<value>]...
//
// one group "g" of one alloc, one task per input line (parseTask); no
// job at all without job=. The caller checks which arguments its
// register takes (OnlyArgs).
//
// With now, a schedule may be relative to it (parseTask): the dev agent
// runs on the wall clock; sim passes nil, and "now" is then no word of
// the syntax.
func ParseJob(t testing.TB, d *datadriven.TestData, now func() time.Time) *api.Job {
	t.Helper()
	id := Arg(t, d, "job", "")
	if id == "" {
		if d.Input != "" || d.HasArg("type") || d.HasArg("restart") {
			d.Fatalf(t, "register: without job= the job is empty: no other argument, no task")
		}
		return &api.Job{}
	}
	var job *api.Job
	switch typ := Arg(t, d, "type", "service"); typ {
	case "service":
		job = api.NewServiceJob(id, id, "global", 50)
	case "batch":
		job = api.NewBatchJob(id, id, "global", 50)
	default:
		d.Fatalf(t, "type: %q is neither service nor batch", typ)
	}
	tg := api.NewTaskGroup("g", 1)
	if a, ok := d.Arg("restart"); ok {
		tg.RestartPolicy = restartPolicy(t, d, a)
	}
	for line := range strings.SplitSeq(d.Input, "\n") {
		if strings.TrimSpace(line) != "" {
			tg.AddTask(parseTask(t, d, line, now))
		}
	}
	job.AddTaskGroup(tg)
	return job
}

// restartPolicy reads restart=(<attempts>, <interval>, <delay>, <mode>).
func restartPolicy(t testing.TB, d *datadriven.TestData, a datadriven.CmdArg) *api.RestartPolicy {
	t.Helper()
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
	return &api.RestartPolicy{Attempts: &attempts, Interval: &interval, Delay: &delay, Mode: &a.Vals[3]}
}

// parseTask reads one task line: <name> [driver=] (mock_driver unless
// given) [schedule=(start, end, zone)] and config: a list in parentheses,
// a whole number, or a string. With now, a schedule's start or end may be
// now<offset>: schedule=(now-1m, now+2h, UTC) is a window that opened at
// the start of the previous minute and closes two hours from now.
func parseTask(t testing.TB, d *datadriven.TestData, line string, now func() time.Time) *api.Task {
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
			if now != nil {
				if v, ok := strings.CutPrefix(start, "now"); ok {
					s := fromNow(t, d, now, v)
					start = fmt.Sprintf("%d %d * * * *", s.Minute(), s.Hour())
				}
				if v, ok := strings.CutPrefix(end, "now"); ok {
					e := fromNow(t, d, now, v)
					end = fmt.Sprintf("%d %d", e.Minute(), e.Hour())
				}
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

// fromNow is the instant, in UTC, of an offset from now such as "-1m".
func fromNow(t testing.TB, d *datadriven.TestData, now func() time.Time, offset string) time.Time {
	t.Helper()
	off, err := time.ParseDuration(offset)
	if err != nil {
		d.Fatalf(t, "schedule: now%s: %v", offset, err)
	}
	return now().UTC().Add(off)
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
