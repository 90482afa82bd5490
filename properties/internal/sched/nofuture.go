package sched

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/server"
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

// plainJobID is the job without schedules some ce scenarios register
// beside the scheduled one.
const plainJobID = "plain"

// registeredJob is the job of a register record.
func registeredJob(r trace.Record) string {
	var d struct{ Job string }
	_ = json.Unmarshal(r.Data, &d)
	return d.Job
}

// noFutureStarts are schedules without a future start (SCHED-9). The
// past years end before 2023 ends anywhere: a run on 1 January 2024 (UTC)
// is still on 31 December 2023 in a zone west of UTC, where a 2023 start
// may have opened a window that is still open.
var noFutureStarts = []string{"0 9 30 2 * *", "0 9 * * * 2001", "30 7 31 4 * *", "0 0 * * FRI-MON *", "15 10 * * * 2022"}

// noFutureStart: SCHED-9.
var noFutureStart = prop.Property{
	ID:    "SCHED-9/no-future-start",
	Specs: []string{"SCHED-9", "PAUSE-3", "PAUSE-4"},
	Doc:   "a schedule without future start keeps the task scheduled_pause and never started (overrides still work), with the no-future-start hook message once, after Pausing",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		local, tz, _ := DrawZones(d, Zones)
		start := DrawDay(d, true).Add(d.Duration("start", 0, 24*time.Hour, time.Minute))
		sc := Spec{Start: start, Duration: 20 * time.Minute, LocalZone: local,
			Cron:   &schedule.Cron{Start: prop.Pick(d, "start expr", noFutureStarts), End: at(d.IntRange("end m", 0, 59), d.IntRange("end h", 0, 23)), Timezone: tz},
			Config: killAfter(d), Calls: Calls(d, 3, 2, 20)}.Build()
		// One run in three adopts another schedule without future start
		// while paused and tracking (before the overrides, which start at
		// 2m30s): a distinct one gets a notice of its own on detection,
		// the same one none.
		if d.IntRange("schedule update", 0, 2) == 0 {
			cron := *cronOf(sc)
			if !d.Bool("same schedule") {
				cron = schedule.Cron{Start: prop.Pick(d, "new start expr", noFutureStarts), End: at(d.IntRange("new end m", 0, 59), d.IntRange("new end h", 0, 23)), Timezone: tz}
			}
			sc.Calls = append([]scenario.Call{{At: scenario.Duration(d.Duration("update at", time.Minute, 2*time.Minute, time.Second)),
				Op: scenario.OpUpdateSchedule, Job: jobID, Task: taskName, Schedule: &schedule.Schedule{Cron: &cron}}}, sc.Calls...)
		}
		return sc
	},
	Situations: noFutureSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		o := oracle.New(sc, jobID, taskName)
		firstCall := sc.End()
		if len(sc.Calls) > 0 {
			firstCall = sc.Start.Add(sc.Calls[0].At.D())
		}
		// One notice per distinct schedule (SCHED-9): the first, and one
		// for a distinct schedule adopted while tracking (the draw's
		// updates come before any override).
		want, seen := 1, []string{pause.ScheduleKey(workTask(sc).Schedule)}
		for _, c := range sc.Calls {
			if c.Op == scenario.OpUpdateSchedule && c.Task == taskName && !slices.Contains(seen, pause.ScheduleKey(c.Schedule)) {
				seen = append(seen, pause.ScheduleKey(c.Schedule))
				want++
			}
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
					if !pausing || msgs > want {
						v.Violatef(r.Alloc, r.Task, fmt.Sprintf("Task hook message %q (number %d; Pausing before it: %v)", ev.Message, msgs, pausing),
							"appended", fmt.Sprintf("once per distinct schedule (%d), after the first Pausing", want))
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
			if msgs != want {
				v.Violatef("", taskName, "Task hook message \""+pause.MsgNoFutureStart+"\" count", msgs, want)
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
		// Sometimes the side task is scheduled too (still one error per
		// job), and sometimes a job without any schedule is registered
		// beside (accepted: nothing else differs under ce, SCOPE-2).
		if s.Side && d.Bool("side scheduled") {
			s.SideCron = &schedule.Cron{Start: "30 8 * * * *", End: "0 12", Timezone: tz}
		}
		sc := s.Build()
		if d.IntRange("unscheduled job", 0, 2) == 0 {
			t := &structs.Task{Name: "plain", Driver: "mock_driver", KillTimeout: 5 * time.Second, KillSignal: "SIGINT", Config: map[string]any{}}
			j := &structs.Job{ID: plainJobID, Name: plainJobID, Type: structs.JobTypeService,
				TaskGroups: []*structs.TaskGroup{{Name: "g", Count: 1, Tasks: []*structs.Task{t}}}}
			j.Canonicalize()
			sc.Jobs = append(sc.Jobs, scenario.JobAt{At: scenario.Duration(d.Duration("unscheduled job at", 0, time.Minute, time.Second)), Job: j})
		}
		return sc
	},
	Situations: ceSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		rejected := 0
		// plain reports whether alloc id is of the job without schedules,
		// which ce accepts like any other.
		plain := func(v *prop.View, id string) bool {
			a := v.ServerAlloc(id)
			return a != nil && a.JobID == plainJobID
		}
		check := prop.Checks{OnSettled: func(v *prop.View) {
			for _, r := range v.New {
				switch {
				case r.Kind == trace.KindJob && r.Op == "register" && registeredJob(r) == plainJobID:
					if _, e := oracle.APIResult(r); r.Msg != server.RegisterPlaced || e != "" {
						v.Violatef("", "", "job register outcome of a job without schedules", r.Msg+" "+fmt.Sprintf("%q", e), server.RegisterPlaced+" (ce rejects schedules only)")
						return
					}
				case r.Kind == trace.KindJob && r.Op == "register":
					_, e := oracle.APIResult(r)
					if r.Msg != "rejected" || e != schedule.ErrEnterpriseOnly.Error() {
						v.Violatef("", "", "job register outcome", r.Msg+" "+fmt.Sprintf("%q", e), "rejected \""+schedule.ErrEnterpriseOnly.Error()+"\"")
						return
					}
					rejected++
				case r.Kind == trace.KindDriver && !plain(v, r.Alloc):
					v.Violatef(r.Alloc, r.Task, "driver call", r.Op, "none (the job is rejected)")
					return
				}
			}
			n := 0
			for _, a := range v.Allocs() {
				if !plain(v, a.ID) {
					n++
				}
			}
			if n > 0 {
				v.Violatef("", "", "allocs of the rejected job on the client", n, 0)
			}
		}, OnFinal: func(v *prop.View) {
			if rejected != 1 {
				v.Violatef("", "", "job rejections", rejected, 1)
			}
		}}
		return Both(check, reachCE(sc))
	},
}
