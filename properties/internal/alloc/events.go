package alloc

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
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
		sc := mkScenario(d, d.Duration("duration", 2*time.Minute, 7*time.Minute, time.Minute),
			mkJob("job1", structs.JobTypeService, policy, tasks...))
		// One run in three restarts task a in place in its first 30 s (AR-1):
		// Restarting with an empty reason, no attempt used, counted too.
		if d.IntRange("restarts", 0, 2) == 0 {
			for i := 0; i < d.IntRange("restart calls", 2, 6); i++ {
				sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(d.Duration("restart at", time.Second, 30*time.Second, 100*time.Millisecond)),
					Op: scenario.OpRestart, Alloc: "job1.g1[0]", Task: "a"})
			}
			slices.SortStableFunc(sc.Calls, func(a, b scenario.Call) int { return cmp.Compare(a.At, b.At) })
		}
		return sc
	},
	Situations: []prop.Situation{
		{Name: "under-10", Doc: "a task with fewer than 10 events: all kept"},
		{Name: "window-slid", Doc: "a task with more than 10 events appended: the oldest dropped"},
		{Name: "several-one-instant", Doc: "several events of one task appended at one instant (kept in order)"},
		{Name: "restarts-counted", Doc: "a task with Restarting events: Restarts counts them"},
		{Name: "restarts-outside-window", Doc: "a Restarting event no longer among the newest 10, still counted"},
		{Name: "fails-task", Doc: "a FailsTask event (Not Restarting): Failed set for good"},
		{Name: "restart-without-attempt", Doc: "a pause-induced or triggered Restarting (empty reason), counted too (PAUSE-6)"},
	},
	New: func(scenario.Scenario) prop.Checker {
		f := newFeed()
		return prop.Checks{OnSettled: func(v *prop.View) {
			reachEvents(v, f.Next(v), f)
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

// reachEvents counts the event-window situations of the events appended
// at this instant.
func reachEvents(v *prop.View, evs []newEvent, f *prop.EventFeed) {
	per := map[taskKey]int{}
	for _, ne := range evs {
		if per[ne.Key]++; per[ne.Key] > 1 {
			v.Reach("several-one-instant")
		}
		e := ne.Event
		if e.FailsTask {
			v.Reach("fails-task")
		}
		if e.Type == structs.TaskRestarting && e.RestartReason == "" {
			v.Reach("restart-without-attempt")
		}
	}
	for k := range per {
		h := f.History[k]
		if len(h) > structs.MaxTaskEvents {
			v.Reach("window-slid")
		} else {
			v.Reach("under-10")
		}
		for i, e := range h {
			if e.Type != structs.TaskRestarting {
				continue
			}
			v.Reach("restarts-counted")
			if i < len(h)-structs.MaxTaskEvents {
				v.Reach("restarts-outside-window")
			}
		}
	}
}

// eventMessagesExact: DATA-7 Details and DATA-8 DisplayMessages of every
// event appended, over generated scenarios.
var eventMessagesExact = prop.Property{
	ID:    "DATA-8/event-messages-exact",
	Specs: []string{"DATA-8", "DATA-7", "AR-1"},
	Doc:   "every task event's DisplayMessage and Details are those DATA-7/DATA-8 derive from its fields, and a Reconnect adopts the server's indexes",
	Faults: []faults.Class{faults.DriverStartDelay, faults.DriverStartFailure, faults.DriverExit,
		faults.DriverStopHang, faults.CSIMountFailure, faults.CSIMountLatency, faults.ClientCrash,
		faults.DriverRecoverFailure, faults.DriverStopFailure, faults.NodeDisconnect},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		sc := scenario.DrawWith(d, scenario.Options{MinDuration: 2 * time.Minute, MaxDuration: 6 * time.Minute, MaxCalls: 3, Exclude: env.Exclude()})
		drawEventSources(d, env, &sc)
		return sc
	},
	Situations: []prop.Situation{
		{Name: "fixed-display", Doc: "Received, Started or Task Setup: a fixed DisplayMessage"},
		{Name: "terminated-plain", Doc: "Terminated with no signal and no exit message: Exit Code only"},
		{Name: "terminated-signal", Doc: "Terminated with a non-zero signal: `, Signal: <n>`"},
		{Name: "terminated-exit-message", Doc: "Terminated with an exit message: `, Exit Message: <q>` and exit_message"},
		{Name: "restarting-prefixed", Doc: "Restarting with a reason other than Restart within policy: prefixed"},
		{Name: "restarting-unprefixed", Doc: "Restarting within policy or with an empty reason: no prefix"},
		{Name: "not-restarting", Doc: "Not Restarting: the reason as DisplayMessage, fails_task"},
		// Killing with a KillReason is not among them: no SPEC path
		// appends one (AR-9's and PAUSE-8's Killing carry the capped
		// KillTimeout); the SPEC's only KillReason is AR-4's Setup Failure's.
		{Name: "kill-reason-detail", Doc: "an event with a KillReason (AR-4's Setup Failure, kill_reason `Failed Restoring Task`): kill_reason in Details"},
		{Name: "killing-timeout", Doc: "Killing without reason: `Sent interrupt. Waiting <t> before force killing`"},
		{Name: "killed-ok", Doc: "Killed without KillError: `Task successfully killed`"},
		{Name: "killed-error", Doc: "Killed with a KillError: the error as DisplayMessage"},
		{Name: "signaling", Doc: "Signaling: one of its four DisplayMessages"},
		{Name: "restart-signaled", Doc: "Restart Signaled: the reason, else `Task signaled to restart`"},
		{Name: "setup-failure-explicit", Doc: "Setup Failure with its explicit DisplayMessage kept"},
		{Name: "driver-failure", Doc: "Driver Failure: the DriverError, driver_error"},
		{Name: "kill-rule-event", Doc: "Sibling Task Failed, Leader Task Dead or Main Tasks Dead"},
		{Name: "pause-event-explicit", Doc: "Pausing or Running with its explicit DisplayMessage kept"},
		{Name: "restore-failed", Doc: "Failed Restoring Task"},
		{Name: "hook-failed", Doc: "Task hook failed: the Message as DisplayMessage"},
		{Name: "hook-message", Doc: "Task hook message: the Message as DisplayMessage"},
		// Failed Validation is not among them: no SPEC path appends it
		// (a task the validate hook rejects gets AR-5's `Task hook
		// failed`, hook-failed); checkEvent still checks its derivation
		// wherever a runner appends one.
		{Name: "reconnected", Doc: "Reconnected: `Client reconnected`"},
	},
	New: func(scenario.Scenario) prop.Checker {
		f := newFeed()
		return prop.Checks{OnSettled: func(v *prop.View) {
			reconnected := map[string]bool{}
			for _, ne := range f.Next(v) {
				reachMessage(v, ne.Event)
				if what, got, want := checkEvent(ne.Event); what != "" {
					v.Violatef(ne.Key.Alloc, ne.Key.Task, "event "+strconv.Quote(ne.Event.Type)+" "+what, got, want)
					return
				}
				if ne.Event.Type == structs.TaskClientReconnected {
					reconnected[ne.Key.Alloc] = true
				}
			}
			checkReconnectIndexes(v, reconnected)
		}}
	},
}

// drawEventSources adds to a generated scenario, each on some runs, what
// appends the event types the generator alone never leads to: exits with
// an error message (Terminated's Exit Message), a task its validate hook
// rejects (Task hook failed), a schedule without future start (Task hook
// message, SCHED-9), in-place restarts (Restart Signaled), a job stop
// whose driver stops all fail (Killed with a KillError, AR-6's five
// attempts), recoveries that fail after a crash (Failed Restoring Task)
// and a node the servers lose for a while (Reconnected, AR-1).
func drawEventSources(d *prop.Drawer, env prop.Env, sc *scenario.Scenario) {
	allocs, tasks := firstAllocs(*sc)
	if d.IntRange("exit messages", 0, 2) == 0 {
		for _, t := range tasks {
			if t.Config["run_for"] != nil {
				t.Config["exit_err_msg"] = "simulated exit error"
			}
		}
	}
	if d.IntRange("validate failure", 0, 3) == 0 {
		prop.Pick(d, "validate failure task", tasks).KillTimeout = -time.Second
	}
	if d.IntRange("no future start", 0, 3) == 0 {
		if t := prop.Pick(d, "no future start task", tasks); t.Lifecycle == nil {
			t.Schedule = &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 30 2 * *", End: "0 17", Timezone: "UTC"}}
		}
	}
	if d.IntRange("restarts", 0, 2) == 0 {
		for i := 0; i < d.IntRange("restart calls", 1, 3); i++ {
			c := scenario.Call{At: scenario.Duration(d.Duration("restart at", time.Second, sc.Duration.D()-time.Second, 100*time.Millisecond)),
				Op: scenario.OpRestart, Alloc: prop.Pick(d, "restart alloc", allocs)}
			if d.Bool("restart one task") {
				c.Task = prop.Pick(d, "restart task", tasks).Name
			}
			sc.Calls = append(sc.Calls, c)
		}
	}
	if env.Allows(faults.DriverStopFailure) && d.IntRange("stop failures", 0, 3) == 0 {
		at := d.Duration("stop at", 10*time.Second, time.Minute, time.Second)
		sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(at), Op: scenario.OpStopJob, Job: sc.Jobs[0].Job.ID})
		sc.Duration = max(sc.Duration, scenario.Duration(at+5*time.Minute))
		replaceFault(sc, faults.Fault{Class: faults.DriverStopFailure, Rate: 1})
	}
	if env.Allows(faults.DriverRecoverFailure) && sc.Faults.Has(faults.ClientCrash) && d.IntRange("recover failures", 0, 2) == 0 {
		replaceFault(sc, faults.Fault{Class: faults.DriverRecoverFailure, Rate: 1})
	}
	if env.Allows(faults.NodeDisconnect) && d.IntRange("node disconnect", 0, 3) == 0 {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.NodeDisconnect,
			At:  d.Duration("disconnect at", 20*time.Second, sc.Duration.D()/2, time.Second),
			For: d.Duration("disconnect for", 5*time.Second, time.Minute, time.Second)})
	}
	slices.SortStableFunc(sc.Calls, func(a, b scenario.Call) int { return cmp.Compare(a.At, b.At) })
}

// replaceFault puts f in the plan instead of the plan's entry of its class.
func replaceFault(sc *scenario.Scenario, f faults.Fault) {
	sc.Faults = slices.DeleteFunc(sc.Faults, func(x faults.Fault) bool { return x.Class == f.Class })
	sc.Faults = append(sc.Faults, f)
}

// reachMessage counts the DATA-8 derivation rule e's DisplayMessage
// follows.
func reachMessage(v *prop.View, e *structs.TaskEvent) {
	if e.KillReason != "" {
		v.Reach("kill-reason-detail")
	}
	switch e.Type {
	case structs.TaskReceived, structs.TaskStarted, structs.TaskSetup:
		v.Reach("fixed-display")
	case structs.TaskTerminated:
		if e.Signal != 0 {
			v.Reach("terminated-signal")
		}
		if e.Message != "" {
			v.Reach("terminated-exit-message")
		}
		if e.Signal == 0 && e.Message == "" {
			v.Reach("terminated-plain")
		}
	case structs.TaskRestarting:
		if e.RestartReason == "" || e.RestartReason == structs.ReasonWithinPolicy {
			v.Reach("restarting-unprefixed")
		} else {
			v.Reach("restarting-prefixed")
		}
	case structs.TaskNotRestarting:
		v.Reach("not-restarting")
	case structs.TaskKilling:
		if e.KillReason == "" && e.KillTimeout != 0 {
			v.Reach("killing-timeout")
		}
	case structs.TaskKilled:
		if e.KillError != "" {
			v.Reach("killed-error")
		} else {
			v.Reach("killed-ok")
		}
	case structs.TaskSignaling:
		v.Reach("signaling")
	case structs.TaskRestartSignal:
		v.Reach("restart-signaled")
	case structs.TaskSetupFailure:
		if e.DisplayMessage != "" {
			v.Reach("setup-failure-explicit")
		}
	case structs.TaskDriverFailure:
		v.Reach("driver-failure")
	case structs.TaskSiblingFailed, structs.TaskLeaderDead, structs.TaskMainDead:
		v.Reach("kill-rule-event")
	case structs.TaskPausing, structs.TaskRunning:
		if e.DisplayMessage != "" {
			v.Reach("pause-event-explicit")
		}
	case structs.TaskRestoreFailed:
		v.Reach("restore-failed")
	case structs.TaskHookFailed:
		v.Reach("hook-failed")
	case structs.TaskHookMessage:
		v.Reach("hook-message")
	case structs.TaskClientReconnected:
		v.Reach("reconnected")
	}
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

// checkReconnectIndexes: AR-1's Reconnect(alloc) appends Reconnected to
// every task and copies the server's indexes into the runner's alloc, so
// at the instant an alloc's tasks got Reconnected its runner's Alloc()
// carries the AllocModifyIndex of the server's alloc it was handed (the
// client reconnects a runner whose server alloc is newer than what it
// holds, AR-10's index). Without it a runner that keeps its old indexes
// passes: nothing else reads them.
func checkReconnectIndexes(v *prop.View, allocs map[string]bool) {
	for _, id := range slices.Sorted(maps.Keys(allocs)) {
		ar, srv := v.World.AllocRunner(id), v.ServerAlloc(id)
		if ar == nil || srv == nil {
			continue
		}
		if got := ar.Alloc().AllocModifyIndex; got != srv.AllocModifyIndex {
			v.Violatef(id, "", "AllocRunner.Alloc().AllocModifyIndex after Reconnect (tasks got Reconnected)", got,
				fmt.Sprintf("%d, the server's: Reconnect copies the server's indexes (AR-1)", srv.AllocModifyIndex))
			return
		}
	}
}
