package sim_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// Virtual instants of the schedule scenario (UTC; New York is UTC-4).
var (
	windowStart = time.Date(2024, 6, 14, 13, 0, 0, 0, time.UTC)  // 09:00 New York
	shortEnd    = time.Date(2024, 6, 14, 13, 5, 0, 0, time.UTC)  // 09:05 New York
	windowEnd   = time.Date(2024, 6, 14, 13, 30, 0, 0, time.UTC) // 09:30 New York
)

// webJob is the scheduled service job of the scenario: one mock task that
// runs until stopped, exits 500 ms after a terminating signal and ignores
// SIGHUP, inside a New York window from 09:00 to end. Its restart policy
// allows no attempt: any exit but a pause stop would fail it (PAUSE-6).
func webJob(end string) *api.Job {
	t := mockTask("t", map[string]any{"kill_after": "500ms", "ignore_signals": "SIGHUP"})
	t.Schedule = nyWindow(end)
	j := oneGroupJob(api.NewServiceJob, "web", t)
	j.TaskGroups[0].RestartPolicy = &api.RestartPolicy{
		Attempts: pointer(0), Interval: pointer(30 * time.Minute), Delay: pointer(15 * time.Second), Mode: pointer("fail"),
	}
	return j
}

func pointer[T any](v T) *T { return &v }

func isStatus(status string) func(a *structs.Allocation) bool {
	return func(a *structs.Allocation) bool { return a.ClientStatus == status }
}

// TestAPIScheduleLifecycle drives one scheduled task through the official
// client, routed locally and forwarded (API-7), on virtual time:
//
//	12:55  register (API-4): placed, pending, `Pausing due to schedule`
//	13:00  window start: `Running due to schedule`, `Started`, exactly then
//	13:02  re-register with the window ending 09:05 New York: in place
//	       (same alloc, higher AllocModifyIndex, PAUSE-7)
//	13:05  the new end: `Pausing due to schedule`, pause stop (PAUSE-5)
//	13:06  run (API-2): force_run, `Running due to override`, `Started`
//	13:07  pause: force_pause, `Pausing due to override`, pause stop
//	13:08  scheduled: scheduled_pause, no event (PAUSE-4)
//	13:09  re-register with the 09:30 end: inside at once, running
//	13:10  signal SIGHUP (API-6): `Signaling`, the task keeps running
//	13:30  window end: `Pausing due to schedule`
//
// then reads the hook telemetry at /v1/metrics with exact counts.
func TestAPIScheduleLifecycle(t *testing.T) {
	for _, route := range routings {
		t.Run(string(route), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { scheduleLifecycle(t, route) })
		})
	}
}

func scheduleLifecycle(t *testing.T, route routing) {
	r := newAPIRig(t, apiScenario("api_schedule", 21, 2*time.Hour), route)

	// 12:55 register: placed, then paused at the gate outside the window.
	reg := r.register(webJob("30 9"))
	must.UUIDv4(t, reg.EvalID)
	must.Positive(t, reg.JobModifyIndex)
	must.EqOp(t, reg.JobModifyIndex, reg.EvalCreateIndex)
	stub := r.onlyAlloc("web")
	must.EqOp(t, "web.g[0]", stub.Name)
	must.EqOp(t, reg.JobModifyIndex, stub.CreateIndex)
	id := stub.ID

	a := r.until(id, time.Minute, "paused before the window", func(a *structs.Allocation) bool {
		return a.TaskStates["t"] != nil && len(a.TaskStates["t"].Events) >= 3
	})
	must.EqOp(t, structs.AllocClientStatusPending, a.ClientStatus, must.Sprint("PAUSE-8: a paused task leaves the alloc pending"))
	must.EqOp(t, structs.TaskStatePending, a.TaskStates["t"].State)
	must.Eq(t, []string{
		"t 12:55:00.000 Received Task received by client",
		"t 12:55:00.000 Task Setup Building Task Directory",
		"t 12:55:00.000 Pausing Pausing due to schedule",
	}, eventLines(a, "t"))
	must.EqOp(t, reg.JobModifyIndex, a.AllocModifyIndex)
	must.EqOp(t, "scheduled_pause", r.pauseState(id, "t"))

	// 13:00 window start: running exactly at the window's start instant.
	a = r.until(id, 10*time.Minute, "running in the window", isStatus(structs.AllocClientStatusRunning))
	must.Eq(t, []string{
		"t 13:00:00.000 Running Running due to schedule",
		"t 13:00:00.000 Started Task started by client",
	}, eventsAfter(a, "t", apiStart))
	must.Eq(t, []int64{windowStart.UnixNano()}, eventTimes(a, "t", structs.TaskStarted), must.Sprint("Started at the window's start instant, to the nanosecond"))
	must.True(t, r.w.Now().Before(windowStart.Add(time.Second)), must.Sprint("the server learns it within a sync tick and a commit window"))
	must.EqOp(t, "", r.pauseState(id, "t"))

	// 13:02 in-place update (PAUSE-7): same alloc, higher AllocModifyIndex.
	r.w.Advance(windowStart.Add(2 * time.Minute).Sub(r.w.Now()))
	reg2 := r.register(webJob("5 9"))
	must.Greater(t, reg.JobModifyIndex, reg2.JobModifyIndex)
	must.EqOp(t, id, r.onlyAlloc("web").ID, must.Sprint("a schedule-only change is in place"))
	a = r.info(id)
	must.EqOp(t, reg2.JobModifyIndex, a.AllocModifyIndex)
	must.EqOp(t, "5 9", a.Job.TaskGroups[0].Tasks[0].Schedule.Cron.End)
	must.EqOp(t, "", r.pauseState(id, "t"), must.Sprint("still inside until 09:05 New York"))

	// 13:05 the new end: a pause stop, no Killing (PAUSE-5).
	a = r.until(id, 5*time.Minute, "paused at the new end", isStatus(structs.AllocClientStatusPending))
	must.Eq(t, []int64{shortEnd.UnixNano()}, eventTimes(a, "t", structs.TaskPausing)[1:], must.Sprint("paused at the new end, to the nanosecond"))
	must.Eq(t, []string{
		"t 13:05:00.000 Pausing Pausing due to schedule",
		"t 13:05:00.500 Terminated Exit Code: 0, Signal: 2",
		"t 13:05:00.500 Restarting Task restarting in 0s",
	}, eventsAfter(a, "t", windowStart))
	must.EqOp(t, "scheduled_pause", r.pauseState(id, "t"))
	must.EqOp(t, uint64(1), a.TaskStates["t"].Restarts, must.Sprint("DATA-6: a pause-induced Restarting counts too"))
	must.False(t, a.TaskStates["t"].Failed, must.Sprint("PAUSE-6: a pause stop consumes no policy attempt"))

	// 13:06 run: force_run, stored before the call returns (PAUSE-2).
	r.w.Advance(shortEnd.Add(time.Minute).Sub(r.w.Now()))
	must.NoError(t, r.setPause(id, "t", "run"))
	must.EqOp(t, "force_run", r.pauseState(id, "t"))
	a = r.until(id, time.Minute, "running by override", isStatus(structs.AllocClientStatusRunning))
	must.Eq(t, []string{
		"t 13:06:00.000 Running Running due to override",
		"t 13:06:00.000 Started Task started by client",
	}, eventsAfter(a, "t", shortEnd.Add(time.Second)))

	// 13:07 pause: force_pause, a pause stop.
	r.w.Advance(shortEnd.Add(2 * time.Minute).Sub(r.w.Now()))
	must.NoError(t, r.setPause(id, "t", "pause"))
	must.EqOp(t, "force_pause", r.pauseState(id, "t"))
	a = r.until(id, time.Minute, "paused by override", isStatus(structs.AllocClientStatusPending))
	must.Eq(t, []string{
		"t 13:07:00.000 Pausing Pausing due to override",
		"t 13:07:00.500 Terminated Exit Code: 0, Signal: 2",
		"t 13:07:00.500 Restarting Task restarting in 0s",
	}, eventsAfter(a, "t", shortEnd.Add(time.Minute+time.Second)))

	// 13:08 scheduled: outside the 09:00-09:05 window, scheduled_pause;
	// still paused, so no event (PAUSE-4).
	r.w.Advance(shortEnd.Add(3 * time.Minute).Sub(r.w.Now()))
	must.NoError(t, r.setPause(id, "t", "scheduled"))
	must.EqOp(t, "scheduled_pause", r.pauseState(id, "t"))
	r.w.Advance(30 * time.Second)
	a = r.info(id)
	must.SliceEmpty(t, eventsAfter(a, "t", shortEnd.Add(2*time.Minute+time.Second)))
	must.EqOp(t, structs.AllocClientStatusPending, a.ClientStatus)

	// 13:09 re-register with the 09:30 end: tracking re-evaluates at once.
	r.w.Advance(shortEnd.Add(4 * time.Minute).Sub(r.w.Now()))
	reg3 := r.register(webJob("30 9"))
	must.Greater(t, reg2.JobModifyIndex, reg3.JobModifyIndex)
	a = r.until(id, time.Minute, "running after the update", isStatus(structs.AllocClientStatusRunning))
	must.EqOp(t, reg3.JobModifyIndex, a.AllocModifyIndex)
	must.Eq(t, []string{
		"t 13:09:00.000 Running Running due to schedule",
		"t 13:09:00.000 Started Task started by client",
	}, eventsAfter(a, "t", shortEnd.Add(3*time.Minute)))
	must.EqOp(t, "", r.pauseState(id, "t"))

	// 13:10 signal (API-6, PAUSE-11): Signaling; SIGHUP is ignored.
	r.w.Advance(shortEnd.Add(5 * time.Minute).Sub(r.w.Now()))
	r.mustDo("Signal", func() error { return r.c.Allocations().Signal(&api.Allocation{ID: id}, nil, "t", "SIGHUP") })
	r.w.Advance(time.Minute)
	a = r.info(id)
	must.Eq(t, []string{"t 13:10:00.000 Signaling Task being sent a signal"}, eventsAfter(a, "t", shortEnd.Add(4*time.Minute)))
	last := a.TaskStates["t"].Events[len(a.TaskStates["t"].Events)-1]
	must.Eq(t, map[string]string{"signal": "SIGHUP"}, last.Details)
	must.EqOp(t, structs.AllocClientStatusRunning, a.ClientStatus)

	// 13:30 window end.
	a = r.until(id, 30*time.Minute, "paused at the window end", isStatus(structs.AllocClientStatusPending))
	must.Eq(t, []string{
		"t 13:30:00.000 Pausing Pausing due to schedule",
		"t 13:30:00.500 Terminated Exit Code: 0, Signal: 2",
		"t 13:30:00.500 Restarting Task restarting in 0s",
	}, eventsAfter(a, "t", windowEnd.Add(-time.Second)))
	for _, line := range eventLines(a, "") {
		must.StrNotContains(t, line, structs.TaskKilling, must.Sprint("PAUSE-5: a pause stop emits no Killing"))
	}
	must.EqOp(t, uint64(3), a.TaskStates["t"].Restarts)
	must.False(t, a.TaskStates["t"].Failed, must.Sprint("PAUSE-6: three pause stops, no attempt allowed, never failed"))

	// Hook telemetry (TELEM-1..3): one alloc prerun; task prestart before
	// the first start and again after each of the three pause stops
	// (validate is done once and skipped after).
	must.Eq(t, map[string]string{
		"nomad_client_alloc_hook_prerun_success alloc_dir":                  "1",
		"nomad_client_alloc_hook_prerun_success await_previous_allocations": "1",
		"nomad_client_alloc_hook_prerun_success csi_hook":                   "1",
		"nomad_client_alloc_hook_prerun_success migrate_disk":               "1",
		"nomad_client_task_hook_prestart_success task_dir":                  "4",
		"nomad_client_task_hook_prestart_success validate":                  "1",
		"nomad_client_task_hook_prestart_success volumes":                   "4",
	}, promValues(t, r, "_success"))

	// API-7: the forwarded agent reached the node through the server only.
	pauses := forwards(r.w, structs.RPCClientSetPauseState)
	if route == forwarded {
		must.EqOp(t, 3, pauses)
		must.EqOp(t, 1, forwards(r.w, structs.RPCClientSignal))
		must.EqOp(t, 8, forwards(r.w, structs.RPCClientGetPauseState))
	} else {
		must.EqOp(t, 0, pauses+forwards(r.w, structs.RPCClientSignal)+forwards(r.w, structs.RPCClientGetPauseState))
	}
	r.close()
}

// eventTimes returns the times (Unix ns) of a task's events of type typ.
func eventTimes(a *api.Allocation, task, typ string) []int64 {
	var out []int64
	for _, e := range a.TaskStates[task].Events {
		if e.Type == typ {
			out = append(out, e.Time)
		}
	}
	return out
}

// promValues reads /v1/metrics?format=prometheus through the official
// client and returns the values of the series whose family name ends in
// suffix, keyed "<family> <hook_name>".
func promValues(t *testing.T, r *apiRig, suffix string) map[string]string {
	t.Helper()
	var body []byte
	r.mustDo("Operator().Metrics", func() (err error) {
		body, err = r.c.Operator().Metrics(&api.QueryOptions{Params: map[string]string{"format": "prometheus"}})
		return err
	})
	out := map[string]string{}
	for _, line := range strings.Split(string(body), "\n") {
		name, rest, ok := strings.Cut(line, "{")
		if !ok || strings.HasPrefix(line, "#") || !strings.HasSuffix(name, suffix) {
			continue
		}
		labels, value, _ := strings.Cut(rest, "} ")
		_, hook, _ := strings.Cut(labels, `hook_name="`)
		hook = strings.TrimSuffix(hook, `"`)
		key := fmt.Sprintf("%s %s", name, hook)
		must.MapNotContainsKey(t, out, key, must.Sprint("one series per hook"))
		out[key] = value
	}
	return out
}
