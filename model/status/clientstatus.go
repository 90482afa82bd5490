package status

import (
	"github.com/allocsim/allocsim/model/structs"
)

// ClientDescription values of SPEC AR-8, verbatim.
const (
	DescriptionFailed   = "Failed tasks"
	DescriptionRunning  = "Tasks are running"
	DescriptionPending  = "No tasks have started"
	DescriptionComplete = "All tasks have completed"
)

// ClientStatus computes an alloc's ClientStatus and ClientDescription from
// its task states (AR-8), in this precedence: any dead and failed task ->
// failed; else any running -> running; else any pending -> pending; else
// any dead -> complete. Every task counts, poststop tasks included: a
// failed poststop task fails the alloc, and a poststop task waiting for
// the main tasks keeps a running alloc running (pending ranks below
// running). A paused task is pending (PAUSE-8). No task states (or only
// nil or unknown states) give "", "": the caller keeps its current status.
func ClientStatus(states map[string]*structs.TaskState) (status, description string) {
	var failed, running, pending, dead bool
	for _, s := range states {
		if s == nil {
			continue
		}
		switch s.State {
		case structs.TaskStateDead:
			if s.Failed {
				failed = true
			} else {
				dead = true
			}
		case structs.TaskStateRunning:
			running = true
		case structs.TaskStatePending:
			pending = true
		}
	}
	switch {
	case failed:
		return structs.AllocClientStatusFailed, DescriptionFailed
	case running:
		return structs.AllocClientStatusRunning, DescriptionRunning
	case pending:
		return structs.AllocClientStatusPending, DescriptionPending
	case dead:
		return structs.AllocClientStatusComplete, DescriptionComplete
	}
	return "", ""
}

// MissingFinishedAt lists, by name, the tasks that a client-terminal
// status requires to carry a FinishedAt but do not (AR-8 "Terminal ->
// every task has FinishedAt"). It is empty for non-terminal statuses.
func MissingFinishedAt(clientStatus string, states map[string]*structs.TaskState) []string {
	if !structs.ClientStatusTerminal(clientStatus) {
		return nil
	}
	var out []string
	for _, name := range structs.SortedTaskNames(states) {
		if s := states[name]; s != nil && s.FinishedAt.IsZero() {
			out = append(out, name)
		}
	}
	return out
}
