package restore

import "github.com/allocsim/allocsim/properties/internal/prop"

// loadable is what the state DB held for the next restore: the node's
// allocs whose `alloc` entry decodes and that have a `task_state` of one
// of their group's tasks, the ones STATE-3 (1) and (2) hand to a runner's
// Restore. The trace cannot tell it: it orders one instant's records by
// kind, alloc and op, so a failed restore's Destroy, which kills the
// tasks (a task_state put) and deletes the bucket last, reads the same
// as a delete followed by a put. The storage itself can: nothing writes
// it while the client is down (a crash closes the incarnation's handle
// before its Shutdown; a stop's Shutdown returns before the client
// counts as down), so what it holds at a settled instant while down is
// what the next restore loads.
type loadable struct {
	held  map[string]bool // alloc → loaded with task state by the next restore
	taken bool            // held was read in this down period
}

// settled reads the storage at the first settled instant of a down
// period; call it once an instant's records are handled.
func (l *loadable) settled(v *prop.View) {
	if _, up := v.World.Incarnation(); up || l.taken {
		return
	}
	l.taken, l.held = true, map[string]bool{}
	for _, id := range v.World.Server().NodeAllocIDs(v.World.NodeID()) {
		l.held[id] = withTaskState(v, id)
	}
}

// started ends the down period at a client start and hands over the
// allocs its restore loads with task state. A start with no down
// instant before it (the first one, on an empty storage, or a restart
// in the instant of the crash, which no draw of this package makes)
// loads none that the checker knows of.
func (l *loadable) started() map[string]bool {
	held := l.held
	if !l.taken {
		held = nil
	}
	l.taken, l.held = false, nil
	return held
}

// withTaskState reports whether the storage holds alloc id's `alloc`
// entry and a `task_state` of one of its group's tasks. A read error
// counts as none: the checker then judges nothing of the alloc.
func withTaskState(v *prop.View, id string) bool {
	a, err := v.World.PersistedAlloc(id)
	if err != nil || a.LookupTaskGroup() == nil {
		return false
	}
	for _, t := range a.LookupTaskGroup().Tasks {
		if t == nil {
			continue
		}
		if ts, err := v.World.PersistedTaskState(id, t.Name); err == nil && ts != nil {
			return true
		}
	}
	return false
}
