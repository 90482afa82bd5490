package syncing

import (
	"strconv"

	"github.com/allocsim/allocsim/model/structs"
)

func itoa(i int) string { return strconv.Itoa(i) }

// lastEvent is the newest event's time (Unix ns), 0 without events.
func lastEvent(evs []*structs.TaskEvent) int64 {
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Time
}

// readAllocs remembers, per alloc, the value View.Allocs handed out when
// a check last read its state: the world hands out the same value until
// a runner pushes that alloc again, so a check that has read it need not
// copy and compare its state again. The zero value is ready to use.
type readAllocs struct {
	last map[string]*structs.Allocation
}

// unchanged reports whether a is the value read last time, and remembers
// it as read.
func (r *readAllocs) unchanged(a *structs.Allocation) bool {
	if r.last[a.ID] == a {
		return true
	}
	if r.last == nil {
		r.last = map[string]*structs.Allocation{}
	}
	r.last[a.ID] = a
	return false
}
