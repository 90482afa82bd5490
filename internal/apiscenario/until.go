package apiscenario

import (
	"slices"
	"strconv"
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// Until is the condition of a run-until directive,
//
//	run-until alloc=<alloc> [task=<task>] [status=<s>|(<s>, ...)]
//	          [state=<task state>] [events=<n> [type=<event type>]] [within=<d>]
//
// on an alloc: every condition given holds. How long to wait (within=)
// is the caller's: sim's on virtual time, the dev agent's on the wall
// clock.
type Until struct {
	Alloc    string   // the alloc argument, unresolved (Labels.AllocID)
	Task     string   // "": no condition on a task
	Statuses []string // the client status is one of these; none: any
	State    string   // the task's state; "": any
	Events   int      // at least this many events of the task; -1: any
	Type     string   // of this type only, when not ""
}

// ParseUntil reads a run-until directive's condition.
func ParseUntil(t testing.TB, d *datadriven.TestData) Until {
	t.Helper()
	OnlyArgs(t, d, "alloc", "task", "status", "state", "events", "type", "within")
	u := Until{
		Alloc: MustArg(t, d, "alloc"), Task: Arg(t, d, "task", ""),
		State: Arg(t, d, "state", ""), Events: -1, Type: Arg(t, d, "type", ""),
	}
	if a, ok := d.Arg("status"); ok {
		u.Statuses = a.Vals
	}
	if v := Arg(t, d, "events", ""); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			d.Fatalf(t, "events: %v", err)
		}
		u.Events = n
	}
	if (u.State != "" || u.Events >= 0) && u.Task == "" {
		d.Fatalf(t, "run-until: state= and events= need task=")
	}
	return u
}

// Met reports whether a server's view of an alloc meets u.
func (u Until) Met(a *structs.Allocation) bool {
	s := a.TaskStates[u.Task]
	if s == nil {
		return u.met(a.ClientStatus, false, "", 0)
	}
	return u.met(a.ClientStatus, true, s.State, ofType(u.Type, s.Events, func(ev *structs.TaskEvent) string { return ev.Type }))
}

// MetAPI reports whether an alloc read through the API meets u.
func (u Until) MetAPI(a *api.Allocation) bool {
	s := a.TaskStates[u.Task]
	if s == nil {
		return u.met(a.ClientStatus, false, "", 0)
	}
	return u.met(a.ClientStatus, true, s.State, ofType(u.Type, s.Events, func(ev *api.TaskEvent) string { return ev.Type }))
}

// ofType is how many of events have type typ (as typeOf reads it); all
// of them if typ is "".
func ofType[E any](typ string, events []E, typeOf func(E) string) int {
	n := 0
	for _, ev := range events {
		if typ == "" || typeOf(ev) == typ {
			n++
		}
	}
	return n
}

// met reports whether an alloc of that client status meets u, its task
// u.Task (if found) being in state with n events that count.
func (u Until) met(status string, found bool, state string, n int) bool {
	if len(u.Statuses) > 0 && !slices.Contains(u.Statuses, status) {
		return false
	}
	if u.Task == "" {
		return true
	}
	if !found || u.State != "" && state != u.State {
		return false
	}
	return n >= u.Events
}
