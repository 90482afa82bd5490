package alloc

import (
	"time"

	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// Properties lists the package's properties in suite order.
func Properties() []prop.Property {
	return []prop.Property{clientStatus, restartPolicy, restartAPI, destroyAPI, shutdownAPI, closeAfterPrerun, runAfterStop, restartCallResult, stopRetries, killOrder, killRules, lifecycleStartOrder, updateQueue, eventsNewest10, eventMessagesExact, buildFailureReported}
}

// clientStatus: AR-8 at every settled instant. Crashes are left out: a
// failed restore sets the status by SetClientStatus (STATE-3), which
// overrides AR-8 by design.
var clientStatus = prop.Property{
	ID:       "AR-8/client-status-every-instant",
	Profiles: prop.Full | prop.ClientCommunication,
	Specs:    []string{"AR-8", "DATA-6"},
	Doc:      "every alloc's ClientStatus and ClientDescription follow from its task states at every settled instant; running tasks have StartedAt, dead ones FinishedAt, and every task of a client-terminal alloc has FinishedAt",
	Faults: []faults.Class{faults.DriverStartDelay, faults.DriverStartFailure, faults.DriverExit,
		faults.DriverStopHang, faults.CSIMountFailure, faults.CSIMountLatency, faults.RPCLatency},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		return scenario.DrawWith(d, scenario.Options{MinDuration: 2 * time.Minute, MaxDuration: 10 * time.Minute, MaxCalls: 3, Exclude: env.Exclude()})
	},
	Situations: []prop.Situation{
		{Name: "failed", Doc: "a dead failed task: failed (Failed tasks)"},
		{Name: "failed-over-running", Doc: "a dead failed task while another runs: failed wins over running"},
		{Name: "running", Doc: "no failed task and one running: running"},
		{Name: "pending", Doc: "none failed or running and one pending: pending"},
		{Name: "pending-over-dead", Doc: "pending and dead tasks, none running or failed: pending wins over complete"},
		{Name: "complete", Doc: "every task dead, none failed: complete"},
		// A ClientStatus with no task state to derive it from is not
		// among them: AR-8's rule says nothing of it (the check skips
		// it), and a full runner never pushes one in these runs: every
		// task state exists from construction (AR-6's Received), the
		// only SetClientStatus without a rule behind it is a failed
		// restore's (STATE-3), which this property leaves out, and a
		// failed placement is the client's own update, never a runner's
		// push (SYNC-1). Only the minimal runner (AR-3) pushes such
		// allocs, and there it is every alloc.
		{Name: "terminal-all-finished", Doc: "a client-terminal alloc whose every task has FinishedAt"},
	},
	New: func(scenario.Scenario) prop.Checker {
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, a := range v.Allocs() {
				reachStatus(v, a)
				want, desc := status.ClientStatus(a.TaskStates)
				if want == "" {
					continue
				}
				if a.ClientStatus != want {
					v.Violatef(a.ID, "", "ClientStatus", a.ClientStatus, want+" ("+desc+")")
					return
				}
				if a.ClientDescription != desc {
					v.Violatef(a.ID, "", "ClientDescription", a.ClientDescription, desc)
					return
				}
				if stampsMissing(v, a) {
					return
				}
			}
		}}
	},
}

// stampsMissing reports (and records) a task state of a whose instants
// contradict its state: entering running sets StartedAt, dead sets
// FinishedAt (DATA-6), and a client-terminal alloc gives every task a
// FinishedAt (AR-8).
func stampsMissing(v *prop.View, a *structs.Allocation) bool {
	for _, name := range structs.SortedTaskNames(a.TaskStates) {
		s := a.TaskStates[name]
		switch {
		case s == nil:
		case s.State == structs.TaskStateRunning && s.StartedAt.IsZero():
			v.Violatef(a.ID, name, "StartedAt of a running task (DATA-6)", "zero", "the instant it entered running")
		case s.State == structs.TaskStateDead && s.FinishedAt.IsZero():
			v.Violatef(a.ID, name, "FinishedAt of a dead task (DATA-6)", "zero", "the instant it died")
		case a.ClientTerminal() && s.FinishedAt.IsZero():
			v.Violatef(a.ID, name, "FinishedAt of a "+s.State+" task in a "+a.ClientStatus+" alloc (AR-8)", "zero", "set: a client-terminal alloc gives every task a FinishedAt")
		default:
			continue
		}
		return true
	}
	return false
}

// reachStatus counts which AR-8 rule a's task states select, and a
// client-terminal alloc whose tasks all finished.
func reachStatus(v *prop.View, a *structs.Allocation) {
	var failed, running, pending, dead, unfinished bool
	for _, s := range a.TaskStates {
		if s == nil {
			continue
		}
		switch s.State {
		case structs.TaskStateDead:
			failed = failed || s.Failed
			dead = dead || !s.Failed
		case structs.TaskStateRunning:
			running = true
		case structs.TaskStatePending:
			pending = true
		}
		unfinished = unfinished || s.FinishedAt.IsZero()
	}
	switch {
	case failed:
		v.Reach("failed")
		if running {
			v.Reach("failed-over-running")
		}
	case running:
		v.Reach("running")
	case pending:
		v.Reach("pending")
		if dead {
			v.Reach("pending-over-dead")
		}
	case dead:
		v.Reach("complete")
	}
	if a.ClientTerminal() && len(a.TaskStates) > 0 && !unfinished {
		v.Reach("terminal-all-finished")
	}
}
