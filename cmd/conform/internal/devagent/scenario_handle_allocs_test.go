package devagent

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// run-until alloc= [task=] [status=] [state=] [events= [type=]] [within=]:
// polls the alloc through the API until it meets every condition.
func (e *agentEnv) handleRunUntil(d *datadriven.TestData) string {
	t := e.t
	onlyArgs(t, d, "alloc", "task", "status", "state", "events", "type", "within")
	id := e.allocID(mustArg(t, d, "alloc"))
	task := arg(t, d, "task", "")
	var statuses []string
	if a, ok := d.Arg("status"); ok {
		statuses = a.Vals
	}
	state, typ := arg(t, d, "state", ""), arg(t, d, "type", "")
	events := -1
	if v := arg(t, d, "events", ""); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			d.Fatalf(t, "events: %v", err)
		}
		events = n
	}
	if (state != "" || events >= 0) && task == "" {
		d.Fatalf(t, "run-until: state= and events= need task=")
	}
	met := func(a *api.Allocation) bool {
		if len(statuses) > 0 && !slices.Contains(statuses, a.ClientStatus) {
			return false
		}
		if task == "" {
			return true
		}
		s := a.TaskStates[task]
		if s == nil || state != "" && s.State != state {
			return false
		}
		n := 0
		for _, ev := range s.Events {
			if typ == "" || ev.Type == typ {
				n++
			}
		}
		return n >= events
	}
	limit := within(t, d)
	var a *api.Allocation
	for deadline := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		var err error
		a, _, err = e.c.Allocations().Info(id, nil)
		if err == nil && met(a) {
			return "reached"
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Sprintf("not within %v: %s", limit, failure(err))
			}
			return fmt.Sprintf("not within %v: client=%s", limit, a.ClientStatus)
		}
	}
}

// shownEvent is the last event an events directive printed of a task.
type shownEvent struct {
	time int64
	line string
}

// unseen is the part of events after the last one printed. A task keeps
// only its latest events (the client drops the oldest), so the last one
// printed is found by its time and line, or else by its time.
func (s shownEvent) unseen(task string, events []*api.TaskEvent) []*api.TaskEvent {
	if s.line == "" {
		return events
	}
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Time == s.time && eventLine(task, events[i]) == s.line {
			return events[i+1:]
		}
	}
	i := 0
	for i < len(events) && events[i].Time <= s.time {
		i++
	}
	return events[i:]
}

// eventLine prints one task event without its (wall-clock) time:
// "<task> <type> <display message> [<detail>=<value>...]".
func eventLine(task string, ev *api.TaskEvent) string {
	line := fmt.Sprintf("%s %s %s", task, ev.Type, ev.DisplayMessage)
	for _, k := range slices.Sorted(maps.Keys(ev.Details)) {
		line += fmt.Sprintf(" %s=%s", k, ev.Details[k])
	}
	return line
}

// events alloc= [task=]: the task events that no earlier events
// directive printed, per task (eventLine).
func (e *agentEnv) handleEvents(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc", "task")
	id := e.allocID(mustArg(e.t, d, "alloc"))
	only := arg(e.t, d, "task", "")
	a, _, err := e.c.Allocations().Info(id, nil)
	if err != nil {
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

// get-pause alloc= task=: the task's pause state (API-3); "" prints as "".
func (e *agentEnv) handleGetPause(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc", "task")
	target := &api.Allocation{ID: e.allocID(mustArg(e.t, d, "alloc"))}
	s, _, err := e.c.Allocations().GetPauseState(target, nil, mustArg(e.t, d, "task"))
	if err != nil {
		return failure(err)
	}
	if s == "" {
		return `""`
	}
	return s
}

// pause alloc= task= state=: sets the task's pause state (API-2).
func (e *agentEnv) handlePause(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "alloc", "task", "state")
	target := &api.Allocation{ID: e.allocID(mustArg(e.t, d, "alloc"))}
	return result(e.c.Allocations().SetPauseState(target, nil, mustArg(e.t, d, "task"), mustArg(e.t, d, "state")))
}
