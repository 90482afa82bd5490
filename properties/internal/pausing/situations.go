package pausing

import (
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// handle follows the scheduled task's driver handle through the trace
// (driver records come before the task events of their instant).
type handle struct {
	live, stopping bool
	stops          int // exits that followed a StopTask
}

// see reads one record and returns the driver op it was for work
// ("" for none).
func (h *handle) see(r trace.Record) string {
	if r.Kind != trace.KindDriver || r.Task != work {
		return ""
	}
	switch r.Op {
	case "StartTask", "RecoverTask":
		if r.Msg == "ok" {
			h.live = true
		}
	case "StopTask":
		h.stopping = h.live
	case "Exit":
		if h.stopping {
			h.stops++
		}
		h.live, h.stopping = false, false
	}
	return r.Op
}

// exitSignal is the signal of a driver Exit record ("exit_code=0
// signal=2"), and whether its code or signal is non-zero.
func exitSignal(r trace.Record) (signal string, unsuccessful bool) {
	for _, f := range strings.Fields(r.Msg) {
		k, val, _ := strings.Cut(f, "=")
		switch k {
		case "signal":
			signal = val
			unsuccessful = unsuccessful || val != "0"
		case "exit_code":
			unsuccessful = unsuccessful || val != "0"
		}
	}
	return signal, unsuccessful
}

// passed reports whether the run is at or past t.
func passed(v *prop.View, t time.Time) bool { return !v.Now().Before(t) }

// apiSituations: PAUSE-2's requests and results.
var apiSituations = []prop.Situation{
	{Name: "get-inside", Doc: "get while tracking inside the window: \"\""},
	{Name: "get-outside", Doc: "get while tracking outside the window: scheduled_pause"},
	{Name: "get-force-pause", Doc: "get after a pause request: force_pause"},
	{Name: "get-force-run", Doc: "get after a run request: force_run"},
	{Name: "resume-inside", Doc: "schedule_resume inside the window: stores \"\""},
	{Name: "resume-outside", Doc: "schedule_resume outside the window: stores scheduled_pause"},
	{Name: "unknown-task", Doc: "a request for a task the alloc lacks: Task not found"},
	{Name: "set-unscheduled", Doc: "Set on an unscheduled task: has no schedule"},
	{Name: "get-unscheduled", Doc: "Get on an unscheduled task: \"\""},
	{Name: "resume-evaluation-error", Doc: "schedule_resume whose evaluation fails: the error, state kept"},
	{Name: "request-after-loop-finished", Doc: "a request after the task's loop finished for good: stored, no effect"},
}

func reachAPI(v *prop.View, o *oracle.Oracle, r trace.Record) {
	get := r.Op == string(scenario.OpGetPause)
	if a := v.Alloc(r.Alloc); a != nil {
		if ts := a.TaskStates[r.Task]; ts != nil && ts.State == structs.TaskStateDead {
			v.Reach("request-after-loop-finished")
		}
	}
	switch {
	case r.Task != work && r.Task != side:
		v.Reach("unknown-task")
	case r.Task == side && get:
		v.Reach("get-unscheduled")
	case r.Task == side:
		v.Reach("set-unscheduled")
	case get:
		v.Reach(map[structs.TaskScheduleState]string{
			structs.TaskScheduleStateRun:           "get-inside",
			structs.TaskScheduleStateSchedulePause: "get-outside",
			structs.TaskScheduleStateForcePause:    "get-force-pause",
			structs.TaskScheduleStateForceRun:      "get-force-run",
		}[o.Stored(r.At)])
	case r.Op == string(scenario.OpResume):
		if _, e := oracle.APIResult(r); e != "" {
			v.Reach("resume-evaluation-error")
		} else if o.Stored(r.At) == structs.TaskScheduleStateRun {
			v.Reach("resume-inside")
		} else {
			v.Reach("resume-outside")
		}
	}
}

// eventSituations: PAUSE-4's effective changes, and the changes that
// append nothing.
var eventSituations = []prop.Situation{
	{Name: "pausing-schedule", Doc: "Pausing due to schedule"},
	{Name: "pausing-override", Doc: "Pausing due to override (force_pause)"},
	{Name: "running-schedule", Doc: "Running due to schedule"},
	{Name: "running-override", Doc: "Running due to override (force_run)"},
	{Name: "arrive-inside", Doc: "the task first reaches the gate inside its window: no Running before its first Started"},
	{Name: "arrive-outside", Doc: "the task first reaches the gate outside its window: Pausing after Task Setup"},
	{Name: "stored-only-change", Doc: "the stored state changes without the effective one (force_pause and scheduled_pause, force_run and \"\"): nothing appended"},
	{Name: "boundary-under-override", Doc: "a window boundary while an override holds: nothing appended"},
	{Name: "pause-stops-live-task", Doc: "becoming paused with a live task: stopped, the gate re-entered unchanged after its restart"},
	{Name: "running-before-exit", Doc: "the state turned not paused before the pause stop's exit was seen"},
	{Name: "unscheduled-sibling", Doc: "an unscheduled task beside it: never Pausing or Running"},
}

// eventReach counts eventSituations of one run.
type eventReach struct {
	o       *oracle.Oracle
	changes []oracle.Change
	quiet   []time.Time // stored-only changes
	under   []time.Time // window boundaries under an override
	h       handle
}

func newEventReach(sc scenario.Scenario, o *oracle.Oracle) *eventReach {
	e := &eventReach{o: o, changes: o.Changes()}
	for _, c := range sc.Calls {
		t := sc.Start.Add(c.At.D())
		if c.Task != work || c.Op.ScheduleState() == "" {
			continue
		}
		prev, cur := o.Stored(t.Add(-time.Nanosecond)), o.Stored(t)
		if prev != cur && prev.Paused() == cur.Paused() {
			e.quiet = append(e.quiet, t)
		}
	}
	if s := o.Schedule(o.Arrival); s != nil {
		ws, _ := schedule.NextWindows(s, o.Arrival, o.Loc, 8)
		for _, w := range ws {
			for _, b := range []time.Time{w.Start, w.End} {
				if st := o.Stored(b); !b.IsZero() && b.Before(o.End) && (st == structs.TaskScheduleStateForcePause || st == structs.TaskScheduleStateForceRun) {
					e.under = append(e.under, b)
				}
			}
		}
	}
	return e
}

func (e *eventReach) settled(v *prop.View) {
	if len(e.changes) > 0 && e.changes[0].At.Equal(e.o.Arrival) && passed(v, e.o.Arrival) {
		if e.changes[0].Run {
			v.Reach("arrive-inside")
		} else {
			v.Reach("arrive-outside")
		}
	}
	if len(e.quiet) > 0 && passed(v, e.quiet[0]) {
		v.Reach("stored-only-change")
	}
	if len(e.under) > 0 && passed(v, e.under[0]) {
		v.Reach("boundary-under-override")
	}
	for _, r := range v.New {
		if e.h.see(r) == "StopTask" && e.h.stopping {
			v.Reach("pause-stops-live-task")
		}
		if r.Kind != trace.KindTaskEvent {
			continue
		}
		if r.Task == side && r.Msg == structs.TaskReceived {
			v.Reach("unscheduled-sibling")
		}
		if r.Task != work {
			continue
		}
		ev := oracle.EventOf(r)
		if ev.Type == structs.TaskRunning && e.h.stopping {
			v.Reach("running-before-exit")
		}
		switch {
		case ev.Type == structs.TaskPausing && ev.Display == structs.DisplayPausingSchedule:
			v.Reach("pausing-schedule")
		case ev.Type == structs.TaskPausing && ev.Display == structs.DisplayPausingOverride:
			v.Reach("pausing-override")
		case ev.Type == structs.TaskRunning && ev.Display == structs.DisplayRunningSchedule:
			v.Reach("running-schedule")
		case ev.Type == structs.TaskRunning && ev.Display == structs.DisplayRunningOverride:
			v.Reach("running-override")
		}
	}
}

// stopSituations: PAUSE-5's pause stop and PAUSE-8's gate.
var stopSituations = []prop.Situation{
	{Name: "window-end-stop", Doc: "a live task stopped at its window's end (no Killing)"},
	{Name: "exit-on-stop-signal", Doc: "the stopped task exited on its KillSignal within its kill timeout"},
	{Name: "force-kill-after-timeout", Doc: "the stopped task outlived its capped kill timeout: force-killed"},
	{Name: "restarting-0s", Doc: "the pause stop's Terminated followed by Restarting in 0s with an empty reason"},
	{Name: "gated-task-and-alloc-pending", Doc: "the task waits in the gate: task and alloc pending"},
	{Name: "arrive-outside", Doc: "the task first reaches the gate outside its window: pending, never started"},
	{Name: "window-reopens-after-stop", Doc: "a window opened again after a pause stop: Running, then Started"},
	{Name: "pause-in-restart-delay", Doc: "the task became paused in a restart delay or prestart: it blocks at the gate"},
	{Name: "alloc-kill-in-gate", Doc: "an alloc kill while the task waits in the gate: dead, not failed (PAUSE-8)"},
}

// stopReach counts stopSituations.
type stopReach struct {
	o       *oracle.Oracle
	changes []oracle.Change
	h       handle
	gated   bool
	last    oracle.Event // work's previous event
}

func newStopReach(sc scenario.Scenario) *stopReach {
	o := oracle.New(sc, "sj", work)
	return &stopReach{o: o, changes: o.Changes()}
}

func (s *stopReach) checker() prop.Checker { return prop.Checks{OnSettled: s.settled} }

func (s *stopReach) settled(v *prop.View) {
	if len(s.changes) > 0 && !s.changes[0].Run && s.changes[0].At.Equal(s.o.Arrival) && passed(v, s.o.Arrival) {
		v.Reach("arrive-outside")
	}
	for _, r := range v.New {
		stopping := s.h.stopping
		switch s.h.see(r) {
		case "StopTask":
			if s.h.stopping {
				v.Reach("window-end-stop")
			}
		case "Exit":
			if sig, _ := exitSignal(r); stopping && sig == "9" {
				v.Reach("force-kill-after-timeout")
			} else if stopping {
				v.Reach("exit-on-stop-signal")
			}
		}
		if r.Kind != trace.KindTaskEvent || r.Task != work {
			continue
		}
		ev := oracle.EventOf(r)
		switch ev.Type {
		case structs.TaskRestarting:
			if s.h.stops > 0 && ev.Display == "Task restarting in 0s" && ev.Details["restart_reason"] == "" {
				v.Reach("restarting-0s")
				s.gated = true
			}
		case structs.TaskRunning:
			if s.h.stops > 0 {
				v.Reach("window-reopens-after-stop")
			}
			s.gated = false
		case structs.TaskPausing:
			if !s.h.live && s.last.Type == structs.TaskRestarting && s.last.Details["restart_reason"] != "" {
				v.Reach("pause-in-restart-delay")
			}
		case structs.TaskKilling:
			if !s.h.live {
				v.Reach("alloc-kill-in-gate")
			}
		}
		s.last = ev
	}
	if !s.gated {
		return
	}
	for _, a := range v.Allocs() {
		if ts := a.TaskStates[work]; ts != nil && ts.State == structs.TaskStatePending && a.ClientStatus == structs.AllocClientStatusPending {
			v.Reach("gated-task-and-alloc-pending")
		}
	}
}

// attemptSituations: PAUSE-6's accounting.
var attemptSituations = []prop.Situation{
	{Name: "stops-beyond-attempts", Doc: "more pause stops than the policy allows restarts"},
	{Name: "attempts-zero", Doc: "a pause stop under a policy of 0 attempts"},
	{Name: "attempts-one", Doc: "a pause stop under a policy of 1 attempt"},
	{Name: "window-end-stop", Doc: "a pause stop at a window's end (scheduled_pause)"},
	{Name: "force-pause-stop", Doc: "a pause stop by force_pause"},
	{Name: "force-run-outside", Doc: "force_run started the task outside its window"},
	{Name: "unsuccessful-pause-exit", Doc: "a pause-induced exit with a non-zero code or signal: still no attempt, never failed"},
	{Name: "other-exit-follows-policy", Doc: "an exit no pause caused (crash, Signal API, normal exit): the restart policy applies"},
}

// attemptReach counts attemptSituations.
type attemptReach struct {
	o        *oracle.Oracle
	attempts int
	h        handle
}

func newAttemptReach(sc scenario.Scenario) *attemptReach {
	a := &attemptReach{o: oracle.New(sc, "sj", work), attempts: -1}
	for _, j := range sc.Jobs {
		for _, tg := range j.Job.TaskGroups {
			if tg.LookupTask(work) != nil {
				a.attempts = tg.RestartPolicy.WithDefaults(j.Job.Type).GetAttempts()
			}
		}
	}
	return a
}

func (a *attemptReach) checker() prop.Checker { return prop.Checks{OnSettled: a.settled} }

func (a *attemptReach) settled(v *prop.View) {
	for _, r := range v.New {
		stopping := a.h.stopping
		switch a.h.see(r) {
		case "StopTask":
			if !a.h.stopping {
				break
			}
			if a.o.Stored(r.At) == structs.TaskScheduleStateForcePause {
				v.Reach("force-pause-stop")
			} else {
				v.Reach("window-end-stop")
			}
		case "StartTask":
			if a.o.Stored(r.At) == structs.TaskScheduleStateForceRun && !sched.InsideBySchedule(a.o, r.At) {
				v.Reach("force-run-outside")
			}
		case "Exit":
			if !stopping {
				v.Reach("other-exit-follows-policy")
				break
			}
			if _, bad := exitSignal(r); bad {
				v.Reach("unsuccessful-pause-exit")
			}
			switch a.attempts {
			case 0:
				v.Reach("attempts-zero")
			case 1:
				v.Reach("attempts-one")
			}
			if a.attempts >= 0 && a.h.stops > a.attempts {
				v.Reach("stops-beyond-attempts")
			}
		}
	}
}

// changeSituations: PAUSE-7's schedule change.
var changeSituations = []prop.Situation{
	{Name: "update-while-inside", Doc: "the schedule changed while tracking inside the window: re-evaluated at once"},
	{Name: "update-while-outside", Doc: "the schedule changed while tracking outside the window: re-evaluated at once"},
	{Name: "update-opens-window", Doc: "the new schedule has the task inside at once: started in place"},
	{Name: "update-closes-window", Doc: "the new schedule has the task outside at once: stopped in place"},
	{Name: "update-no-effective-change", Doc: "the new schedule leaves the effective state as it was"},
	{Name: "schedule-removed", Doc: "the update removed the schedule: \"\""},
	{Name: "schedule-added", Doc: "the update added a schedule to an unscheduled task: tracking starts at once"},
	{Name: "update-under-override", Doc: "the schedule changed under an override: used at the next schedule_resume"},
	{Name: "same-alloc-higher-index", Doc: "the server kept the alloc and raised its AllocModifyIndex"},
}

// changeReach counts changeSituations.
type changeReach struct {
	at    time.Time
	names []string // reached once the run is at the update
	index uint64   // the alloc's AllocModifyIndex before the update
}

func newChangeReach(sc scenario.Scenario) *changeReach {
	o := oracle.New(sc, "sj", work)
	c := &changeReach{}
	for _, call := range sc.Calls {
		if call.Op != scenario.OpUpdateSchedule || call.Task != work {
			continue
		}
		c.at = sc.Start.Add(call.At.D())
		before, after := o.Stored(c.at.Add(-time.Nanosecond)), o.Stored(c.at)
		switch {
		case o.Schedule(c.at.Add(-time.Nanosecond)) == nil:
			c.names = append(c.names, "schedule-added")
		case before == structs.TaskScheduleStateForcePause || before == structs.TaskScheduleStateForceRun:
			c.names = append(c.names, "update-under-override")
		case before == structs.TaskScheduleStateRun:
			c.names = append(c.names, "update-while-inside")
		default:
			c.names = append(c.names, "update-while-outside")
		}
		switch {
		case before.Paused() && !after.Paused():
			c.names = append(c.names, "update-opens-window")
		case !before.Paused() && after.Paused():
			c.names = append(c.names, "update-closes-window")
		default:
			c.names = append(c.names, "update-no-effective-change")
		}
		if call.Schedule == nil {
			c.names = append(c.names, "schedule-removed")
		}
	}
	return c
}

func (c *changeReach) checker() prop.Checker { return prop.Checks{OnSettled: c.settled} }

func (c *changeReach) settled(v *prop.View) {
	if c.at.IsZero() {
		return
	}
	for _, a := range v.Allocs() {
		sa := v.ServerAlloc(a.ID)
		if sa == nil {
			continue
		}
		if v.Now().Before(c.at) {
			c.index = sa.AllocModifyIndex
		} else if c.index != 0 && sa.AllocModifyIndex > c.index {
			v.Reach("same-alloc-higher-index")
		}
	}
	if passed(v, c.at) {
		for _, n := range c.names {
			v.Reach(n)
		}
	}
}

// restoreSituations: PAUSE-10's restored pause states.
var restoreSituations = []prop.Situation{
	{Name: "force-pause-restored", Doc: "a client restarted with force_pause stored: kept"},
	{Name: "force-run-restored", Doc: "a client restarted with force_run stored: kept"},
	{Name: "restored-inside-window", Doc: "restored while the schedule alone has the task inside"},
	{Name: "restored-outside-window", Doc: "restored while the schedule alone has the task outside"},
	{Name: "boundary-while-down", Doc: "a window boundary passed while the client was down"},
	{Name: "recovered-live-task", Doc: "the restored task recovered its live handle"},
	{Name: "recovered-live-paused", Doc: "a recovered live task whose stored state is paused: pause-stopped (PAUSE-5)"},
	{Name: "recovered-live-inside", Doc: "a recovered live task restored with \"\" stored inside its window: re-evaluated, keeps running"},
	{Name: "schedule-state-reevaluated", Doc: "restored with \"\" or scheduled_pause stored: re-evaluated at the gate"},
	{Name: "recover-failure", Doc: "the restored task failed to recover its handle"},
}

// restoreReach counts restoreSituations.
type restoreReach struct {
	o       *oracle.Oracle
	crashAt time.Time
}

func newRestoreReach(sc scenario.Scenario) *restoreReach {
	return &restoreReach{o: oracle.New(sc, "sj", work)}
}

func (c *restoreReach) checker() prop.Checker { return prop.Checks{OnSettled: c.settled} }

func (c *restoreReach) settled(v *prop.View) {
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			c.crashAt = r.At
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart && !c.crashAt.IsZero():
			switch c.o.Stored(r.At) {
			case structs.TaskScheduleStateForcePause:
				v.Reach("force-pause-restored")
			case structs.TaskScheduleStateForceRun:
				v.Reach("force-run-restored")
			default:
				v.Reach("schedule-state-reevaluated")
			}
			in := sched.InsideBySchedule(c.o, r.At)
			if in {
				v.Reach("restored-inside-window")
			} else {
				v.Reach("restored-outside-window")
			}
			if in != sched.InsideBySchedule(c.o, c.crashAt) {
				v.Reach("boundary-while-down")
			}
		case r.Kind == trace.KindDriver && r.Task == work && r.Op == "RecoverTask" && r.Msg == "ok":
			v.Reach("recovered-live-task")
			if c.o.Stored(r.At).Paused() {
				v.Reach("recovered-live-paused")
			}
			if c.o.Stored(r.At) == structs.TaskScheduleStateRun && sched.InsideBySchedule(c.o, r.At) {
				v.Reach("recovered-live-inside")
			}
		case r.Kind == trace.KindDriver && r.Task == work && r.Op == "RecoverTask" && r.Msg != "already_tracked":
			v.Reach("recover-failure")
		}
	}
}

// signalSituations: PAUSE-11's signals.
var signalSituations = []prop.Situation{
	{Name: "signal-paused-task", Doc: "Signal on a paused scheduled task: Task not running"},
	{Name: "signal-live-scheduled-task", Doc: "Signal on a running scheduled task: Signaling, then delivered"},
	{Name: "signal-unscheduled-task", Doc: "Signal on a running unscheduled task"},
	{Name: "signal-while-stopping", Doc: "Signal while a pause stop is under way (paused, the handle still live)"},
	{Name: "signal-dead-task", Doc: "Signal on a dead task: Task not running"},
	{Name: "signal-exits-task", Doc: "a signal the task exits on: the normal exit path follows"},
}

// signalReach counts signalSituations.
type signalReach struct {
	o        *oracle.Oracle
	h        handle
	signaled map[string]bool // tasks signaled and not exited since
}

func newSignalReach(sc scenario.Scenario) *signalReach {
	return &signalReach{o: oracle.New(sc, "sj", work), signaled: map[string]bool{}}
}

func (c *signalReach) checker() prop.Checker { return prop.Checks{OnSettled: c.settled} }

func (c *signalReach) settled(v *prop.View) {
	for _, r := range v.New {
		stopping := c.h.stopping
		c.h.see(r)
		switch {
		case r.Kind == trace.KindDriver && r.Op == "StopTask":
			delete(c.signaled, r.Task)
		case r.Kind == trace.KindDriver && r.Op == "Exit":
			if c.signaled[r.Task] && (r.Task != work || !stopping) {
				v.Reach("signal-exits-task")
			}
			delete(c.signaled, r.Task)
		case r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskSignaling:
			c.signaled[r.Task] = true
		case r.Kind == trace.KindAPI && r.Op == string(scenario.OpSignal):
			if a := v.Alloc(r.Alloc); a != nil {
				if ts := a.TaskStates[r.Task]; ts != nil && ts.State == structs.TaskStateDead {
					v.Reach("signal-dead-task")
				}
			}
			switch {
			case r.Task == side:
				v.Reach("signal-unscheduled-task")
			case c.h.stopping:
				v.Reach("signal-while-stopping")
			case c.o.Run(r.At):
				v.Reach("signal-live-scheduled-task")
			default:
				v.Reach("signal-paused-task")
			}
		}
	}
}
