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
