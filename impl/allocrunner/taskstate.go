package allocrunner

import (
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
)

// taskStateUpdated is every task runner's StateUpdated: it wakes the task
// state handler without blocking; several calls before the handler runs
// coalesce into one pass, which reads the newest states.
func (ar *allocRunner) taskStateUpdated() {
	select {
	case ar.taskStateUpdatedCh <- struct{}{}:
	default:
	}
}

// handleTaskStateUpdates runs a pass per wake-up until Run stops it, then
// makes a last pass if a wake-up is pending.
func (ar *allocRunner) handleTaskStateUpdates() {
	defer close(ar.stateHandlerDone)
	for {
		select {
		case <-ar.taskStateUpdatedCh:
			ar.taskStatePass()
		case <-ar.handlersStop:
			select {
			case <-ar.taskStateUpdatedCh:
				ar.taskStatePass()
			default:
			}
			return
		}
	}
}

// taskStatePass reads every task state, applies the AR-9 kill rules,
// opens the start gates whose condition holds, and pushes the computed
// client alloc to the state updater and the listeners (AR-8, SYNC-1).
func (ar *allocRunner) taskStatePass() {
	states := ar.taskStates()
	if ar.applyKillRules(states) {
		states = ar.taskStates()
	}
	ar.updateGates(states)
	ar.push(ar.clientAlloc(states))
}

// push hands a computed client alloc to the state updater and the
// listeners (one copy of it among them, made when one needs it: the
// updater changes nothing of a, interfaces.StateUpdater). It holds no
// runner lock (SYNC-5.5: producers never block).
func (ar *allocRunner) push(a *structs.Allocation) {
	ar.stateUpdater.AllocStateUpdated(a)
	ar.broadcaster.send(a)
}

// taskStates returns every task's published state (SharedTaskState), by
// task name, in a map of the caller's: read the states, never change
// them, and copy them before handing them out (taskStatesCopy). A pass
// copied every task's state before: 6 % of the bytes
// BenchmarkClients100x50 allocated.
func (ar *allocRunner) taskStates() map[string]*structs.TaskState {
	states := make(map[string]*structs.TaskState, len(ar.tasks))
	for _, name := range ar.taskNames {
		if s := ar.tasks[name].SharedTaskState(); s != nil {
			states[name] = s
		}
	}
	return states
}

// taskStatesCopy returns a copy of every task's state, by task name.
func (ar *allocRunner) taskStatesCopy() map[string]*structs.TaskState {
	states := make(map[string]*structs.TaskState, len(ar.tasks))
	for _, name := range ar.taskNames {
		if s := ar.tasks[name].TaskState(); s != nil {
			states[name] = s
		}
	}
	return states
}

// overrideDescriptions are the ClientDescriptions of AR-8, used for a
// status set by SetClientStatus.
var overrideDescriptions = map[string]string{
	structs.AllocClientStatusFailed:   status.DescriptionFailed,
	structs.AllocClientStatusRunning:  status.DescriptionRunning,
	structs.AllocClientStatusPending:  status.DescriptionPending,
	structs.AllocClientStatusComplete: status.DescriptionComplete,
}

// clientState computes the client-side fields from task states (AR-8):
// ClientStatus and ClientDescription by Policies.ClientStatus
// (model/status), a SetClientStatus
// override winning; with no task states the server alloc's are kept. A
// client-terminal alloc gives every task a FinishedAt: a task without one
// gets the instant this runner first saw it terminal, kept for later
// passes so the state stays stable. The map states is adopted; the task
// states in it are not changed: one that gets a FinishedAt is replaced by
// a shallow copy (sharing its events) that has it.
func (ar *allocRunner) clientState(states map[string]*structs.TaskState) *structs.AllocState {
	server := ar.serverAlloc()
	st, desc := ar.policy.ClientStatus(states)
	ar.stateMu.Lock()
	defer ar.stateMu.Unlock()
	if ar.statusOverride != "" {
		st, desc = ar.statusOverride, overrideDescriptions[ar.statusOverride]
	}
	if st == "" {
		st, desc = server.ClientStatus, server.ClientDescription
	}
	if structs.ClientStatusTerminal(st) {
		for _, name := range structs.SortedTaskNames(states) {
			s := states[name]
			if !s.FinishedAt.IsZero() {
				continue
			}
			at, ok := ar.finishedAt[name]
			if !ok {
				at = ar.clock.Now().UTC()
				ar.finishedAt[name] = at
			}
			stamped := *s
			stamped.FinishedAt = at
			states[name] = &stamped
		}
	}
	return &structs.AllocState{ClientStatus: st, ClientDescription: desc, TaskStates: states}
}

// clientAlloc is a deep copy of the latest server alloc, sharing its read-only job, with the
// client-side fields computed from states (adopted as clientState does). The runner computes no
// deployment or network status: both are nil.
func (ar *allocRunner) clientAlloc(states map[string]*structs.TaskState) *structs.Allocation {
	// The fields replaced below are not copied: a shallow copy of the
	// server alloc without them, deep-copied but for the job.
	server := *ar.serverAlloc()
	server.TaskStates, server.DeploymentStatus, server.NetworkStatus = nil, nil, nil
	a := server.CopySkipJob()
	s := ar.clientState(states)
	a.ClientStatus = s.ClientStatus
	a.ClientDescription = s.ClientDescription
	a.TaskStates = s.TaskStates
	a.DeploymentStatus = nil
	a.NetworkStatus = nil
	return a
}

// AllocState implements interfaces.AllocRunner: the client-side fields
// computed now.
func (ar *allocRunner) AllocState() *structs.AllocState {
	return ar.clientState(ar.taskStatesCopy())
}

// SetClientStatus implements interfaces.AllocRunner: status overrides the
// computed ClientStatus from now on (AR-8), with its AR-8 description.
func (ar *allocRunner) SetClientStatus(s string) {
	ar.stateMu.Lock()
	ar.statusOverride = s
	ar.stateMu.Unlock()
	ar.taskStateUpdated()
}
