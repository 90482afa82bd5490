package apiscenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/nomad/api"
)

// EventLog prints task events, each once: it remembers, per alloc and
// task, the last event printed, so that an events directive prints only
// what came after it. The zero value prints events without their time;
// it is ready to use.
type EventLog struct {
	// At prints an event's time (Unix ns) in its line; nil leaves the
	// time out (a wall-clock time is no stable output).
	At func(ns int64) string

	last map[string]shownEvent // by "<alloc ID>/<task>"
}

// shownEvent is the last event printed of a task.
type shownEvent struct {
	time int64
	line string
}

// Unseen prints the events of the alloc's task states (of task only,
// when not "") that no earlier call printed for allocID, one a line,
// tasks in name order; "no new events" if there is none.
func (l *EventLog) Unseen(allocID string, states map[string]*api.TaskState, task string) string {
	if l.last == nil {
		l.last = map[string]shownEvent{}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(states)) {
		if task != "" && name != task {
			continue
		}
		key := allocID + "/" + name
		for _, ev := range l.unseen(l.last[key], name, states[name].Events) {
			line := l.Line(name, ev)
			out = append(out, line)
			l.last[key] = shownEvent{ev.Time, line}
		}
	}
	if len(out) == 0 {
		return "no new events"
	}
	return strings.Join(out, "\n")
}

// unseen is the part of a task's events after last. A task keeps only
// its latest events (the client drops the oldest), so last is found by
// its time and line, or else by its time.
func (l *EventLog) unseen(last shownEvent, task string, events []*api.TaskEvent) []*api.TaskEvent {
	if last.line == "" {
		return events
	}
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Time == last.time && l.Line(task, events[i]) == last.line {
			return events[i+1:]
		}
	}
	i := 0
	for i < len(events) && events[i].Time <= last.time {
		i++
	}
	return events[i:]
}

// Line prints one task event:
// "<task> [<time>] <type> <display message> [<detail>=<value>...]", the
// time if l.At is set, the details in key order.
func (l *EventLog) Line(task string, ev *api.TaskEvent) string {
	line := task
	if l.At != nil {
		line += " " + l.At(ev.Time)
	}
	line += fmt.Sprintf(" %s %s", ev.Type, ev.DisplayMessage)
	for _, k := range slices.Sorted(maps.Keys(ev.Details)) {
		line += fmt.Sprintf(" %s=%s", k, ev.Details[k])
	}
	return line
}
