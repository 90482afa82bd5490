package sim_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// queryOptions are the region= and namespace= of a read (API-1 accepts
// both), nil if neither is given.
func (e *apiEnv) queryOptions(d *datadriven.TestData) *api.QueryOptions {
	if !d.HasArg("region") && !d.HasArg("namespace") {
		return nil
	}
	return &api.QueryOptions{Region: apiscenario.Arg(e.t, d, "region", ""), Namespace: apiscenario.Arg(e.t, d, "namespace", "")}
}

// info alloc= [meta] [region=] [namespace=]: what `alloc status` prints
// of the alloc and each task; meta adds the query's index headers.
func (e *apiEnv) handleInfo(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "meta", "region", "namespace")
	id := e.allocID(apiscenario.MustArg(e.t, d, "alloc"))
	q := e.queryOptions(d)
	var a *api.Allocation
	var meta *api.QueryMeta
	if err := e.do(func() (err error) {
		a, meta, err = e.c.Allocations().Info(id, q)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	version := "<nil>"
	if a.Job != nil && a.Job.Version != nil {
		version = fmt.Sprint(*a.Job.Version)
	}
	out := []string{fmt.Sprintf("%s client=%s desired=%s alloc_modify_index=%d eval=%s job_version=%s node_name=%q",
		a.ID, a.ClientStatus, a.DesiredStatus, a.AllocModifyIndex, a.EvalID, version, a.NodeName)}
	if d.HasArg("meta") {
		out = append(out, fmt.Sprintf("  modify_index=%d last_index=%d known_leader=%t last_contact=%v",
			a.ModifyIndex, meta.LastIndex, meta.KnownLeader, meta.LastContact))
	}
	for _, name := range slices.Sorted(maps.Keys(a.TaskStates)) {
		s := a.TaskStates[name]
		line := fmt.Sprintf("  %s state=%s restarts=%d failed=%t", name, s.State, s.Restarts, s.Failed)
		if c := taskSchedule(a, name); c != nil {
			line += fmt.Sprintf(" schedule=(%s, %s, %s)", c.Start, c.End, c.Timezone)
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// taskSchedule is the cron of the alloc's task in the alloc's job.
func taskSchedule(a *api.Allocation, task string) *api.TaskScheduleCron {
	if a.Job == nil {
		return nil
	}
	for _, tg := range a.Job.TaskGroups {
		if tg.Name == nil || *tg.Name != a.TaskGroup {
			continue
		}
		for _, tk := range tg.Tasks {
			if tk.Name == task && tk.Schedule != nil {
				return tk.Schedule.Cron
			}
		}
	}
	return nil
}

// events alloc= [task=]: the task events read through the API that no
// earlier events directive printed, per task (apiscenario.EventLog).
func (e *apiEnv) handleEvents(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "task")
	id := e.allocID(apiscenario.MustArg(e.t, d, "alloc"))
	only := apiscenario.Arg(e.t, d, "task", "")
	var a *api.Allocation
	if err := e.do(func() (err error) {
		a, _, err = e.c.Allocations().Info(id, nil)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	return e.events.Unseen(id, a.TaskStates, only)
}

// prefix-list prefix=: the allocs whose ID has the prefix (API-5), each
// checked for it.
func (e *apiEnv) handlePrefixList(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "prefix")
	prefix := e.expand(d, apiscenario.MustArg(e.t, d, "prefix"))
	var stubs []*api.AllocationListStub
	if err := e.do(func() (err error) {
		stubs, _, err = e.c.Allocations().PrefixList(prefix)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	out := stubLines(stubs)
	for _, s := range stubs {
		if !strings.HasPrefix(s.ID, prefix) {
			out += fmt.Sprintf("\n%s does not have the prefix", s.ID)
		}
	}
	return out
}

// get-pause alloc= task= [region=] [namespace=]: the task's pause state
// (API-3, apiscenario.PauseState).
func (e *apiEnv) handleGetPause(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "task", "region", "namespace")
	target := &api.Allocation{ID: e.allocID(apiscenario.MustArg(e.t, d, "alloc"))}
	task, q := apiscenario.MustArg(e.t, d, "task"), e.queryOptions(d)
	var s string
	if err := e.do(func() (err error) {
		s, _, err = e.c.Allocations().GetPauseState(target, q, task)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	return apiscenario.PauseState(s)
}

// pause alloc= task= state=: sets the task's pause state (API-2).
func (e *apiEnv) handlePause(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "task", "state")
	target := &api.Allocation{ID: e.allocID(apiscenario.MustArg(e.t, d, "alloc"))}
	task, state := apiscenario.MustArg(e.t, d, "task"), apiscenario.MustArg(e.t, d, "state")
	return apiscenario.Result(e.do(func() error {
		return e.c.Allocations().SetPauseState(target, nil, task, state)
	}))
}

// signal alloc= [task=] signal=: signals one task, or every task (API-6).
func (e *apiEnv) handleSignal(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "task", "signal")
	target := &api.Allocation{ID: e.allocID(apiscenario.MustArg(e.t, d, "alloc"))}
	task, signal := apiscenario.Arg(e.t, d, "task", ""), apiscenario.MustArg(e.t, d, "signal")
	return apiscenario.Result(e.do(func() error {
		return e.c.Allocations().Signal(target, nil, task, signal)
	}))
}

// restart alloc= [task=]: restarts one task, or every running one.
func (e *apiEnv) handleRestart(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "task")
	target := &api.Allocation{ID: e.allocID(apiscenario.MustArg(e.t, d, "alloc"))}
	task := apiscenario.Arg(e.t, d, "task", "")
	return apiscenario.Result(e.do(func() error {
		return e.c.Allocations().Restart(target, task, nil)
	}))
}

// stop alloc=: stops the alloc (`alloc stop`); prints its evaluation.
func (e *apiEnv) handleStop(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc")
	target := &api.Allocation{ID: e.allocID(apiscenario.MustArg(e.t, d, "alloc"))}
	var resp *api.AllocStopResponse
	if err := e.do(func() (err error) {
		resp, err = e.c.Allocations().Stop(target, nil)
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	return "eval=" + resp.EvalID
}
