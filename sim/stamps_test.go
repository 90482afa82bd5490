package sim

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestStampsOfSharedEvents: an event the world's copy shares with the
// previous push's was counted then and is not new; the same event held
// twice is (a runner pushed a second, equal event), and an event of its
// time pushed an instant later is a late push (SYNC-1).
func TestStampsOfSharedEvents(t *testing.T) {
	t0 := time.Date(2024, 6, 14, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Second)
	ev := &structs.TaskEvent{Type: structs.TaskStarted, Time: t0.UnixNano()}
	first := &structs.TaskState{State: structs.TaskStateRunning, Events: []*structs.TaskEvent{ev}}
	push := func(w *World, s *taskStamps, ts, prev *structs.TaskState, now time.Time) {
		w.checkTaskStamps(s, "a1", "web", ts, prev, pushStamps{now: now, incStart: t0, runStart: t0, inc: 1})
	}

	w := &World{}
	s := &taskStamps{events: map[stampEvent]int{}}
	push(w, s, first, nil, t0)
	shared := &structs.TaskState{State: structs.TaskStateRunning, Events: []*structs.TaskEvent{ev}}
	push(w, s, shared, first, t1)
	must.EqOp(t, 0, w.stamps[stampLate].count, must.Sprint("a shared event is not new"))

	w = &World{}
	s = &taskStamps{events: map[stampEvent]int{}}
	push(w, s, first, nil, t0)
	twice := &structs.TaskState{State: structs.TaskStateRunning, Events: []*structs.TaskEvent{ev, ev}}
	push(w, s, twice, first, t1)
	must.EqOp(t, 1, w.stamps[stampLate].count, must.Sprint("the second of two equal events is new, and late"))

	w = &World{}
	s = &taskStamps{events: map[stampEvent]int{}}
	push(w, s, first, nil, t0)
	equal := *ev
	copied := &structs.TaskState{State: structs.TaskStateRunning, Events: []*structs.TaskEvent{ev, &equal}}
	push(w, s, copied, first, t1)
	must.EqOp(t, 1, w.stamps[stampLate].count, must.Sprint("an equal event not shared is new, and late"))
}
