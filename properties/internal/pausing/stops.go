package pausing

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// stopSeq checks the event sequence of pause stops (PAUSE-5, PAUSE-6,
// PAUSE-8): a Pausing of a started task is followed by Terminated, then
// Restarting "Task restarting in 0s" with an empty reason, then nothing
// until Running; no Killing and no Not Restarting ever; the task never
// dead; the alloc pending while the task waits in the gate alone.
// With lenientKill a Killing event is skipped (PAUSE-6 only checks the
// accounting, PAUSE-5 the events).
func stopSeq(lenientKill bool) prop.Checker {
	started, phase := false, 0 // phase 1: want Terminated, 2: want Restarting, 3: gated
	return prop.Checks{OnSettled: func(v *prop.View) {
		for _, r := range v.New {
			if r.Kind != trace.KindTaskEvent || r.Task != work {
				continue
			}
			ev := oracle.EventOf(r)
			if lenientKill && ev.Type == structs.TaskKilling {
				continue
			}
			bad := func(want string) {
				v.Violatef(r.Alloc, work, "task event after a pause stop", ev.Type+" "+fmt.Sprintf("%q", ev.Display), want)
			}
			switch {
			case ev.Type == structs.TaskKilling || ev.Type == structs.TaskNotRestarting:
				bad("no " + ev.Type + " (PAUSE-5, PAUSE-6)")
				return
			case phase == 1 && ev.Type != structs.TaskTerminated:
				bad(structs.TaskTerminated)
				return
			case phase == 2 && (ev.Type != structs.TaskRestarting || ev.Display != "Task restarting in 0s" || ev.Details["restart_reason"] != ""):
				bad(`Restarting "Task restarting in 0s" with an empty restart_reason`)
				return
			case phase == 3 && ev.Type != structs.TaskRunning:
				bad("nothing before Running (the task waits in the gate)")
				return
			}
			switch {
			case ev.Type == structs.TaskStarted:
				started = true
			case ev.Type == structs.TaskPausing && started:
				phase = 1
			case ev.Type == structs.TaskTerminated && phase == 1:
				phase, started = 2, false
			case ev.Type == structs.TaskRestarting && phase == 2:
				phase = 3
			case ev.Type == structs.TaskRunning:
				phase = 0
			}
		}
		for _, a := range v.Allocs() {
			ts := a.TaskStates[work]
			if ts == nil {
				continue
			}
			if ts.State == structs.TaskStateDead || ts.Failed {
				v.Violatef(a.ID, work, "task state", fmt.Sprintf("%s failed=%v", ts.State, ts.Failed), "pending or running, not failed (PAUSE-6, PAUSE-8)")
				return
			}
			if phase == 3 && len(a.TaskStates) == 1 && (ts.State != structs.TaskStatePending || a.ClientStatus != structs.AllocClientStatusPending) {
				v.Violatef(a.ID, work, "task and alloc status in the gate", ts.State+" "+a.ClientStatus, "pending pending (PAUSE-8)")
				return
			}
		}
	}}
}

// stopAtWindowEnd: PAUSE-5 at window ends.
var stopAtWindowEnd = prop.Property{
	ID:    "PAUSE-5/stop-at-window-end",
	Specs: []string{"PAUSE-5", "PAUSE-8"},
	Doc:   "at a window end the task is stopped without Killing: Terminated, then Restarting in 0s, task and alloc pending, never dead",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		return windowed(d, d.IntRange("run min", 6, 20), 0).Build()
	},
	Situations: stopSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		return sched.Both(sched.Both(stopSeq(false), sched.RunChecker(sc, 0)), newStopReach(sc).checker())
	},
}

// noAttempt: PAUSE-6 with a policy that allows no (or one) restart.
var noAttempt = prop.Property{
	ID:    "PAUSE-6/no-attempt-consumed",
	Specs: []string{"PAUSE-6", "AR-7", "PAUSE-5"},
	Doc:   "pause-induced exits consume no restart attempt: a task whose policy allows 0 or 1 restarts pauses and resumes many times and never gets Not Restarting",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		s := windowed(d, d.IntRange("run min", 10, 25), 0)
		s.Policy = structs.NewRestartPolicy(d.IntRange("attempts", 0, 1), 30*time.Minute, 15*time.Second, structs.RestartPolicyModeFail)
		mins := int(s.Duration / time.Minute)
		for m, op := 1, scenario.OpPause; m < mins; m += d.IntRange("step min", 1, 2) {
			s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(time.Duration(m)*time.Minute + 30*time.Second), Op: op, Alloc: sched.AllocName, Task: work})
			op = map[scenario.Op]scenario.Op{scenario.OpPause: scenario.OpRun, scenario.OpRun: scenario.OpPause}[op]
		}
		return s.Build()
	},
	Situations: attemptSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		return sched.Both(sched.Both(stopSeq(true), sched.RunChecker(sc, 0)), newAttemptReach(sc).checker())
	},
}

// scheduleChange: PAUSE-7.
var scheduleChange = prop.Property{
	ID:    "PAUSE-7/schedule-change-in-place",
	Specs: []string{"PAUSE-7", "SCHED-5"},
	Doc:   "a job update changing only the schedule keeps the alloc and starts/stops the task in place at the new schedule's instants",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		s := windowed(d, d.IntRange("run min", 10, 30), 0)
		mins := int(s.Duration / time.Minute)
		at := d.IntRange("update at min", 1, mins-2)
		var ns *schedule.Schedule
		if d.IntRange("unschedule", 0, 3) > 0 {
			local, _ := time.LoadLocation(s.LocalZone) // "" is UTC
			loc, err := schedule.LoadZone(s.Timezone, local)
			if err != nil {
				loc = time.UTC
			}
			open := s.Start.Add(time.Duration(d.IntRange("new opens min", 0, mins)) * time.Minute).In(loc)
			shut := open.Add(time.Duration(d.IntRange("new length min", 1, 20)) * time.Minute)
			ns = &schedule.Schedule{Cron: &schedule.Cron{Start: fmt.Sprintf("%d %d * * * *", open.Minute(), open.Hour()),
				End: fmt.Sprintf("%d %d", shut.Minute(), shut.Hour()), Timezone: s.Cron.Timezone}}
		}
		s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(time.Duration(at)*time.Minute + 30*time.Second),
			Op: scenario.OpUpdateSchedule, Job: "sj", Task: work, Schedule: ns})
		return s.Build()
	},
	Situations: changeSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		var first string
		same := prop.Checks{OnSettled: func(v *prop.View) {
			for _, a := range v.Allocs() {
				if first == "" {
					first = a.ID
				}
				if a.ID != first {
					v.Violatef(a.ID, "", "alloc", a.ID, first+" (updated in place)")
					return
				}
			}
		}}
		return sched.Both(sched.Both(same, sched.RunChecker(sc, 0)), newChangeReach(sc).checker())
	},
}

// restoreOverrides: PAUSE-10 across a client crash.
var restoreOverrides = prop.Property{
	ID:     "PAUSE-10/restore-overrides",
	Specs:  []string{"PAUSE-10", "STATE-3"},
	Doc:    "a force_pause or force_run override survives a client crash and restart: the stored state is kept and the task stays paused or running",
	Faults: []faults.Class{faults.ClientCrash},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		s := windowed(d, 12, 0)
		s.Calls = []scenario.Call{{At: scenario.Duration(2*time.Minute + 30*time.Second),
			Op: prop.Pick(d, "override", []scenario.Op{scenario.OpPause, scenario.OpRun}), Alloc: sched.AllocName, Task: work}}
		sc := s.Build()
		if env.Allows(faults.ClientCrash) {
			sc.Faults = faults.Plan{{Class: faults.ClientCrash, At: d.Duration("crash at", 4*time.Minute, 7*time.Minute, time.Second),
				For: d.Duration("down for", 10*time.Second, 2*time.Minute, time.Second)}}
		}
		return sc
	},
	Situations: restoreSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		call := sc.Start.Add(sc.Calls[0].At.D())
		want := sc.Calls[0].Op.ScheduleState()
		check := prop.Checks{OnSettled: func(v *prop.View) {
			if !v.Now().After(call.Add(5 * time.Second)) {
				return
			}
			for _, r := range v.New {
				if r.Kind == trace.KindDriver && r.Task == work && (r.Op == "StartTask" && want == structs.TaskScheduleStateForcePause) {
					v.Violatef(r.Alloc, work, "driver call under "+string(want), r.Op, "none")
					return
				}
			}
			for _, a := range v.Allocs() {
				if ts := a.TaskStates[work]; ts != nil && ts.Paused != want {
					v.Violatef(a.ID, work, "stored pause state", fmt.Sprintf("%q", ts.Paused), fmt.Sprintf("%q", want))
					return
				}
			}
		}, OnFinal: func(v *prop.View) {
			for _, a := range v.Allocs() {
				if ts := a.TaskStates[work]; ts != nil && want == structs.TaskScheduleStateForceRun && ts.State != structs.TaskStateRunning {
					v.Violatef(a.ID, work, "task state at the end under force_run", ts.State, structs.TaskStateRunning)
				}
			}
		}}
		return sched.Both(check, newRestoreReach(sc).checker())
	},
}
