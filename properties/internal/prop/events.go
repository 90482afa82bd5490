package prop

import "github.com/allocsim/allocsim/model/structs"

// TaskKey names one task of one alloc.
type TaskKey struct{ Alloc, Task string }

// SeenEvent is one task event a runner appended, with the task's state
// as pushed at that instant.
type SeenEvent struct {
	Key   TaskKey
	Event *structs.TaskEvent
	State *structs.TaskState
}

// EventFeed turns what the runners pushed at each settled instant into
// the task events appended since the previous instant (the full events,
// unlike the trace's summary), and keeps every task's whole event
// history. A task pushed without events (a fresh incarnation's first
// push) keeps the events seen before.
type EventFeed struct {
	last    map[TaskKey][]*structs.TaskEvent
	History map[TaskKey][]*structs.TaskEvent
}

// NewEventFeed returns an empty feed.
func NewEventFeed() *EventFeed {
	return &EventFeed{last: map[TaskKey][]*structs.TaskEvent{}, History: map[TaskKey][]*structs.TaskEvent{}}
}

// Next returns the events appended since the previous call: allocs by
// ID, tasks by name, events in list order (structs.AppendedEvents).
func (f *EventFeed) Next(v *View) []SeenEvent {
	var out []SeenEvent
	for _, a := range v.Allocs() {
		for _, name := range structs.SortedTaskNames(a.TaskStates) {
			ts := a.TaskStates[name]
			if ts == nil {
				continue
			}
			k := TaskKey{a.ID, name}
			for _, e := range structs.AppendedEvents(f.last[k], ts.Events) {
				out = append(out, SeenEvent{Key: k, Event: e, State: ts})
				f.History[k] = append(f.History[k], e)
			}
			if len(ts.Events) > 0 {
				f.last[k] = ts.Events
			}
		}
	}
	return out
}
