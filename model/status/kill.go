package status

import (
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/structs"
)

// Kill is the kill rule that applies to a group (AR-9): the event type
// every recipient gets and the live tasks that get it, all of which are
// then killed in KillOrder.
type Kill struct {
	// Type is structs.TaskLeaderDead, structs.TaskSiblingFailed or
	// structs.TaskMainDead.
	Type string
	// FailedSibling names the first failed task by name (Sibling Task
	// Failed only).
	FailedSibling string
	// Recipients are the live non-poststop tasks, in kill order.
	Recipients []string
}

// Event returns the kill event at instant at, with its FailedSibling for
// Sibling Task Failed (DATA-7, DATA-8).
func (k Kill) Event(at time.Time) *structs.TaskEvent {
	ev := structs.NewTaskEvent(k.Type, at)
	if k.Type == structs.TaskSiblingFailed {
		ev.SetFailedSibling(k.FailedSibling)
	}
	return ev
}

// KillRule reports which AR-9 kill rule applies to a group's tasks given
// their current states, if any. A task without a state is live (pending).
// Poststop tasks are ignored; paused tasks are pending, hence live, and
// trigger nothing (PAUSE-8). A dead non-failed leader wins over a failed
// task ("instead"); Main Tasks Dead needs at least one non-sidecar task,
// all of them dead, and a live sidecar.
func KillRule(tasks []*structs.Task, states map[string]*structs.TaskState) (Kill, bool) {
	var (
		live, failedNames          []string
		leaderDead, nonSidecarLive bool
		nonSidecars                int
	)
	for _, t := range byName(tasks) {
		if t.IsPoststop() {
			continue
		}
		if !t.IsSidecar() {
			nonSidecars++
		}
		s := states[t.Name]
		if s == nil || s.State != structs.TaskStateDead {
			live = append(live, t.Name)
			if !t.IsSidecar() {
				nonSidecarLive = true
			}
			continue
		}
		switch {
		case s.Failed:
			failedNames = append(failedNames, t.Name)
		case t.Leader:
			leaderDead = true
		}
	}
	if len(live) == 0 {
		return Kill{}, false
	}
	recipients := inKillOrder(tasks, live)
	switch {
	case leaderDead:
		return Kill{Type: structs.TaskLeaderDead, Recipients: recipients}, true
	case len(failedNames) > 0:
		return Kill{Type: structs.TaskSiblingFailed, FailedSibling: failedNames[0], Recipients: recipients}, true
	case nonSidecars > 0 && !nonSidecarLive:
		return Kill{Type: structs.TaskMainDead, Recipients: recipients}, true
	}
	return Kill{}, false
}

// KillPhases is the AR-9 kill order of a group: the leader first
// (synchronously), then the other non-sidecar, non-poststop tasks, then
// the sidecars. Poststop tasks are in no phase. Names ascend within a
// phase (DET-2).
type KillPhases struct {
	Leader   []string
	Main     []string
	Sidecars []string
}

// All returns the phases concatenated.
func (p KillPhases) All() []string {
	return slices.Concat(p.Leader, p.Main, p.Sidecars)
}

// KillOrder returns the group's kill phases (AR-9). A leader is in the
// leader phase even if it is a sidecar.
func KillOrder(tasks []*structs.Task) KillPhases {
	var p KillPhases
	for _, t := range byName(tasks) {
		switch {
		case t.IsPoststop():
		case t.Leader:
			p.Leader = append(p.Leader, t.Name)
		case t.IsSidecar():
			p.Sidecars = append(p.Sidecars, t.Name)
		default:
			p.Main = append(p.Main, t.Name)
		}
	}
	return p
}

// inKillOrder filters the group's kill order to names.
func inKillOrder(tasks []*structs.Task, names []string) []string {
	var out []string
	for _, n := range KillOrder(tasks).All() {
		if slices.Contains(names, n) {
			out = append(out, n)
		}
	}
	return out
}

// byName returns the non-nil tasks sorted by name (DET-2).
func byName(tasks []*structs.Task) []*structs.Task {
	out := make([]*structs.Task, 0, len(tasks))
	for _, t := range tasks {
		if t != nil {
			out = append(out, t)
		}
	}
	slices.SortStableFunc(out, func(a, b *structs.Task) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// KillAttempts is how many times AR-6's kill path tries to stop a driver
// task before it gives up (the kill error goes to `Killed`).
const KillAttempts = 5

// KillRetryDelay is AR-6's wait after the i-th failed stop attempt (i
// from 0): min(4^i × 5 s, 2 m).
func KillRetryDelay(i int) time.Duration {
	const base, most = 5 * time.Second, 2 * time.Minute
	d := base
	for range i {
		d *= 4
		if d >= most {
			return most
		}
	}
	return d
}
