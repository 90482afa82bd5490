package restore

import (
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

type key struct{ alloc, task string }

type newEvent struct {
	key key
	ev  *structs.TaskEvent
}

// feed yields the task events appended since the previous settled
// instant, from the pushed allocs (full events). A restored task's
// events are no new events: they are at or before the last instant seen.
type feed struct{ last map[key][]*structs.TaskEvent }

func newFeed() *feed { return &feed{last: map[key][]*structs.TaskEvent{}} }

func (f *feed) next(v *prop.View) []newEvent {
	var out []newEvent
	for _, a := range v.Allocs() {
		for _, name := range structs.SortedTaskNames(a.TaskStates) {
			ts := a.TaskStates[name]
			if ts == nil {
				continue
			}
			k := key{a.ID, name}
			for _, e := range structs.AppendedEvents(f.last[k], ts.Events) {
				out = append(out, newEvent{key: k, ev: e})
			}
			if len(ts.Events) > 0 {
				f.last[k] = ts.Events
			}
		}
	}
	return out
}
