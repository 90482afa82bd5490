package structs

// Copies that share with an earlier copy. A client pushes an alloc many
// times while little of it changes (one task's state, one new event),
// and its watchers (the simulated world, the sync buffer) deep-copied
// every task state and event of every push: a third of the bytes a
// conformance check allocates. A copy made "reusing" prev, an earlier
// copy of the same alloc that its owner never changes, takes prev's task
// state where the new one equals it in every field, and prev's event
// where an event equals one of prev's in every field; everything else is
// copied. The result is equal, field for field, to a plain copy; it only
// shares memory with prev, so neither may be changed afterwards.

// CopySkipJobReusing is CopySkipJob sharing with prev (see above); a nil
// prev shares nothing.
func (a *Allocation) CopySkipJobReusing(prev *Allocation) *Allocation {
	if a == nil {
		return nil
	}
	if prev == nil {
		return a.CopySkipJob()
	}
	out := *a
	out.TaskStates = copyTaskStatesReusing(a.TaskStates, prev.TaskStates)
	out.DeploymentStatus = a.DeploymentStatus.Copy()
	out.NetworkStatus = a.NetworkStatus.Copy()
	return &out
}

// StrippedReusing is Stripped sharing with prev (see above); a nil prev
// shares nothing.
func (a *Allocation) StrippedReusing(prev *Allocation) *Allocation {
	if prev == nil {
		return a.Stripped()
	}
	return &Allocation{
		ID:                a.ID,
		NodeID:            a.NodeID,
		TaskStates:        copyTaskStatesReusing(a.TaskStates, prev.TaskStates),
		ClientStatus:      a.ClientStatus,
		ClientDescription: a.ClientDescription,
		DeploymentStatus:  a.DeploymentStatus.Copy(),
		NetworkStatus:     a.NetworkStatus.Copy(),
	}
}

// ClientStateReusing is ClientState sharing with prev, an earlier
// ClientState of the same alloc that its owner never changes (see above);
// a nil prev shares nothing.
func (a *Allocation) ClientStateReusing(prev *AllocState) *AllocState {
	if prev == nil {
		return a.ClientState()
	}
	return a.clientStateWith(copyTaskStatesReusing(a.TaskStates, prev.TaskStates))
}

func copyTaskStatesReusing(in, prev map[string]*TaskState) map[string]*TaskState {
	if in == nil {
		return nil
	}
	out := make(map[string]*TaskState, len(in))
	for k, v := range in {
		out[k] = v.copyReusing(prev[k])
	}
	return out
}

// copyReusing is Copy sharing with prev: prev itself when s equals it,
// else a copy holding prev's events where they equal s's.
func (s *TaskState) copyReusing(prev *TaskState) *TaskState {
	if s == nil {
		return nil
	}
	if prev == nil {
		return s.Copy()
	}
	if sameTaskState(s, prev) {
		return prev
	}
	return s.CopySharingEvents(prev)
}

// CopySharingEvents is Copy sharing events with prev, an earlier copy of
// the same task's state that its owner never changes: an event of s that
// equals one of prev's in every field is prev's, every other one is
// copied. The result is always a new TaskState, equal field for field to
// s.Copy(); it only shares memory with prev, so neither may be changed
// afterwards. A nil prev shares nothing.
func (s *TaskState) CopySharingEvents(prev *TaskState) *TaskState {
	if s == nil {
		return nil
	}
	if prev == nil {
		return s.Copy()
	}
	out := *s
	if s.Events == nil {
		return &out
	}
	out.Events = make([]*TaskEvent, len(s.Events))
	missing := 0
	for i, e := range s.Events {
		if e == nil {
			continue
		}
		// Events are appended, the oldest dropped past MaxTaskEvents: an
		// old event sits where it sat in prev, or one place earlier.
		for _, j := range [2]int{i, i + 1} {
			if j < len(prev.Events) && e.SameJSON(prev.Events[j]) {
				out.Events[i] = prev.Events[j]
				break
			}
		}
		if out.Events[i] == nil {
			missing++
		}
	}
	if missing > 0 {
		// The new events are allocated together, as Copy does.
		events := make([]TaskEvent, 0, missing)
		for i, e := range s.Events {
			if e != nil && out.Events[i] == nil {
				events = events[:len(events)+1]
				e.copyTo(&events[len(events)-1])
				out.Events[i] = &events[len(events)-1]
			}
		}
	}
	return &out
}

// sameTaskState reports whether a copy of s would equal t in every field
// (times compared as values, not instants: a copy keeps their location).
func sameTaskState(s, t *TaskState) bool {
	if s.State != t.State || s.Failed != t.Failed || s.Restarts != t.Restarts ||
		s.LastRestart != t.LastRestart || s.StartedAt != t.StartedAt || s.FinishedAt != t.FinishedAt ||
		s.Paused != t.Paused || (s.Events == nil) != (t.Events == nil) || len(s.Events) != len(t.Events) {
		return false
	}
	for i, e := range s.Events {
		if !e.SameJSON(t.Events[i]) {
			return false
		}
	}
	return true
}
