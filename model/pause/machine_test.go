package pause

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/structs"
)

func TestMachine_PAUSE3_PAUSE4(t *testing.T) {
	cases := []struct {
		name  string
		steps []step
	}{
		{"PAUSE-4 first arrival inside appends nothing", []step{
			{OnArrive(inside(8 * time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(8 * time.Hour)}, run},
			{OnBoundary(outside(16*time.Hour), true), Output{Events: pausingSchedule, Stop: true, Tracking: true, Timer: armAt(16 * time.Hour)}, sched},
		}},
		{"PAUSE-3 first arrival outside pauses, boundary runs (Running opens the gate)", []step{
			{OnArrive(outside(8 * time.Hour)), Output{Events: pausingSchedule, Tracking: true, Timer: armAt(8 * time.Hour)}, sched},
			{OnBoundary(inside(16*time.Hour), false), Output{Events: runningSchedule, GateOpen: true, Tracking: true, Timer: armAt(16 * time.Hour)}, run},
		}},
		{"PAUSE-4 re-entry unchanged appends nothing", []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnArrive(outside(time.Hour)), Output{GateOpen: true, Tracking: true}, run},
			{OnRequest(fPause, Evaluation{}, false), Output{Events: pausingOverride, Timer: cancelTimer}, fPause},
			{OnArrive(inside(time.Hour)), Output{}, fPause},
		}},
		{"PAUSE-4 boundary with the same side appends nothing", []step{
			{OnArrive(outside(time.Hour)), Output{Events: pausingSchedule, Tracking: true, Timer: armAt(time.Hour)}, sched},
			{OnBoundary(outside(2*time.Hour), false), Output{Tracking: true, Timer: armAt(2 * time.Hour)}, sched},
		}},
		{"PAUSE-4 silent force_pause <-> scheduled_pause", []step{
			{OnArrive(outside(time.Hour)), Output{Events: pausingSchedule, Tracking: true, Timer: armAt(time.Hour)}, sched},
			{OnRequest(fPause, Evaluation{}, false), Output{Timer: cancelTimer}, fPause},
			{OnRequest(resume, outside(2*time.Hour), false), Output{Tracking: true, Timer: armAt(2 * time.Hour)}, sched},
		}},
		{"PAUSE-4 silent force_run <-> empty", []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnRequest(fRun, Evaluation{}, true), Output{GateOpen: true, Timer: cancelTimer}, fRun},
			{OnRequest(resume, inside(2*time.Hour), true), Output{GateOpen: true, Tracking: true, Timer: armAt(2 * time.Hour)}, run},
		}},
		{"PAUSE-4 overrides across the line", []step{
			{OnArrive(outside(time.Hour)), Output{Events: pausingSchedule, Tracking: true, Timer: armAt(time.Hour)}, sched},
			{OnRequest(fRun, Evaluation{}, false), Output{Events: runningOverride, GateOpen: true, Timer: cancelTimer}, fRun},
			{OnRequest(fPause, Evaluation{}, true), Output{Events: pausingOverride, Stop: true}, fPause},
			{OnRequest(resume, inside(time.Hour), true), Output{Events: runningSchedule, GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnRequest(fRun, Evaluation{}, true), Output{GateOpen: true, Timer: cancelTimer}, fRun},
			{OnRequest(resume, outside(time.Hour), true), Output{Events: pausingSchedule, Stop: false, Tracking: true, Timer: armAt(time.Hour)}, sched},
		}},
		{"PAUSE-3 stale boundary after an override is ignored", []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnRequest(fRun, Evaluation{}, true), Output{GateOpen: true, Timer: cancelTimer}, fRun},
			{OnBoundary(outside(time.Hour), true), Output{GateOpen: true}, fRun},
		}},
		{"PAUSE-3 requests before the first arrival are stored without effect", []step{
			{OnRequest(fPause, Evaluation{}, false), Output{}, fPause},
			{OnRequest(resume, outside(time.Hour), false), Output{}, sched},
			{OnRequest(fRun, Evaluation{}, false), Output{}, fRun},
			{OnRequest(fPause, Evaluation{}, false), Output{}, fPause},
			{OnArrive(inside(time.Hour)), Output{Events: pausingOverride}, fPause},
		}},
		{"PAUSE-3 schedule_resume before arrival is re-evaluated at the gate", []step{
			{OnRequest(resume, outside(time.Hour), false), Output{}, sched},
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
		}},
		{"PAUSE-3 window that never closes arms no timer", []step{
			{OnArrive(Evaluation{Inside: true}), Output{GateOpen: true, Tracking: true, Timer: cancelTimer}, run},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, New("web", keyA), tc.steps)
		})
	}
}

func TestMachine_PAUSE5_PauseStop(t *testing.T) {
	cases := []struct {
		name  string
		steps []step
	}{
		{"PAUSE-5 pause stop, pause-induced exit, gate blocks silently", []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnBoundary(outside(time.Hour), true), Output{Events: pausingSchedule, Stop: true, Tracking: true, Timer: armAt(time.Hour)}, sched},
			{OnExited(), Output{PauseInduced: true, Tracking: true}, sched},
			{OnArrive(inside(time.Hour)), Output{Tracking: true}, sched},
			{OnBoundary(inside(time.Hour), false), Output{Events: runningSchedule, GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnExited(), Output{GateOpen: true, Tracking: true}, run},
		}},
		{"PAUSE-5 state turns non-paused before the exit is seen", []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnRequest(fPause, Evaluation{}, true), Output{Events: pausingOverride, Stop: true, Timer: cancelTimer}, fPause},
			{OnRequest(fRun, Evaluation{}, true), Output{Events: runningOverride, GateOpen: true}, fRun},
			{OnRequest(fPause, Evaluation{}, true), Output{Events: pausingOverride}, fPause},
			{OnRequest(fRun, Evaluation{}, true), Output{Events: runningOverride, GateOpen: true}, fRun},
			{OnExited(), Output{PauseInduced: true, GateOpen: true}, fRun},
			{OnArrive(Evaluation{}), Output{GateOpen: true}, fRun},
		}},
		{"PAUSE-5 pausing in restart delay or prestart: no stop, gate blocks", []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnRequest(fPause, Evaluation{}, false), Output{Events: pausingOverride, Timer: cancelTimer}, fPause},
			{OnExited(), Output{}, fPause},
			{OnArrive(inside(time.Hour)), Output{}, fPause},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, New("web", keyA), tc.steps)
		})
	}
}

func TestMachine_PAUSE2_Requests(t *testing.T) {
	t.Run("PAUSE-2 schedule_resume evaluation error is returned, state kept", func(t *testing.T) {
		runSteps(t, New("web", keyA), []step{
			{OnArrive(outside(time.Hour)), Output{Events: pausingSchedule, Tracking: true, Timer: armAt(time.Hour)}, sched},
			{OnRequest(fRun, Evaluation{}, false), Output{Events: runningOverride, GateOpen: true, Timer: cancelTimer}, fRun},
			{OnRequest(resume, failing, true), Output{Err: errBoom, GateOpen: true}, fRun},
		})
	})
	t.Run("PAUSE-2 unscheduled task", func(t *testing.T) {
		m := runSteps(t, New("web", ""), []step{
			{OnRequest(fPause, Evaluation{}, false), Output{Err: NoScheduleError("web")}, run},
			{OnArrive(outside(time.Hour)), Output{GateOpen: true}, run},
			{OnRequest(resume, outside(time.Hour), true), Output{Err: NoScheduleError("web"), GateOpen: true}, run},
		})
		_, out := m.Step(OnRequest(fPause, Evaluation{}, true))
		if out.Err == nil || out.Err.Error() != `task "web" has no schedule` {
			t.Fatalf("Err = %v, want task %q has no schedule", out.Err, "web")
		}
	})
	t.Run("PAUSE-1 only force_pause, force_run and schedule_resume are requests", func(t *testing.T) {
		runSteps(t, New("web", keyA), []step{
			{OnRequest(sched, Evaluation{}, false), Output{Err: ErrInvalidState}, run},
			{OnRequest(run, Evaluation{}, false), Output{Err: ErrInvalidState}, run},
			{OnRequest("bogus", Evaluation{}, false), Output{Err: ErrInvalidState}, run},
		})
	})
	t.Run("PAUSE-2 requests after the loop finished are stored without effect", func(t *testing.T) {
		runSteps(t, New("web", keyA), []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnFinished(), Output{Timer: cancelTimer}, run},
			{OnRequest(fPause, Evaluation{}, true), Output{}, fPause},
			{OnRequest(resume, inside(time.Hour), true), Output{}, run},
			{OnRequest(resume, noFuture, true), Output{}, sched},
			{OnBoundary(inside(time.Hour), true), Output{}, sched},
			{OnArrive(inside(time.Hour)), Output{}, sched},
			{OnExited(), Output{}, sched},
			{OnFinished(), Output{}, sched},
		})
	})
}

func TestMachine_PAUSE9_EvaluationError(t *testing.T) {
	failed := func(stop bool) Output {
		return Output{Events: []Event{{Type: structs.TaskHookFailed, DisplayMessage: "pause: " + errBoom.Error(), Message: "pause: " + errBoom.Error()}},
			Stop: stop, Failed: errorString("pause: " + errBoom.Error())}
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"PAUSE-9 at the gate", []step{
			{OnArrive(failing), func() Output { o := failed(false); o.Timer = cancelTimer; return o }(), run},
			{OnRequest(fRun, Evaluation{}, false), Output{}, fRun},
		}},
		{"PAUSE-9 at a boundary stops the live task, no Pausing", []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnBoundary(failing, true), func() Output { o := failed(true); o.Timer = cancelTimer; return o }(), run},
			{OnExited(), Output{}, run},
		}},
		{"PAUSE-9 during a pause stop: no second stop, exit not pause-induced", []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnBoundary(outside(time.Hour), true), Output{Events: pausingSchedule, Stop: true, Tracking: true, Timer: armAt(time.Hour)}, sched},
			{OnBoundary(failing, true), func() Output { o := failed(false); o.Timer = cancelTimer; return o }(), sched},
			{OnExited(), Output{}, sched},
		}},
		{"PAUSE-9 on a schedule change", []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnScheduleChange(keyB, failing, true), func() Output { o := failed(true); o.Timer = cancelTimer; return o }(), run},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, New("web", keyA), tc.steps)
		})
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

func TestMachine_PAUSE7_ScheduleChange(t *testing.T) {
	cases := []struct {
		name  string
		start string
		steps []step
	}{
		{"PAUSE-7 re-evaluated at once while tracking", keyA, []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnScheduleChange(keyA, outside(time.Hour), true), Output{GateOpen: true, Tracking: true}, run},
			{OnScheduleChange(keyB, outside(2*time.Hour), true), Output{Events: pausingSchedule, Stop: true, Tracking: true, Timer: armAt(2 * time.Hour)}, sched},
		}},
		{"PAUSE-7 removing the schedule sets empty", keyA, []step{
			{OnArrive(outside(time.Hour)), Output{Events: pausingSchedule, Tracking: true, Timer: armAt(time.Hour)}, sched},
			{OnScheduleChange("", Evaluation{}, false), Output{Events: runningSchedule, GateOpen: true, Timer: cancelTimer}, run},
			{OnRequest(fPause, Evaluation{}, false), Output{Err: NoScheduleError("web"), GateOpen: true}, run},
		}},
		{"PAUSE-7 removing the schedule drops an override", keyA, []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnRequest(fPause, Evaluation{}, false), Output{Events: pausingOverride, Timer: cancelTimer}, fPause},
			{OnScheduleChange("", Evaluation{}, false), Output{Events: runningSchedule, GateOpen: true}, run},
		}},
		{"PAUSE-7 adding a schedule starts tracking at once", "", []step{
			{OnArrive(Evaluation{}), Output{GateOpen: true}, run},
			{OnScheduleChange(keyA, outside(time.Hour), true), Output{Events: pausingSchedule, Stop: true, Tracking: true, Timer: armAt(time.Hour)}, sched},
		}},
		{"PAUSE-7 under an override the schedule waits for schedule_resume", keyA, []step{
			{OnArrive(inside(time.Hour)), Output{GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
			{OnRequest(fRun, Evaluation{}, true), Output{GateOpen: true, Timer: cancelTimer}, fRun},
			{OnScheduleChange(keyB, outside(time.Hour), true), Output{GateOpen: true}, fRun},
			{OnRequest(resume, outside(3*time.Hour), true), Output{Events: pausingSchedule, Stop: true, Tracking: true, Timer: armAt(3 * time.Hour)}, sched},
		}},
		{"PAUSE-7 before the first arrival the schedule is adopted at the gate", keyA, []step{
			{OnScheduleChange(keyB, outside(time.Hour), false), Output{}, run},
			{OnArrive(outside(2 * time.Hour)), Output{Events: pausingSchedule, Tracking: true, Timer: armAt(2 * time.Hour)}, sched},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, New("web", tc.start), tc.steps)
		})
	}
}

func TestMachine_SCHED9_NoFutureStart(t *testing.T) {
	notice := []Event{eventNoFutureStart}
	pausingThenNotice := []Event{eventPausingSchedule, eventNoFutureStart}
	t.Run("SCHED-9 once per distinct schedule, after Pausing or on detection", func(t *testing.T) {
		runSteps(t, New("web", keyA), []step{
			{OnArrive(noFuture), Output{Events: pausingThenNotice, Tracking: true, Timer: cancelTimer}, sched},
			{OnRequest(resume, noFuture, false), Output{Tracking: true, Timer: cancelTimer}, sched},
			{OnRequest(fPause, Evaluation{}, false), Output{Timer: cancelTimer}, fPause},
			{OnRequest(resume, noFuture, false), Output{Tracking: true, Timer: cancelTimer}, sched},
			// Overrides still work.
			{OnRequest(fRun, Evaluation{}, false), Output{Events: runningOverride, GateOpen: true, Timer: cancelTimer}, fRun},
			{OnRequest(resume, noFuture, true), Output{Events: []Event{eventPausingSchedule}, Stop: true, Tracking: true, Timer: cancelTimer}, sched},
			// A distinct schedule, already paused: notice on detection.
			{OnScheduleChange(keyB, noFuture, false), Output{Events: notice, Tracking: true, Timer: cancelTimer}, sched},
			// Back to the first schedule: already noticed.
			{OnScheduleChange(keyA, noFuture, false), Output{Tracking: true, Timer: cancelTimer}, sched},
		})
	})
	t.Run("SCHED-9 detection under a force_pause waits for schedule_resume", func(t *testing.T) {
		runSteps(t, New("web", keyA), []step{
			{OnRequest(fPause, Evaluation{}, false), Output{}, fPause},
			{OnArrive(noFuture), Output{Events: pausingOverride}, fPause},
			{OnRequest(resume, noFuture, false), Output{Events: notice, Tracking: true, Timer: cancelTimer}, sched},
		})
	})
	t.Run("SCHED-9 no notice inside a window that never closes", func(t *testing.T) {
		runSteps(t, New("web", keyA), []step{
			{OnArrive(Evaluation{Inside: true}), Output{GateOpen: true, Tracking: true, Timer: cancelTimer}, run},
		})
	})
}

func TestMachine_PAUSE10_Restore(t *testing.T) {
	cases := []struct {
		name  string
		key   string
		steps []step
	}{
		{"PAUSE-10 restored override is kept, seeds the effective state", keyA, []step{
			{OnRestore(fPause, Evaluation{}, false), Output{}, fPause},
			{OnArrive(inside(time.Hour)), Output{}, fPause},
			{OnRequest(fRun, Evaluation{}, false), Output{Events: runningOverride, GateOpen: true}, fRun},
		}},
		{"PAUSE-10 restored force_run passes the gate silently", keyA, []step{
			{OnRestore(fRun, Evaluation{}, false), Output{}, fRun},
			{OnArrive(outside(time.Hour)), Output{GateOpen: true}, fRun},
		}},
		{"PAUSE-10 restored scheduled_pause re-evaluated inside at the gate", keyA, []step{
			{OnRestore(sched, Evaluation{}, false), Output{}, sched},
			{OnArrive(inside(time.Hour)), Output{Events: runningSchedule, GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
		}},
		{"PAUSE-10 restored scheduled_pause still outside: no new Pausing", keyA, []step{
			{OnRestore(sched, Evaluation{}, false), Output{}, sched},
			{OnArrive(outside(time.Hour)), Output{Tracking: true, Timer: armAt(time.Hour)}, sched},
		}},
		{"PAUSE-10 recovered live task with force_pause is pause-stopped", keyA, []step{
			{OnRestore(fPause, Evaluation{}, true), Output{Stop: true}, fPause},
			{OnExited(), Output{PauseInduced: true}, fPause},
			{OnArrive(inside(time.Hour)), Output{}, fPause},
		}},
		{"PAUSE-10 recovered live scheduled_pause still outside is pause-stopped", keyA, []step{
			{OnRestore(sched, outside(time.Hour), true), Output{Stop: true, Tracking: true, Timer: armAt(time.Hour)}, sched},
		}},
		{"PAUSE-10 recovered live scheduled_pause now inside runs", keyA, []step{
			{OnRestore(sched, inside(time.Hour), true), Output{Events: runningSchedule, GateOpen: true, Tracking: true, Timer: armAt(time.Hour)}, run},
		}},
		{"PAUSE-10 recovered live empty state now outside pauses", keyA, []step{
			{OnRestore(run, outside(time.Hour), true), Output{Events: pausingSchedule, Stop: true, Tracking: true, Timer: armAt(time.Hour)}, sched},
		}},
		{"PAUSE-10 recovered live task with an evaluation error", keyA, []step{
			{OnRestore(run, failing, true), Output{Events: []Event{hookFailedEvent(errBoom)}, Stop: true, Timer: cancelTimer, Failed: errorString("pause: " + errBoom.Error())}, run},
		}},
		{"PAUSE-1 schedule_resume is never restored", keyA, []step{
			{OnRestore(resume, Evaluation{}, false), Output{}, run},
		}},
		{"PAUSE-1 unscheduled tasks restore empty", "", []step{
			{OnRestore(fPause, Evaluation{}, true), Output{GateOpen: true}, run},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, New("web", tc.key), tc.steps)
		})
	}
}

func TestMachine_Accessors(t *testing.T) {
	m := New("web", keyA)
	if m.Arrived() || m.Done() || m.Paused() || m.Stopping() || m.Schedule() != keyA {
		t.Fatalf("New = %+v", m)
	}
	m, _ = m.Step(OnArrive(inside(time.Hour)))
	m, _ = m.Step(OnRequest(fPause, Evaluation{}, true))
	if !m.Arrived() || !m.Paused() || !m.Stopping() {
		t.Fatalf("after pause stop: %+v", m)
	}
	// Step leaves its receiver unchanged (value semantics).
	before := m
	_, _ = m.Step(OnFinished())
	if m.Done() || before.Done() {
		t.Fatalf("Step mutated its receiver")
	}
	m, _ = m.Step(OnFinished())
	if !m.Done() || m.Stopping() {
		t.Fatalf("after finish: %+v", m)
	}
	// An unknown input kind changes nothing.
	m2, out := New("web", keyA).Step(Input{})
	if m2.Stored() != run || len(out.Events) != 0 || out.GateOpen {
		t.Fatalf("unknown kind: %+v %+v", m2, out)
	}
}
