package taskrunner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

// scheduledHarness is a service task scheduled 09:00-17:00 UTC whose
// policy allows no restarts, so any attempt consumed would fail it.
func scheduledHarness(t *testing.T, start, end string) *harness {
	tk := newTask(nil)
	tk.Schedule = scheduled(start, end)
	return newHarness(t, structs.JobTypeService, policy(0, 30*time.Minute, 15*time.Second, "fail"), tk)
}

func mustEvents(t *testing.T, want []string, ts *structs.TaskState) {
	t.Helper()
	if diff := cmp.Diff(want, types(ts)); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
}

// TestScheduleWindow: outside its window the task pauses in the gate
// (pending); the window opening appends Running before Started; its end
// pause-stops the task with no Killing, then Terminated and `Task
// restarting in 0s`, using no restart attempt (PAUSE-3..6).
func TestScheduleWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 9 * * * *", "0 17")
		tr := h.start()
		ts := tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskPausing}, ts)
		must.Eq(t, structs.DisplayPausingSchedule, ts.Events[2].DisplayMessage)
		must.Eq(t, structs.TaskStatePending, ts.State)
		must.Eq(t, structs.TaskScheduleStateSchedulePause, ts.Paused)
		must.Eq(t, structs.TaskScheduleStateSchedulePause, tr.GetPauseState())
		must.SliceEmpty(t, h.ops())

		h.advanceTo(at(8, 59))
		must.Eq(t, structs.TaskStatePending, tr.TaskState().State)
		h.advanceTo(at(9, 0))
		ts = tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskPausing,
			structs.TaskRunning, structs.TaskStarted}, ts)
		must.Eq(t, structs.DisplayRunningSchedule, ts.Events[3].DisplayMessage)
		must.Eq(t, structs.TaskStateRunning, ts.State)
		must.Eq(t, structs.TaskScheduleStateRun, ts.Paused)

		h.advanceTo(at(17, 0))
		ts = tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskPausing,
			structs.TaskRunning, structs.TaskStarted, structs.TaskPausing, structs.TaskTerminated,
			structs.TaskRestarting}, ts)
		must.Eq(t, "Exit Code: 0, Signal: 2", ts.Events[6].DisplayMessage)
		must.Eq(t, "Task restarting in 0s", ts.Events[7].DisplayMessage)
		must.Eq(t, structs.TaskStatePending, ts.State)
		must.False(t, ts.Failed)
		must.Eq(t, uint64(1), ts.Restarts)
		must.SliceContains(t, h.ops(), "StopTask signal=SIGINT timeout=5s")
		must.Eq(t, []string{
			"nomad.client.task_hook.prestart.elapsed hook=task_dir count=2",
			"nomad.client.task_hook.prestart.elapsed hook=validate count=1",
			"nomad.client.task_hook.prestart.elapsed hook=volumes count=2",
			"nomad.client.task_hook.prestart.success hook=task_dir count=2",
			"nomad.client.task_hook.prestart.success hook=validate count=1",
			"nomad.client.task_hook.prestart.success hook=volumes count=2",
		}, h.metrics())

		// The next day's window starts it again, with no further event in
		// between (PAUSE-5: blocked in the gate silently).
		h.advanceTo(at(23, 0))
		must.Eq(t, 8, len(tr.TaskState().Events))
		h.advanceTo(at(9, 0).Add(24 * time.Hour))
		ts = tr.TaskState()
		must.Eq(t, []string{structs.TaskRunning, structs.TaskStarted}, types(ts)[8:])
		must.Eq(t, structs.TaskStateRunning, ts.State)
		must.NoError(t, h.kill(tr))
	})
}

// TestFirstArrivalInside: no Running before the first Started (PAUSE-4).
func TestFirstArrivalInside(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 8 * * * *", "0 17")
		tr := h.start()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted}, tr.TaskState())
		must.Eq(t, structs.TaskScheduleStateRun, tr.GetPauseState())
		must.NoError(t, h.kill(tr))
	})
}

// TestOverrides: force_pause, force_run and schedule_resume (PAUSE-2..4).
func TestOverrides(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 7 * * * *", "0 17")
		tr := h.start()
		must.Eq(t, structs.TaskStateRunning, tr.TaskState().State)

		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForcePause))
		must.Eq(t, structs.TaskScheduleStateForcePause, tr.GetPauseState(), must.Sprint("stored before Set returns"))
		must.Eq(t, structs.TaskScheduleStateForcePause, tr.TaskState().Paused)
		synctest.Wait()
		ts := tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted,
			structs.TaskPausing, structs.TaskTerminated, structs.TaskRestarting}, ts)
		must.Eq(t, structs.DisplayPausingOverride, ts.Events[3].DisplayMessage)
		must.Eq(t, structs.TaskStatePending, ts.State)

		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForceRun))
		synctest.Wait()
		ts = tr.TaskState()
		must.Eq(t, []string{structs.TaskRunning, structs.TaskStarted}, types(ts)[6:])
		must.Eq(t, structs.DisplayRunningOverride, ts.Events[6].DisplayMessage)

		// Tracking is suspended: the window's end changes nothing.
		h.advanceTo(at(18, 0))
		must.Eq(t, 8, len(tr.TaskState().Events))
		must.Eq(t, structs.TaskStateRunning, tr.TaskState().State)
		must.Eq(t, structs.TaskScheduleStateForceRun, tr.GetPauseState())

		// schedule_resume evaluates now (outside) and resumes tracking.
		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateScheduleResume))
		must.Eq(t, structs.TaskScheduleStateSchedulePause, tr.GetPauseState())
		synctest.Wait()
		ts = tr.TaskState()
		must.Eq(t, []string{structs.TaskPausing, structs.TaskTerminated, structs.TaskRestarting}, tail(ts, 3))
		must.Eq(t, structs.DisplayPausingSchedule, ts.Events[len(ts.Events)-3].DisplayMessage)
		h.advanceTo(at(7, 0).Add(24 * time.Hour))
		ts = tr.TaskState()
		must.Eq(t, structs.TaskRunning, ts.Events[len(ts.Events)-2].Type)
		must.Eq(t, structs.TaskStarted, ts.Events[len(ts.Events)-1].Type)
		must.Eq(t, uint64(2), ts.Restarts)
		must.False(t, ts.Failed)

		// Stored-only moves append nothing (force_run <-> "").
		n := len(ts.Events)
		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForceRun))
		synctest.Wait()
		must.Eq(t, n, len(tr.TaskState().Events))
		must.NoError(t, h.kill(tr))
	})
}

// TestPauseRequestErrors: PAUSE-2's errors.
func TestPauseRequestErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.start()
		err := tr.SetPauseState(structs.TaskScheduleStateForcePause)
		must.EqError(t, err, `task "web" has no schedule`)
		must.Eq(t, structs.TaskScheduleStateRun, tr.GetPauseState())
		must.NoError(t, h.kill(tr))

		h2 := scheduledHarness(t, "0 9 * * * *", "0 17")
		tr2 := h2.start()
		must.ErrorIs(t, tr2.SetPauseState("bogus"), pause.ErrInvalidState)
		must.Eq(t, structs.TaskScheduleStateSchedulePause, tr2.GetPauseState())
		must.NoError(t, h2.kill(tr2))
	})
}

// TestKillInGate: PAUSE-8: a kill while paused in the gate ends the task
// dead, not failed, with the Killing only.
func TestKillInGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 9 * * * *", "0 17")
		tr := h.start()
		must.NoError(t, h.kill(tr))
		ts := tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskPausing, structs.TaskKilling}, ts)
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.False(t, ts.Failed)
		// Requests after the loop finished are stored, without effect.
		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForceRun))
		must.Eq(t, structs.TaskScheduleStateForceRun, tr.GetPauseState())
		must.Eq(t, 4, len(tr.TaskState().Events))
	})
}

// TestEvaluationErrorAtGate: PAUSE-9: an unloadable zone fails the task.
func TestEvaluationErrorAtGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := newTask(nil)
		tk.Schedule = &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17", Timezone: "Mars/Olympus"}}
		h := newHarness(t, structs.JobTypeService, nil, tk)
		tr := h.start()
		ts := tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskHookFailed, structs.TaskNotRestarting}, ts)
		must.Eq(t, "pause: invalid timezone in schedule: unknown time zone Mars/Olympus", ts.Events[2].Message)
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.True(t, ts.Failed)
		must.NoError(t, h.kill(tr))
	})
}

// TestEvaluationErrorOnUpdate: PAUSE-9 for a live task: stopped (no
// Pausing, no Restarting), then Task hook failed and Not Restarting.
func TestEvaluationErrorOnUpdate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 8 * * * *", "0 17")
		tr := h.start()
		alloc := h.alloc.Copy()
		alloc.LookupTaskGroup().Tasks[0].Schedule = scheduled("0 25 * * * *", "0 17")
		alloc.AllocModifyIndex++
		tr.Update(alloc)
		synctest.Wait()
		ts := tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted,
			structs.TaskTerminated, structs.TaskHookFailed, structs.TaskNotRestarting}, ts)
		must.StrHasPrefix(t, `pause: invalid start time in schedule: "0 25 * * * *"; `, ts.Events[4].Message)
		must.True(t, ts.Failed)
		must.Eq(t, structs.TaskStateDead, ts.State)
		must.NoError(t, h.kill(tr))
	})
}

// TestNoFutureStart: SCHED-9's notice, once per distinct schedule.
func TestNoFutureStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 9 30 2 * *", "0 17")
		tr := h.start()
		ts := tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskPausing, structs.TaskHookMessage}, ts)
		must.Eq(t, pause.MsgNoFutureStart, ts.Events[3].Message)
		must.Eq(t, pause.MsgNoFutureStart, ts.Events[3].DisplayMessage)

		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateScheduleResume))
		must.Eq(t, 4, len(tr.TaskState().Events), must.Sprint("same schedule: no second notice"))

		alloc := h.alloc.Copy()
		alloc.LookupTaskGroup().Tasks[0].Schedule = scheduled("0 9 31 2 * *", "0 17")
		tr.Update(alloc)
		ts = tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskPausing,
			structs.TaskHookMessage, structs.TaskHookMessage}, ts)
		must.NoError(t, h.kill(tr))
	})
}

// TestScheduleChange: PAUSE-7: adding a schedule to a running task starts
// tracking at once; removing it sets "" and runs the task.
func TestScheduleChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		tr := h.start()
		must.Eq(t, structs.TaskStateRunning, tr.TaskState().State)

		added := h.alloc.Copy()
		added.LookupTaskGroup().Tasks[0].Schedule = scheduled("0 9 * * * *", "0 17")
		tr.Update(added)
		must.Eq(t, structs.TaskScheduleStateSchedulePause, tr.GetPauseState())
		synctest.Wait()
		ts := tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted,
			structs.TaskPausing, structs.TaskTerminated, structs.TaskRestarting}, ts)
		must.Eq(t, structs.TaskStatePending, ts.State)
		must.NotNil(t, tr.Task().Schedule)

		// A change to another schedule that is inside now runs it.
		moved := h.alloc.Copy()
		moved.LookupTaskGroup().Tasks[0].Schedule = scheduled("0 6 * * * *", "0 9")
		tr.Update(moved)
		synctest.Wait()
		must.Eq(t, []string{structs.TaskRunning, structs.TaskStarted}, types(tr.TaskState())[6:])

		// Removing the schedule while paused by override sets "" and runs.
		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForcePause))
		synctest.Wait()
		removed := h.alloc.Copy()
		tr.Update(removed)
		synctest.Wait()
		ts = tr.TaskState()
		must.Eq(t, structs.TaskScheduleStateRun, ts.Paused)
		must.Eq(t, []string{structs.TaskPausing, structs.TaskTerminated, structs.TaskRestarting,
			structs.TaskRunning, structs.TaskStarted}, types(ts)[len(ts.Events)-5:])
		must.Eq(t, structs.TaskStateRunning, ts.State)
		must.EqError(t, tr.SetPauseState(structs.TaskScheduleStateForcePause), `task "web" has no schedule`)
		must.NoError(t, h.kill(tr))
	})
}

// TestPauseDuringStart: a pause while StartTask blocks stops the task as
// soon as it has started; the exit is pause-induced.
func TestPauseDuringStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := newTask(map[string]any{"start_block_for": "10m"})
		tk.Schedule = scheduled("0 8 * * * *", "5 8")
		h := newHarness(t, structs.JobTypeService, policy(0, time.Hour, time.Second, "fail"), tk)
		tr := h.start()
		h.advanceTo(at(8, 5))
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskPausing}, tr.TaskState())
		h.advanceTo(at(8, 10))
		ts := tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskPausing,
			structs.TaskStarted, structs.TaskTerminated, structs.TaskRestarting}, ts)
		must.Eq(t, structs.TaskStatePending, ts.State)
		must.False(t, ts.Failed)
		must.NoError(t, h.kill(tr))
	})
}

// TestUnpauseBeforeExit: PAUSE-5: a state that turns non-paused before
// the pause stop's exit is seen still makes the exit pause-induced, and
// the gate passes silently: Pausing, Running, Terminated, Restarting,
// Started, with no attempt used.
func TestUnpauseBeforeExit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := newTask(map[string]any{"kill_after": "2s"})
		tk.Schedule = scheduled("0 8 * * * *", "0 17")
		h := newHarness(t, structs.JobTypeService, policy(0, time.Hour, time.Second, "fail"), tk)
		tr := h.start()
		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForcePause))
		synctest.Wait()
		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForceRun))
		h.advance(2 * time.Second)
		ts := tr.TaskState()
		mustEvents(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted, structs.TaskPausing,
			structs.TaskRunning, structs.TaskTerminated, structs.TaskRestarting, structs.TaskStarted}, ts)
		must.Eq(t, "Task restarting in 0s", ts.Events[6].DisplayMessage)
		must.Eq(t, structs.TaskStateRunning, ts.State)
		must.False(t, ts.Failed)
		must.NoError(t, h.kill(tr))
	})
}
