package apiscenario

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// Arg returns the value of key, or def if the directive does not give it.
func Arg(t testing.TB, d *datadriven.TestData, key, def string) string {
	t.Helper()
	a, ok := d.Arg(key)
	if !ok {
		return def
	}
	return a.SingleVal(t)
}

// MustArg returns the value of key, which the directive must give.
func MustArg(t testing.TB, d *datadriven.TestData, key string) string {
	t.Helper()
	a, ok := d.Arg(key)
	if !ok {
		d.Fatalf(t, "%s: missing argument %s", d.Cmd, key)
	}
	return a.SingleVal(t)
}

// OnlyArgs fails on an argument the command does not take (a typo would
// otherwise be a silently different scenario).
func OnlyArgs(t testing.TB, d *datadriven.TestData, keys ...string) {
	t.Helper()
	for _, a := range d.CmdArgs {
		if !slices.Contains(keys, a.Key) {
			d.Fatalf(t, "%s: unknown argument %q (takes %s)", d.Cmd, a.Key, strings.Join(keys, ", "))
		}
	}
}

// Walk runs f on each scenario file under dir (datadriven.Walk), each in
// a subtest named after the file; a failed one logs the command that
// runs it alone and how to accept new output. pkg is the package as go
// test takes it ("./sim/").
func Walk(t *testing.T, pkg, dir string, f func(t *testing.T, name, path string)) {
	t.Helper()
	top := t.Name()
	datadriven.Walk(t, dir, func(t *testing.T, path string) {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("To reproduce: go test %s -run '^%s$/^%s$' -v\n"+
					"To accept new output: the same with -rewrite, then read the diff of %s", pkg, top, name, path)
			}
		})
		f(t, name, path)
	})
}

// Commands is a suite's command table: each command's handler, by name,
// on the suite's environment E.
type Commands[E any] map[string]func(E, *datadriven.TestData) string

// Run runs directive d on env with its command's handler. Until started,
// start is the only command; an unknown command fails the test.
func (c Commands[E]) Run(t testing.TB, env E, d *datadriven.TestData, started bool) string {
	t.Helper()
	if !started && d.Cmd != "start" {
		d.Fatalf(t, "%s: start first", d.Cmd)
	}
	h, ok := c[d.Cmd]
	if !ok {
		d.Fatalf(t, "unknown command %q", d.Cmd)
	}
	return h(env, d)
}

// Until is the condition of a run-until directive,
//
//	run-until alloc=<alloc> [task=<task>] [status=<s>|(<s>, ...)]
//	          [state=<task state>] [events=<n> [type=<event type>]] [within=<d>]
//
// on an alloc: every condition given holds. How long to wait (within=)
// is the caller's: sim's on virtual time, the dev agent's on the wall
// clock.
type Until struct {
	Alloc    string   // the alloc argument, unresolved (Labels.AllocID)
	Task     string   // "": no condition on a task
	Statuses []string // the client status is one of these; none: any
	State    string   // the task's state; "": any
	Events   int      // at least this many events of the task; -1: any
	Type     string   // of this type only, when not ""
}

// ParseUntil reads a run-until directive's condition.
func ParseUntil(t testing.TB, d *datadriven.TestData) Until {
	t.Helper()
	OnlyArgs(t, d, "alloc", "task", "status", "state", "events", "type", "within")
	u := Until{
		Alloc: MustArg(t, d, "alloc"), Task: Arg(t, d, "task", ""),
		State: Arg(t, d, "state", ""), Events: -1, Type: Arg(t, d, "type", ""),
	}
	if a, ok := d.Arg("status"); ok {
		u.Statuses = a.Vals
	}
	if v := Arg(t, d, "events", ""); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			d.Fatalf(t, "events: %v", err)
		}
		u.Events = n
	}
	if (u.State != "" || u.Events >= 0) && u.Task == "" {
		d.Fatalf(t, "run-until: state= and events= need task=")
	}
	return u
}

// Met reports whether a server's view of an alloc meets u.
func (u Until) Met(a *structs.Allocation) bool {
	s := a.TaskStates[u.Task]
	if s == nil {
		return u.met(a.ClientStatus, false, "", 0)
	}
	return u.met(a.ClientStatus, true, s.State, ofType(u.Type, s.Events, func(ev *structs.TaskEvent) string { return ev.Type }))
}

// MetAPI reports whether an alloc read through the API meets u.
func (u Until) MetAPI(a *api.Allocation) bool {
	s := a.TaskStates[u.Task]
	if s == nil {
		return u.met(a.ClientStatus, false, "", 0)
	}
	return u.met(a.ClientStatus, true, s.State, ofType(u.Type, s.Events, func(ev *api.TaskEvent) string { return ev.Type }))
}

// ofType is how many of events have type typ (as typeOf reads it); all
// of them if typ is "".
func ofType[E any](typ string, events []E, typeOf func(E) string) int {
	n := 0
	for _, ev := range events {
		if typ == "" || typeOf(ev) == typ {
			n++
		}
	}
	return n
}

// met reports whether an alloc of that client status meets u, its task
// u.Task (if found) being in state with n events that count.
func (u Until) met(status string, found bool, state string, n int) bool {
	if len(u.Statuses) > 0 && !slices.Contains(u.Statuses, status) {
		return false
	}
	if u.Task == "" {
		return true
	}
	if !found || u.State != "" && state != u.State {
		return false
	}
	return n >= u.Events
}

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
