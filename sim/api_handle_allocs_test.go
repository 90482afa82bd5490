package sim_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// queryOptions are the region= and namespace= of a read (API-1 accepts
// both), nil if neither is given.
func (e *apiEnv) queryOptions(d *datadriven.TestData) *api.QueryOptions {
	if !d.HasArg("region") && !d.HasArg("namespace") {
		return nil
	}
	return &api.QueryOptions{Region: arg(e.t, d, "region", ""), Namespace: arg(e.t, d, "namespace", "")}
}

// info alloc= [meta] [region=] [namespace=]: what `alloc status` prints
// of the alloc and each task; meta adds the query's index headers.
func (e *apiEnv) handleInfo(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc", "meta", "region", "namespace")
	id := e.allocID(mustArg(e.t, d, "alloc"))
	q := e.queryOptions(d)
	var a *api.Allocation
	var meta *api.QueryMeta
	if err := e.do(func() (err error) {
		a, meta, err = e.c.Allocations().Info(id, q)
		return err
	}); err != nil {
		return failure(err)
	}
	version := "<nil>"
	if a.Job != nil && a.Job.Version != nil {
		version = fmt.Sprint(*a.Job.Version)
	}
	out := []string{fmt.Sprintf("%s client=%s desired=%s alloc_modify_index=%d eval=%s job_version=%s node_name=%q",
		a.ID, a.ClientStatus, a.DesiredStatus, a.AllocModifyIndex, a.EvalID, version, a.NodeName)}
	if d.HasArg("meta") {
		out = append(out, fmt.Sprintf("  modify_index=%d last_index=%d known_leader=%t last_contact=%v",
			a.ModifyIndex, meta.LastIndex, meta.KnownLeader, meta.LastContact))
	}
	for _, name := range slices.Sorted(maps.Keys(a.TaskStates)) {
		s := a.TaskStates[name]
		line := fmt.Sprintf("  %s state=%s restarts=%d failed=%t", name, s.State, s.Restarts, s.Failed)
		if c := taskSchedule(a, name); c != nil {
			line += fmt.Sprintf(" schedule=(%s, %s, %s)", c.Start, c.End, c.Timezone)
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// taskSchedule is the cron of the alloc's task in the alloc's job.
func taskSchedule(a *api.Allocation, task string) *api.TaskScheduleCron {
	if a.Job == nil {
		return nil
	}
	for _, tg := range a.Job.TaskGroups {
		if tg.Name == nil || *tg.Name != a.TaskGroup {
			continue
		}
		for _, tk := range tg.Tasks {
			if tk.Name == task && tk.Schedule != nil {
				return tk.Schedule.Cron
			}
		}
	}
	return nil
}

// events alloc= [task=]: the task events read through the API that no
// earlier events directive printed, per task (eventLine).
func (e *apiEnv) handleEvents(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc", "task")
	id := e.allocID(mustArg(e.t, d, "alloc"))
	only := arg(e.t, d, "task", "")
	var a *api.Allocation
	if err := e.do(func() (err error) {
		a, _, err = e.c.Allocations().Info(id, nil)
		return err
	}); err != nil {
		return failure(err)
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(a.TaskStates)) {
		if only != "" && name != only {
			continue
		}
		key := id + "/" + name
		for _, ev := range e.shown[key].unseen(name, a.TaskStates[name].Events) {
			line := eventLine(name, ev)
			out = append(out, line)
			e.shown[key] = shownEvent{ev.Time, line}
		}
	}
	if len(out) == 0 {
		return "no new events"
	}
	return strings.Join(out, "\n")
}

// shownEvent is the last event an events directive printed of a task.
type shownEvent struct {
	time int64
	line string
}

// unseen is the part of events after the last one printed. A task keeps
// only its latest events (the client drops the oldest), so the last one
// printed is found by its line, or else by its time.
func (s shownEvent) unseen(task string, events []*api.TaskEvent) []*api.TaskEvent {
	if s.line == "" {
		return events
	}
	for i := len(events) - 1; i >= 0; i-- {
		if eventLine(task, events[i]) == s.line {
			return events[i+1:]
		}
	}
	i := 0
	for i < len(events) && events[i].Time <= s.time {
		i++
	}
	return events[i:]
}

// eventLine prints one task event:
// "<task> <time> <type> <display message> [<detail>=<value>...]".
func eventLine(task string, ev *api.TaskEvent) string {
	line := fmt.Sprintf("%s %s %s %s", task, at(ev.Time), ev.Type, ev.DisplayMessage)
	for _, k := range slices.Sorted(maps.Keys(ev.Details)) {
		line += fmt.Sprintf(" %s=%s", k, ev.Details[k])
	}
	return line
}

// prefix-list prefix=: the allocs whose ID has the prefix (API-5), each
// checked for it.
func (e *apiEnv) handlePrefixList(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "prefix")
	prefix := e.expand(d, mustArg(e.t, d, "prefix"))
	var stubs []*api.AllocationListStub
	if err := e.do(func() (err error) {
		stubs, _, err = e.c.Allocations().PrefixList(prefix)
		return err
	}); err != nil {
		return failure(err)
	}
	out := stubLines(stubs)
	for _, s := range stubs {
		if !strings.HasPrefix(s.ID, prefix) {
			out += fmt.Sprintf("\n%s does not have the prefix", s.ID)
		}
	}
	return out
}

// get-pause alloc= task= [region=] [namespace=]: the task's pause state
// (API-3); "" prints as "".
func (e *apiEnv) handleGetPause(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc", "task", "region", "namespace")
	target := &api.Allocation{ID: e.allocID(mustArg(e.t, d, "alloc"))}
	task, q := mustArg(e.t, d, "task"), e.queryOptions(d)
	var s string
	if err := e.do(func() (err error) {
		s, _, err = e.c.Allocations().GetPauseState(target, q, task)
		return err
	}); err != nil {
		return failure(err)
	}
	if s == "" {
		return `""`
	}
	return s
}

// pause alloc= task= state=: sets the task's pause state (API-2).
func (e *apiEnv) handlePause(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc", "task", "state")
	target := &api.Allocation{ID: e.allocID(mustArg(e.t, d, "alloc"))}
	task, state := mustArg(e.t, d, "task"), mustArg(e.t, d, "state")
	return result(e.do(func() error {
		return e.c.Allocations().SetPauseState(target, nil, task, state)
	}))
}

// signal alloc= [task=] signal=: signals one task, or every task (API-6).
func (e *apiEnv) handleSignal(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc", "task", "signal")
	target := &api.Allocation{ID: e.allocID(mustArg(e.t, d, "alloc"))}
	task, signal := arg(e.t, d, "task", ""), mustArg(e.t, d, "signal")
	return result(e.do(func() error {
		return e.c.Allocations().Signal(target, nil, task, signal)
	}))
}

// restart alloc= [task=]: restarts one task, or every running one.
func (e *apiEnv) handleRestart(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc", "task")
	target := &api.Allocation{ID: e.allocID(mustArg(e.t, d, "alloc"))}
	task := arg(e.t, d, "task", "")
	return result(e.do(func() error {
		return e.c.Allocations().Restart(target, task, nil)
	}))
}

// stop alloc=: stops the alloc (`alloc stop`); prints its evaluation.
func (e *apiEnv) handleStop(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc")
	target := &api.Allocation{ID: e.allocID(mustArg(e.t, d, "alloc"))}
	var resp *api.AllocStopResponse
	if err := e.do(func() (err error) {
		resp, err = e.c.Allocations().Stop(target, nil)
		return err
	}); err != nil {
		return failure(err)
	}
	return "eval=" + resp.EvalID
}
