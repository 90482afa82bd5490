package sched

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// Both runs two checkers.
func Both(a, b prop.Checker) prop.Checker {
	return prop.Checks{
		OnSettled: func(v *prop.View) {
			if a.Settled(v); !v.Failed() {
				b.Settled(v)
			}
		},
		OnFinal: func(v *prop.View) {
			if a.Final(v); !v.Failed() {
				b.Final(v)
			}
		},
	}
}

// noFutureStarts are schedules without a future start (SCHED-9).
var noFutureStarts = []string{"0 9 30 2 * *", "0 9 * * * 2001", "30 7 31 4 * *", "0 0 * * FRI-MON *", "15 10 * * * 2023"}

// noFutureStart: SCHED-9.
var noFutureStart = prop.Property{
	ID:    "SCHED-9/no-future-start",
	Specs: []string{"SCHED-9", "PAUSE-3", "PAUSE-4"},
	Doc:   "a schedule without future start keeps the task scheduled_pause and never started (overrides still work), with the no-future-start hook message once, after Pausing",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		local, tz, _ := DrawZones(d, Zones)
		start := DrawDay(d, true).Add(d.Duration("start", 0, 24*time.Hour, time.Minute))
		return Spec{Start: start, Duration: 20 * time.Minute, LocalZone: local,
			Cron:   &schedule.Cron{Start: prop.Pick(d, "start expr", noFutureStarts), End: at(d.IntRange("end m", 0, 59), d.IntRange("end h", 0, 23)), Timezone: tz},
			Config: killAfter(d), Calls: Calls(d, 3, 2, 20)}.Build()
	},
	Situations: noFutureSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		o := oracle.New(sc, jobID, taskName)
		firstCall := sc.End()
		if len(sc.Calls) > 0 {
			firstCall = sc.Start.Add(sc.Calls[0].At.D())
		}
		pausing, msgs := false, 0
		check := prop.Checks{OnSettled: func(v *prop.View) {
			for _, r := range v.New {
				if r.Kind != trace.KindTaskEvent || r.Task != taskName {
					continue
				}
				ev := oracle.EventOf(r)
				switch {
				case ev.Type == structs.TaskPausing:
					pausing = true
				case ev.Type == structs.TaskHookMessage && ev.Message == pause.MsgNoFutureStart:
					msgs++
					if !pausing || msgs > 1 {
						v.Violatef(r.Alloc, r.Task, fmt.Sprintf("Task hook message %q (number %d; Pausing before it: %v)", ev.Message, msgs, pausing),
							"appended", "once, after the first Pausing")
						return
					}
				}
			}
			if now := v.Now(); now.Before(firstCall) {
				for _, a := range v.Allocs() {
					if ts := a.TaskStates[taskName]; ts != nil && now.After(o.Arrival) && ts.Paused != structs.TaskScheduleStateSchedulePause {
						v.Violatef(a.ID, taskName, "stored pause state", fmt.Sprintf("%q", ts.Paused), "scheduled_pause")
						return
					}
				}
			}
		}, OnFinal: func(v *prop.View) {
			if msgs != 1 {
				v.Violatef("", taskName, "Task hook message \""+pause.MsgNoFutureStart+"\" count", msgs, 1)
			}
		}}
		return Both(Both(RunChecker(sc, 0), check), reachNoFuture(sc))
	},
}

// ceRejects: SCHED-1 under the ce profile.
var ceRejects = prop.Property{
	ID:    "SCHED-1/ce-rejects-schedules",
	Specs: []string{"SCHED-1", "SCHED-2"},
	Doc:   "under the ce profile a job with a schedule is rejected with the ce message and nothing is placed or started",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		local, tz, _ := DrawZones(d, Zones)
		s := Spec{Start: DrawDay(d, true), Duration: 3 * time.Minute, LocalZone: local, Profile: string(schedule.ProfileCE),
			Side: d.Bool("side")}
		if d.Bool("no cron") {
			s.NoCron = true
		} else {
			s.Cron = &schedule.Cron{Start: "0 9 * * * *", End: "0 17", Timezone: tz}
		}
		return s.Build()
	},
	Situations: ceSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		rejected := 0
		check := prop.Checks{OnSettled: func(v *prop.View) {
			for _, r := range v.New {
				switch {
				case r.Kind == trace.KindJob && r.Op == "register":
					_, e := oracle.APIResult(r)
					if r.Msg != "rejected" || e != schedule.ErrEnterpriseOnly.Error() {
						v.Violatef("", "", "job register outcome", r.Msg+" "+fmt.Sprintf("%q", e), "rejected \""+schedule.ErrEnterpriseOnly.Error()+"\"")
						return
					}
					rejected++
				case r.Kind == trace.KindDriver:
					v.Violatef(r.Alloc, r.Task, "driver call", r.Op, "none (the job is rejected)")
					return
				}
			}
			if n := len(v.Allocs()); n > 0 {
				v.Violatef("", "", "allocs on the client", n, 0)
			}
		}, OnFinal: func(v *prop.View) {
			if rejected != 1 {
				v.Violatef("", "", "job rejections", rejected, 1)
			}
		}}
		return Both(check, reachCE(sc))
	},
}
