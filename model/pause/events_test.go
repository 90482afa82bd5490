package pause

import (
	"testing"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

// PAUSE-4 display messages, verbatim, through the task state's append
// (DATA-8 keeps an explicit DisplayMessage).
func TestEvents_PAUSE4_DisplayMessages(t *testing.T) {
	at := t0.Add(time.Minute)
	cases := []struct {
		name        string
		stored      structs.TaskScheduleState
		wantType    string
		wantDisplay string
	}{
		{"scheduled_pause", sched, structs.TaskPausing, "Pausing due to schedule"},
		{"force_pause", fPause, structs.TaskPausing, "Pausing due to override"},
		{"empty", run, structs.TaskRunning, "Running due to schedule"},
		{"force_run", fRun, structs.TaskRunning, "Running due to override"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ev := transitionEvent(tc.stored).TaskEvent(at)
			st := structs.NewTaskState()
			st.AppendEvent(ev)
			must.EqOp(t, tc.wantType, ev.Type)
			must.EqOp(t, tc.wantDisplay, ev.DisplayMessage)
			must.EqOp(t, at.UnixNano(), ev.Time)
			must.EqOp(t, "", ev.Message)
			must.MapEmpty(t, ev.Details)
		})
	}
}

// PAUSE-9 and SCHED-9 events carry their Message (and Details "message").
func TestEvents_PAUSE9_SCHED9_Messages(t *testing.T) {
	ev := hookFailedEvent(errBoom).TaskEvent(t0)
	ev.PopulateDisplayMessage()
	must.EqOp(t, structs.TaskHookFailed, ev.Type)
	must.EqOp(t, "pause: invalid timezone in schedule: unknown time zone Mars/Olympus", ev.Message)
	must.EqOp(t, ev.Message, ev.DisplayMessage)
	must.EqOp(t, ev.Message, ev.Details["message"])

	n := eventNoFutureStart.TaskEvent(t0)
	must.EqOp(t, structs.TaskHookMessage, n.Type)
	must.EqOp(t, "Schedule has no future start time; task will remain paused", n.Message)
	must.EqOp(t, "Schedule has no future start time; task will remain paused", n.DisplayMessage)
	must.EqOp(t, MsgNoFutureStart, n.Details["message"])
}

func TestMessages_PAUSE2_Verbatim(t *testing.T) {
	must.EqError(t, NoScheduleError("web"), `task "web" has no schedule`)
	must.EqError(t, ErrInvalidState, "Not a valid task schedule state")
	must.EqOp(t, "pause", HookName)
}

func TestEvaluation_SCHED8(t *testing.T) {
	r := schedule.Result{Inside: true, WindowStart: t0, WindowEnd: t0.Add(time.Hour),
		NextStart: t0.Add(2 * time.Hour), NextEnd: t0.Add(3 * time.Hour)}
	ev := FromResult(r, nil)
	must.Eq(t, Evaluation{Inside: true, WindowEnd: t0.Add(time.Hour), NextStart: t0.Add(2 * time.Hour)}, ev)
	must.Eq(t, t0.Add(time.Hour), ev.Boundary())
	r.Inside = false
	must.Eq(t, t0.Add(2*time.Hour), FromResult(r, nil).Boundary())
	must.ErrorIs(t, FromResult(schedule.Result{}, errBoom).Err, errBoom)
	must.True(t, FromResult(schedule.Result{}, nil).noFutureStart())
	must.False(t, FromResult(schedule.Result{Inside: true}, nil).noFutureStart())
}

func TestScheduleKey_PAUSE7(t *testing.T) {
	a := &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17", Timezone: "UTC"}}
	b := &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17", Timezone: "Europe/Paris"}}
	a2 := &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17", Timezone: "UTC"}}
	must.EqOp(t, "", ScheduleKey(nil))
	must.EqOp(t, keyA, ScheduleKey(a))
	must.EqOp(t, ScheduleKey(a), ScheduleKey(a2))
	must.NotEqOp(t, ScheduleKey(a), ScheduleKey(b))
	noCron := ScheduleKey(&schedule.Schedule{})
	must.NotEqOp(t, "", noCron)
	must.NotEqOp(t, ScheduleKey(&schedule.Schedule{Cron: &schedule.Cron{}}), noCron)
}

func TestKind_String(t *testing.T) {
	names := map[Kind]string{
		KindRequest: "request", KindArrive: "arrive", KindBoundary: "boundary",
		KindScheduleChange: "schedule-change", KindRestore: "restore", KindExited: "exited",
		KindFinished: "finished", Kind(0): "unknown",
	}
	for k, want := range names {
		must.EqOp(t, want, k.String())
	}
}
