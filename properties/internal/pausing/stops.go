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

// pausedRunGrace bounds how long a task may still run once it should
// not: its pause stop's kill timeout (capped, DATA-4) and a margin.
const pausedRunGrace = 35 * time.Second

// stopSeq checks the event sequence of pause stops (PAUSE-5, PAUSE-6,
// PAUSE-8): a Pausing of a started task is followed by Terminated, then
// Restarting "Task restarting in 0s" with an empty reason, then nothing
// until Running; no Killing and no Not Restarting ever; the task never
// dead; the alloc pending while the task waits in the gate alone.
// With lenientKill a Killing event is skipped (PAUSE-6 only checks the
// accounting, PAUSE-5 the events). From the scenario's alloc kill on
// (sched.AllocKill) the task is killed: a Killing follows, the task ends
// dead, not failed, and, if it waited in the gate (no live run), with no
// Terminated or Killed (PAUSE-8).
func stopSeq(lenientKill bool, sc scenario.Scenario) prop.Checker {
	started, phase := false, 0 // phase 1: want Terminated, 2: want Restarting, 3: gated
	killAt := sched.AllocKill(sc)
	killed, gatedAtKill := false, false
	return prop.Checks{OnSettled: func(v *prop.View) {
		if !killed && !killAt.IsZero() && !v.Now().Before(killAt) {
			killed, gatedAtKill = true, !started
		}
		for _, r := range v.New {
			if r.Kind != trace.KindTaskEvent || r.Task != work {
				continue
			}
			ev := oracle.EventOf(r)
			if killed {
				if gatedAtKill && (ev.Type == structs.TaskTerminated || ev.Type == structs.TaskKilled) {
					v.Violatef(r.Alloc, work, "task event after an alloc kill in the gate", ev.Type, "none (PAUSE-8: Killing, then dead)")
					return
				}
				continue
			}
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
			case ev.Type == structs.TaskTerminated:
				started = false // an exit no pause caused: restarts per policy
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
			if ts.State == structs.TaskStateDead && !killed || ts.Failed {
				v.Violatef(a.ID, work, "task state", fmt.Sprintf("%s failed=%v", ts.State, ts.Failed), "pending or running, not failed (PAUSE-6, PAUSE-8)")
				return
			}
			if phase == 3 && !killed && len(a.TaskStates) == 1 && (ts.State != structs.TaskStatePending || a.ClientStatus != structs.AllocClientStatusPending) {
				v.Violatef(a.ID, work, "task and alloc status in the gate", ts.State+" "+a.ClientStatus, "pending pending (PAUSE-8)")
				return
			}
		}
	}, OnFinal: func(v *prop.View) {
		if !killed || !gatedAtKill {
			return
		}
		for _, a := range v.Allocs() {
			if ts := a.TaskStates[work]; ts != nil && ts.State != structs.TaskStateDead {
				v.Violatef(a.ID, work, "task state after an alloc kill in the gate", ts.State, "dead (PAUSE-8)")
				return
			}
		}
	}}
}

// stopAtWindowEnd: PAUSE-5 at window ends.
var stopAtWindowEnd = prop.Property{
	ID:    "PAUSE-5/stop-at-window-end",
	Specs: []string{"PAUSE-5", "PAUSE-8"},
	Doc:   "at a window end the task is stopped without Killing: Terminated, then Restarting in 0s, task and alloc pending, never dead but by an alloc kill, which ends it in the gate dead, not failed, without Terminated",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		s := windowed(d, d.IntRange("run min", 6, 20), 0)
		// Each on one run in three: a task that outlives its kill timeout
		// (force-killed), a second window an hour after the first, a task
		// that exits by itself shortly before its window ends (it pauses
		// in its restart delay), and an alloc kill while it waits in the
		// gate (PAUSE-8).
		if d.IntRange("force kill", 0, 2) == 0 {
			s.Config["kill_after"] = d.Duration("force kill after", 6*time.Second, 20*time.Second, time.Second).String()
		}
		if d.IntRange("two windows", 0, 2) == 0 {
			twoWindows(&s)
		}
		if w, ok := firstWindow(s); ok && d.IntRange("exit before end", 0, 2) == 0 {
			s.Config["run_for"] = (w.End.Sub(w.Start) - d.Duration("exit before end", time.Second, 14*time.Second, time.Second)).String()
			s.Config["exit_code"] = prop.Pick(d, "exit code", []int{0, 1})
		}
		sc := s.Build()
		if d.IntRange("kill in gate", 0, 2) == 0 {
			drawKillInGate(d, &sc)
		}
		return sc
	},
	Situations: stopSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		return sched.Both(sched.Both(stopSeq(false, sc), sched.RunChecker(sc, 0)), newStopReach(sc).checker())
	},
}

// drawSignalExit signals SIGTERM at second 32 of a minute the task runs
// through, from second 31 to the minute's end, without a change of the
// oracle's: the task exits (kill_after at most 2 s) and its restart
// (Delay 15 s plus jitter) falls in the same minute, so nothing else is
// due meanwhile.
func drawSignalExit(d *prop.Drawer, s *sched.Spec) {
	sc := s.Build()
	o := oracle.New(sc, "sj", work)
	changes := o.Changes()
	var mins []int
	for m := 0; m < int(s.Duration/time.Minute)-1; m++ {
		from, to := sc.Start.Add(time.Duration(m)*time.Minute+31*time.Second), sc.Start.Add(time.Duration(m+1)*time.Minute)
		if !o.Run(from) || from.Before(o.Arrival.Add(time.Minute)) {
			continue
		}
		quiet := true
		for _, c := range changes {
			if c.At.After(from) && !c.At.After(to) {
				quiet = false
			}
		}
		if quiet {
			mins = append(mins, m)
		}
	}
	if len(mins) == 0 {
		return
	}
	m := time.Duration(prop.Pick(d, "signal exit min", mins)) * time.Minute
	s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(m + 32*time.Second), Op: scenario.OpSignal, Alloc: sched.AllocName, Task: work, Signal: "SIGTERM"})
	sortCalls(s.Calls)
}

// twoWindows turns a window within one hour h into one in hour h and one
// in hour h+1, and lengthens the run by an hour to hold both.
func twoWindows(s *sched.Spec) {
	var m, h, em, eh int
	if _, err := fmt.Sscanf(s.Cron.Start, "%d %d", &m, &h); err != nil {
		return
	}
	if _, err := fmt.Sscanf(s.Cron.End, "%d %d", &em, &eh); err != nil || eh != h || em <= m || h >= 23 {
		return
	}
	s.Cron = &schedule.Cron{Start: fmt.Sprintf("%d %d-%d * * * *", m, h, h+1), End: fmt.Sprintf("%d %d-%d", em, h, h+1), Timezone: s.Cron.Timezone}
	s.Duration += time.Hour
}

// drawKillInGate stops the job at a second at least 30 s after the
// oracle's last change, while the task is paused (it waits in the gate),
// if the run has such a second 10 s before its end.
func drawKillInGate(d *prop.Drawer, sc *scenario.Scenario) {
	o := oracle.New(*sc, "sj", work)
	from := o.Arrival
	if cs := o.Changes(); len(cs) > 0 {
		from = cs[len(cs)-1].At
	}
	from = from.Add(30 * time.Second)
	to := sc.End().Add(-10 * time.Second)
	if !from.Before(to) || o.Run(from) {
		return
	}
	at := from.Add(d.Duration("kill in gate after", 0, to.Sub(from), time.Second)).Sub(sc.Start)
	sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(at), Op: scenario.OpStopJob, Job: "sj"})
	sortCalls(sc.Calls)
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
		// Some runs drop the override instead of force_run now and then
		// (schedule_resume: the schedule's window ends stop the task
		// again), and, with a policy of one restart, one run in two
		// kills the task once by a signal (an exit no pause caused: the
		// policy applies).
		if d.IntRange("resumes", 0, 1) == 0 {
			for i := range s.Calls {
				if s.Calls[i].Op == scenario.OpRun && d.Bool("resume instead") {
					s.Calls[i].Op = scenario.OpResume
				}
			}
		}
		if s.Policy.GetAttempts() == 1 && d.Bool("signal exit") {
			drawSignalExit(d, &s)
		}
		return s.Build()
	},
	Situations: attemptSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		return sched.Both(sched.Both(stopSeq(true, sc), sched.RunChecker(sc, 0)), newAttemptReach(sc).checker())
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
			local, _ := schedule.Location(s.LocalZone) // "" is UTC
			loc, err := schedule.LoadZone(s.Timezone, local)
			if err != nil {
				loc = time.UTC
			}
			open := s.Start.Add(time.Duration(d.IntRange("new opens min", 0, mins)) * time.Minute).In(loc)
			shut := open.Add(time.Duration(d.IntRange("new length min", 1, 20)) * time.Minute)
			ns = &schedule.Schedule{Cron: &schedule.Cron{Start: fmt.Sprintf("%d %d * * * *", open.Minute(), open.Hour()),
				End: fmt.Sprintf("%d %d", shut.Minute(), shut.Hour()), Timezone: s.Cron.Timezone}}
		}
		// One run in four starts unscheduled and the update adds the
		// schedule (tracking starts at once); one in three overrides
		// the state before the update (the new schedule waits for a
		// schedule_resume, which half of them make later).
		if d.IntRange("schedule added", 0, 3) == 0 {
			if ns == nil {
				ns = &schedule.Schedule{Cron: s.Cron}
			}
			s.Cron = nil
		}
		s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(time.Duration(at)*time.Minute + 30*time.Second),
			Op: scenario.OpUpdateSchedule, Job: "sj", Task: work, Schedule: ns})
		if s.Cron != nil && d.IntRange("override before update", 0, 2) == 0 {
			s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(time.Duration(d.IntRange("override min", 0, at-1))*time.Minute + 15*time.Second),
				Op: prop.Pick(d, "override", []scenario.Op{scenario.OpPause, scenario.OpRun}), Alloc: sched.AllocName, Task: work})
			if d.Bool("resume after update") {
				s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(time.Duration(d.IntRange("resume min", at+1, mins-1))*time.Minute + 15*time.Second),
					Op: scenario.OpResume, Alloc: sched.AllocName, Task: work})
			}
			sortCalls(s.Calls)
		}
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
	Faults: []faults.Class{faults.ClientCrash, faults.DriverRecoverFailure},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		s := windowed(d, 12, 0)
		s.Calls = []scenario.Call{{At: scenario.Duration(2*time.Minute + 30*time.Second),
			Op: prop.Pick(d, "override", []scenario.Op{scenario.OpPause, scenario.OpRun}), Alloc: sched.AllocName, Task: work}}
		sc := s.Build()
		if env.Allows(faults.ClientCrash) {
			crash := faults.Fault{Class: faults.ClientCrash, At: d.Duration("crash at", 4*time.Minute, 7*time.Minute, time.Second),
				For: d.Duration("down for", 10*time.Second, 2*time.Minute, time.Second)}
			// One run in three crashes inside the first window and
			// restarts before it ends, overriding only after that: the
			// restored task, recovered live with "" stored, is
			// re-evaluated inside and keeps running (no stop).
			inWindow := false
			if w, ok := firstWindow(s); ok && d.IntRange("restart in window", 0, 2) == 0 {
				span := w.End.Sub(w.Start) // a minute at least
				crash.At = w.Start.Sub(sc.Start) + d.Duration("crash into window", 5*time.Second, span/2, time.Second)
				crash.For = d.Duration("down in window", 5*time.Second, span/2-10*time.Second, time.Second)
				inWindow = true
			}
			// One run in three of the others crashes inside the first
			// window and restarts after it ended: the restored task,
			// recovered live with "" stored, is re-evaluated outside and
			// pause-stopped (PAUSE-10, PAUSE-5).
			if w, ok := firstWindow(s); ok && !inWindow && d.IntRange("restart after window", 0, 2) == 0 {
				at := w.Start.Sub(sc.Start) + d.Duration("crash into window", 5*time.Second, w.End.Sub(w.Start)/2, time.Second)
				down := w.End.Sub(sc.Start) - at + d.Duration("down past window end", 5*time.Second, 30*time.Second, time.Second)
				if at+down+time.Minute+5*time.Second < sc.Duration.D() {
					crash.At, crash.For = at, down
					inWindow = true // the override comes after the restart
				}
			}
			sc.Faults = faults.Plan{crash}
			// One run in three overrides only after the restart: the
			// client restarts with "" or scheduled_pause stored,
			// re-evaluated (a live task the schedule has paused
			// meanwhile is pause-stopped). One in three fails recoveries.
			if d.IntRange("override after restart", 0, 2) == 0 || inWindow {
				sc.Calls[0].At = scenario.Duration(crash.At + crash.For + d.Duration("override after restart by", 5*time.Second, time.Minute, time.Second))
			}
			if env.Allows(faults.DriverRecoverFailure) && d.IntRange("recover failure", 0, 2) == 0 {
				sc.Faults = append(sc.Faults, faults.Fault{Class: faults.DriverRecoverFailure, Rate: float64(d.IntRange("recover failure percent", 50, 100)) / 100})
			}
		}
		return sc
	},
	Situations: restoreSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		call := sc.Start.Add(sc.Calls[0].At.D())
		want := sc.Calls[0].Op.ScheduleState()
		o := oracle.New(sc, "sj", work)
		var down bool               // between a crash and the restart
		var runningPaused time.Time // since when the task runs while it should not
		check := prop.Checks{OnSettled: func(v *prop.View) {
			// Nor does it keep running while it should not: a recovered
			// live task whose state is paused is pause-stopped (PAUSE-10,
			// PAUSE-5), so it runs on at most a kill timeout.
			for _, r := range v.New {
				switch {
				case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
					down = true
				case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
					down = false
				}
			}
			running := false
			for _, a := range v.Allocs() {
				if ts := a.TaskStates[work]; ts != nil && ts.State == structs.TaskStateRunning {
					running = true
				}
			}
			switch {
			case down || !running || o.Run(v.Now()):
				runningPaused = time.Time{}
			case runningPaused.IsZero():
				runningPaused = v.Now()
			case v.Now().Sub(runningPaused) > pausedRunGrace:
				v.Violatef(sched.AllocName, work, fmt.Sprintf("task state since %s, its stored state %q", prop.When(runningPaused, nil), o.Stored(v.Now())),
					structs.TaskStateRunning, fmt.Sprintf("stopped within %s: a task that should not run, a restored live one included, is pause-stopped (PAUSE-10, PAUSE-5)", pausedRunGrace))
				return
			}
			// Whatever the crash did, the task is never stopped while it
			// should run: a restored "" is re-evaluated at the restore
			// instant, an override kept (PAUSE-10, PAUSE-3).
			for _, r := range v.New {
				// An override made at the very instant of a window's end
				// may come after the schedule's stop in that instant (the
				// world orders same-instant events): only a stop at an
				// instant the stored state did not change at is wrong.
				if r.Kind == trace.KindDriver && r.Task == work && r.Op == "StopTask" && o.Run(r.At) && o.Stored(r.At) == o.Stored(r.At.Add(-time.Nanosecond)) {
					v.Violatef(r.Alloc, work, fmt.Sprintf("driver StopTask while the task should run (stored state %q)", o.Stored(r.At)),
						"StopTask", "no stop: a restored task is re-evaluated at the restore, and one the schedule or an override runs keeps running (PAUSE-10)")
					return
				}
			}
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
