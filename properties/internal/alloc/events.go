package alloc

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// eventsNewest10: DATA-6's event window over tasks that restart often.
var eventsNewest10 = prop.Property{
	ID:     "DATA-6/events-newest-10",
	Specs:  []string{"DATA-6"},
	Doc:    "TaskState.Events holds exactly the newest 10 events appended, in order, and Restarts counts every Restarting event",
	Faults: []faults.Class{faults.DriverExit, faults.DriverStartDelay},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		attempts := d.IntRange("attempts", 2, 4)
		policy := structs.NewRestartPolicy(attempts, 5*time.Minute, d.Duration("delay", 0, 2*time.Second, time.Second),
			prop.Pick(d, "mode", []string{structs.RestartPolicyModeDelay, structs.RestartPolicyModeFail}))
		tasks := []*structs.Task{mkTask("a", "main", runCfg(d.Duration("run for", time.Second, 4*time.Second, time.Second),
			prop.Pick(d, "exit code", []int{1, 0}), 0), time.Second)}
		if d.Bool("sidecar") {
			tasks = append(tasks, mkTask("s", "sidecar", runCfg(d.Duration("sidecar run for", time.Second, 3*time.Second, time.Second), 0, 0), time.Second))
		}
		return mkScenario(d, d.Duration("duration", 2*time.Minute, 7*time.Minute, time.Minute),
			mkJob("job1", structs.JobTypeService, policy, tasks...))
	},
	New: func(scenario.Scenario) prop.Checker {
		f := newFeed()
		return prop.Checks{OnSettled: func(v *prop.View) {
			f.Next(v)
			for _, a := range v.Allocs() {
				for _, name := range structs.SortedTaskNames(a.TaskStates) {
					ts := a.TaskStates[name]
					h := f.History[taskKey{Alloc: a.ID, Task: name}]
					want := h[max(len(h)-structs.MaxTaskEvents, 0):]
					if len(ts.Events) != len(want) {
						v.Violatef(a.ID, name, "len(TaskState.Events)", len(ts.Events), len(want))
						return
					}
					for i, e := range ts.Events {
						if e.Type != want[i].Type || e.Time != want[i].Time {
							v.Violatef(a.ID, name, "TaskState.Events["+strconv.Itoa(i)+"]", e.Type, want[i].Type+" (the newest 10 in order)")
							return
						}
					}
					restarts := uint64(0)
					for _, e := range h {
						if e.Type == structs.TaskRestarting {
							restarts++
						}
					}
					if ts.Restarts != restarts {
						v.Violatef(a.ID, name, "TaskState.Restarts", ts.Restarts, restarts)
						return
					}
				}
			}
		}}
	},
}

// eventMessagesExact: DATA-7 Details and DATA-8 DisplayMessages of every
// event appended, over generated scenarios.
var eventMessagesExact = prop.Property{
	ID:    "DATA-8/event-messages-exact",
	Specs: []string{"DATA-8", "DATA-7"},
	Doc:   "every task event's DisplayMessage and Details are those DATA-7/DATA-8 derive from its fields",
	Faults: []faults.Class{faults.DriverStartDelay, faults.DriverStartFailure, faults.DriverExit,
		faults.DriverStopHang, faults.CSIMountFailure, faults.CSIMountLatency},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		return scenario.DrawWith(d, scenario.Options{MinDuration: 2 * time.Minute, MaxDuration: 6 * time.Minute, MaxCalls: 3, Exclude: env.Exclude()})
	},
	New: func(scenario.Scenario) prop.Checker {
		f := newFeed()
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, ne := range f.Next(v) {
				if what, got, want := checkEvent(ne.Event); what != "" {
					v.Violatef(ne.Key.Alloc, ne.Key.Task, "event "+strconv.Quote(ne.Event.Type)+" "+what, got, want)
					return
				}
			}
		}}
	},
}

// explicitDisplay are the event types whose DisplayMessage the spec
// sets explicitly (AR-4's Setup Failure, PAUSE-4).
var explicitDisplay = []string{structs.TaskSetupFailure, structs.TaskPausing, structs.TaskRunning}

// checkEvent returns what of e breaks DATA-7/8, or "".
func checkEvent(e *structs.TaskEvent) (what, got, want string) {
	if !slices.Contains(explicitDisplay, e.Type) || e.DisplayMessage == "" {
		c := e.Copy()
		c.DisplayMessage = ""
		c.PopulateDisplayMessage()
		if e.DisplayMessage != c.DisplayMessage {
			return "DisplayMessage", strconv.Quote(e.DisplayMessage), strconv.Quote(c.DisplayMessage)
		}
	}
	if e.Type == structs.TaskSetup && e.Message != structs.MsgTaskSetupBuildingDir {
		return "Message", e.Message, structs.MsgTaskSetupBuildingDir
	}
	msgKey := "message"
	if e.Type == structs.TaskTerminated {
		msgKey = "exit_message"
	}
	fields := []struct {
		key, val string
		set      bool // the field is set, so its key must be there
	}{
		{msgKey, e.Message, e.Message != ""},
		{"fails_task", "true", e.FailsTask},
		{"restart_reason", e.RestartReason, e.RestartReason != ""},
		{"setup_error", e.SetupError, e.SetupError != ""},
		{"driver_error", e.DriverError, e.DriverError != ""},
		{"exit_code", strconv.Itoa(e.ExitCode), e.ExitCode != 0 || e.Type == structs.TaskTerminated},
		{"kill_timeout", e.KillTimeout.String(), e.KillTimeout != 0},
		{"kill_reason", e.KillReason, e.KillReason != ""},
		{"kill_error", e.KillError, e.KillError != ""},
		{"start_delay", strconv.FormatInt(e.StartDelay, 10), e.StartDelay != 0 || e.Type == structs.TaskRestarting},
		{"failed_sibling", e.FailedSibling, e.FailedSibling != ""},
		{"task_signal", e.TaskSignal, e.TaskSignal != ""},
		{"task_signal_reason", e.TaskSignalReason, e.TaskSignalReason != ""},
		{"validation_error", e.ValidationError, e.ValidationError != ""},
	}
	known := map[string]bool{"signal": true, "oom_killed": true, "message": true, "exit_message": true}
	for _, f := range fields {
		known[f.key] = true
		v, ok := e.Details[f.key]
		switch {
		case f.set && !ok:
			return "Details[" + f.key + "]", "missing", strconv.Quote(f.val)
		case ok && v != f.val:
			return "Details[" + f.key + "]", strconv.Quote(v), strconv.Quote(f.val)
		}
	}
	if v, ok := e.Details["signal"]; e.Signal != 0 && (!ok || v != strconv.Itoa(e.Signal)) {
		return "Details[signal]", strconv.Quote(v), strconv.Quote(strconv.Itoa(e.Signal))
	}
	if v, ok := e.Details["oom_killed"]; ok && v != "true" && v != "false" {
		return "Details[oom_killed]", strconv.Quote(v), `"true" or "false"`
	}
	for _, k := range slices.Sorted(maps.Keys(e.Details)) {
		if !known[k] {
			return "Details key", strconv.Quote(k), "a DATA-7 key"
		}
	}
	return "", "", ""
}
