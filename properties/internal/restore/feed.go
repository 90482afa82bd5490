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
			for _, e := range appended(f.last[k], ts.Events) {
				out = append(out, newEvent{key: k, ev: e})
			}
			if len(ts.Events) > 0 {
				f.last[k] = ts.Events
			}
		}
	}
	return out
}

// appended returns the events of cur after old's last instant, plus
// those at that instant beyond the ones old had there.
func appended(old, cur []*structs.TaskEvent) []*structs.TaskEvent {
	if len(old) == 0 {
		return cur
	}
	last := old[len(old)-1].Time
	sameOld, sameCur := 0, 0
	for _, e := range old {
		if e.Time == last {
			sameOld++
		}
	}
	var out []*structs.TaskEvent
	for _, e := range cur {
		switch {
		case e.Time > last:
			out = append(out, e)
		case e.Time == last:
			sameCur++
			if sameCur > sameOld {
				out = append(out, e)
			}
		}
	}
	return out
}
