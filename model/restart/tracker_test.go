package restart

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
)

var t0 = time.Date(2024, 3, 10, 6, 0, 0, 0, time.UTC)

var (
	failed  = ExitResult{ExitCode: 1}
	success = ExitResult{}
	errBoom = errors.New("boom")
)

func mainTask() *structs.Task { return &structs.Task{Name: "web"} }

func lifecycleTask(hook string, sidecar bool) *structs.Task {
	return &structs.Task{Name: "t", Lifecycle: &structs.TaskLifecycle{Hook: hook, Sidecar: sidecar}}
}

// step sets one run's inputs at t0+at and expects a decision.
type step struct {
	at   time.Duration
	set  func(*Tracker)
	u    float64
	want Decision
}

func exitWith(r ExitResult) func(*Tracker) { return func(t *Tracker) { t.SetExitResult(r) } }

func startErr(recoverable bool) func(*Tracker) {
	return func(t *Tracker) { t.SetStartError(errBoom, recoverable) }
}

func TestGetState_AR7(t *testing.T) {
	service := structs.NewRestartPolicy(2, 30*time.Minute, 15*time.Second, structs.RestartPolicyModeFail)
	delayed := structs.NewRestartPolicy(2, 30*time.Minute, 15*time.Second, structs.RestartPolicyModeDelay)
	none := structs.NewRestartPolicy(0, 30*time.Minute, 15*time.Second, structs.RestartPolicyModeFail)
	zeroDelay := structs.NewRestartPolicy(1, time.Minute, 0, structs.RestartPolicyModeFail)
	within := func(d time.Duration) Decision {
		return Decision{State: Restarting, Delay: d, Reason: ReasonWithinPolicy, ConsumesAttempt: true}
	}
	failMode := Decision{State: NotRestarting, Reason: `Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"`, ConsumesAttempt: true}
	free := Decision{State: Restarting}

	cases := []struct {
		name    string
		policy  *structs.RestartPolicy
		jobType string
		task    *structs.Task
		steps   []step
	}{
		{"AR-7(1) killed wins over pause-induced", service, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: func(t *Tracker) { t.SetKilled().SetPauseInduced().SetExitResult(failed) }, want: Decision{State: Killed}},
			{at: 2 * time.Minute, set: exitWith(failed), want: Decision{State: Killed}},
		}},
		{"AR-7(2) triggered restart uses no attempt", service, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: func(t *Tracker) { t.SetRestartTriggered().SetExitResult(failed) }, want: free},
			{at: 2 * time.Minute, set: func(t *Tracker) { t.SetRestartTriggered() }, want: free},
			{at: 3 * time.Minute, set: func(t *Tracker) { t.SetRestartTriggered() }, want: free},
			{at: 4 * time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 5 * time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 6 * time.Minute, set: exitWith(failed), want: failMode},
		}},
		{"AR-7(2) PAUSE-6 pause-induced failing exit never fails", service, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 2 * time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 3 * time.Minute, set: func(t *Tracker) { t.SetExitResult(ExitResult{ExitCode: 137, Signal: 9}).SetPauseInduced() }, want: free},
			{at: 4 * time.Minute, set: func(t *Tracker) { t.SetExitResult(failed).SetPauseInduced() }, want: free},
			{at: 5 * time.Minute, set: exitWith(failed), want: failMode},
		}},
		{"AR-7(2) pause-induced precedes a policy without restarts", none, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: func(t *Tracker) { t.SetExitResult(failed).SetPauseInduced() }, want: free},
		}},
		{"AR-7(3) no restarts: failing exit", none, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: exitWith(failed), want: Decision{State: NotRestarting, Reason: ReasonNoRestartsAllowed}},
		}},
		{"AR-7(3) no restarts: success with restart-on-success", none, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: exitWith(success), want: Decision{State: NotRestarting, Reason: ReasonNoRestartsAllowed}},
		}},
		{"AR-7(3) no restarts: batch success terminates", none, structs.JobTypeBatch, mainTask(), []step{
			{at: time.Minute, set: exitWith(success), want: Decision{State: Terminated, Reason: ReasonNoRestartsAllowed}},
		}},
		{"AR-7(3) no restarts: unrecoverable start error", none, structs.JobTypeBatch, mainTask(), []step{
			{at: time.Minute, set: startErr(false), want: Decision{State: NotRestarting, Reason: ReasonNoRestartsAllowed}},
		}},
		{"AR-7(4) interval rolls over strictly after its end", service, structs.JobTypeService, mainTask(), []step{
			{at: 10 * time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 20 * time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 30 * time.Minute, set: exitWith(failed), want: failMode},
			{at: 30*time.Minute + 1, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 31 * time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
		}},
		{"AR-7(5) unrecoverable start error", service, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: startErr(false), want: Decision{State: NotRestarting, Reason: ReasonUnrecoverableError, ConsumesAttempt: true}},
		}},
		{"AR-7(5) start error wins over exit result", service, structs.JobTypeBatch, mainTask(), []step{
			{at: time.Minute, set: func(t *Tracker) { t.SetExitResult(success).SetStartError(errBoom, false) }, want: Decision{State: NotRestarting, Reason: ReasonUnrecoverableError, ConsumesAttempt: true}},
		}},
		{"AR-7(5) recoverable start error follows the policy", service, structs.JobTypeBatch, mainTask(), []step{
			{at: time.Minute, set: startErr(true), want: within(15 * time.Second)},
			{at: 2 * time.Minute, set: func(t *Tracker) { t.SetStartError(nil, false).SetExitResult(failed) }, want: within(15 * time.Second)},
			{at: 3 * time.Minute, set: startErr(true), want: failMode},
		}},
		{"AR-7(6) batch success terminates", service, structs.JobTypeBatch, mainTask(), []step{
			{at: time.Minute, set: exitWith(success), want: Decision{State: Terminated, Reason: ReasonSuccessfulTermination, ConsumesAttempt: true}},
		}},
		{"AR-7(6) signal is not a successful exit", service, structs.JobTypeBatch, mainTask(), []step{
			{at: time.Minute, set: exitWith(ExitResult{Signal: 15}), want: within(15 * time.Second)},
			{at: 2 * time.Minute, set: exitWith(ExitResult{Err: errBoom}), want: within(15 * time.Second)},
		}},
		{"AR-7(6) prestart non-sidecar success terminates", service, structs.JobTypeService, lifecycleTask(structs.TaskLifecycleHookPrestart, false), []step{
			{at: time.Minute, set: exitWith(success), want: Decision{State: Terminated, Reason: ReasonSuccessfulTermination, ConsumesAttempt: true}},
		}},
		{"AR-7(6) service success restarts", service, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: exitWith(success), want: within(15 * time.Second)},
		}},
		{"AR-7(7) fail mode", service, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 2 * time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 3 * time.Minute, set: exitWith(failed), want: failMode},
		}},
		{"AR-7(7) delay mode restarts at the interval's end", delayed, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 2 * time.Minute, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 3 * time.Minute, set: exitWith(failed), want: Decision{State: Restarting, Delay: 27 * time.Minute, Reason: ReasonDelay, ConsumesAttempt: true}},
			{at: 30 * time.Minute, set: exitWith(failed), want: Decision{State: Restarting, Delay: time.Nanosecond, Reason: ReasonDelay, ConsumesAttempt: true}},
			{at: 30*time.Minute + 1, set: exitWith(failed), want: within(15 * time.Second)},
		}},
		{"AR-7(8) jitter is a quarter of a uniform draw below Delay", service, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: exitWith(failed), u: 0.5, want: within(15*time.Second + 1875*time.Millisecond)},
			{at: 2 * time.Minute, set: exitWith(failed), u: 0.9999999999999999, want: within(18750*time.Millisecond - 1)},
		}},
		{"AR-7(8) out-of-range draws are clamped", service, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: exitWith(failed), u: -3, want: within(15 * time.Second)},
			{at: 2 * time.Minute, set: exitWith(failed), u: 7, want: within(18750*time.Millisecond - 1)},
		}},
		{"AR-7(8) zero Delay reads as 1ns", zeroDelay, structs.JobTypeService, mainTask(), []step{
			{at: time.Minute, set: exitWith(failed), u: 0.9, want: within(time.Nanosecond)},
		}},
		{"DATA-3 nil policy takes the batch defaults", nil, structs.JobTypeBatch, mainTask(), []step{
			{at: time.Hour, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 2 * time.Hour, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 3 * time.Hour, set: exitWith(failed), want: within(15 * time.Second)},
			{at: 4 * time.Hour, set: exitWith(failed), want: Decision{State: NotRestarting, Reason: `Exceeded allowed attempts 3 in interval 24h0m0s and mode is "fail"`, ConsumesAttempt: true}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := New(tc.policy, tc.jobType, tc.task, t0)
			for i, s := range tc.steps {
				s.set(tr)
				got := tr.GetState(t0.Add(s.at), func() float64 { return s.u })
				if diff := cmp.Diff(s.want, got); diff != "" {
					t.Fatalf("step %d: GetState(+%v) mismatch (-want +got):\n%s", i, s.at, diff)
				}
			}
		})
	}
}

// AR-7 (8): the draw is consumed once per within-policy restart and never
// otherwise, so the runner's seeded source advances deterministically.
func TestGetState_AR7_DrawOnlyForWithinPolicy(t *testing.T) {
	p := structs.NewRestartPolicy(1, time.Hour, 10*time.Second, structs.RestartPolicyModeFail)
	tr := New(p, structs.JobTypeService, mainTask(), t0)
	calls := 0
	draw := func() float64 { calls++; return 0 }
	tr.SetPauseInduced().GetState(t0.Add(time.Minute), draw)
	tr.SetRestartTriggered().GetState(t0.Add(2*time.Minute), draw)
	must.EqOp(t, 0, calls)
	tr.SetExitResult(failed).GetState(t0.Add(3*time.Minute), draw)
	must.EqOp(t, 1, calls)
	d := tr.SetExitResult(failed).GetState(t0.Add(4*time.Minute), draw)
	must.EqOp(t, NotRestarting, d.State)
	must.EqOp(t, 1, calls)
	// A nil draw is a zero draw.
	tr2 := New(p, structs.JobTypeService, mainTask(), t0)
	must.EqOp(t, 10*time.Second, tr2.SetExitResult(failed).GetState(t0.Add(time.Minute), nil).Delay)
}

// PAUSE-6: pause-induced restarts leave count and interval alone.
func TestGetState_PAUSE6_IntervalUntouched(t *testing.T) {
	p := structs.NewRestartPolicy(2, 10*time.Minute, time.Second, structs.RestartPolicyModeFail)
	tr := New(p, structs.JobTypeService, mainTask(), t0)
	tr.SetExitResult(failed).GetState(t0.Add(time.Minute), nil)
	must.EqOp(t, 1, tr.Count())
	must.Eq(t, t0, tr.WindowStart())
	// Far past the interval: a pause-induced exit must not roll it over.
	tr.SetExitResult(failed).SetPauseInduced().GetState(t0.Add(time.Hour), nil)
	must.EqOp(t, 1, tr.Count())
	must.Eq(t, t0, tr.WindowStart())
	must.False(t, tr.Killed())
	tr.SetKilled()
	must.True(t, tr.Killed())
}

func TestRestartOnSuccess_AR7(t *testing.T) {
	cases := []struct {
		name    string
		jobType string
		task    *structs.Task
		want    bool
	}{
		{"service main", structs.JobTypeService, mainTask(), true},
		{"system main", structs.JobTypeSystem, mainTask(), true},
		{"batch main", structs.JobTypeBatch, mainTask(), false},
		{"sysbatch main", structs.JobTypeSysBatch, mainTask(), false},
		{"nil task", structs.JobTypeService, nil, true},
		{"empty lifecycle hook is main", structs.JobTypeService, lifecycleTask("", false), true},
		{"prestart", structs.JobTypeService, lifecycleTask(structs.TaskLifecycleHookPrestart, false), false},
		{"prestart sidecar", structs.JobTypeService, lifecycleTask(structs.TaskLifecycleHookPrestart, true), true},
		{"poststart", structs.JobTypeService, lifecycleTask(structs.TaskLifecycleHookPoststart, false), false},
		{"poststart sidecar", structs.JobTypeService, lifecycleTask(structs.TaskLifecycleHookPoststart, true), true},
		{"poststop", structs.JobTypeService, lifecycleTask(structs.TaskLifecycleHookPoststop, false), false},
		{"poststop sidecar", structs.JobTypeService, lifecycleTask(structs.TaskLifecycleHookPoststop, true), false},
		{"batch prestart sidecar", structs.JobTypeBatch, lifecycleTask(structs.TaskLifecycleHookPrestart, true), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.EqOp(t, tc.want, RestartOnSuccess(tc.jobType, tc.task))
		})
	}
}

// DATA-8 and AR-7: the events a decision appends, with their derived
// display messages.
func TestDecisionEvent_AR7(t *testing.T) {
	at := t0.Add(time.Minute)
	cases := []struct {
		name        string
		d           Decision
		wantType    string
		wantDisplay string
		wantFails   bool
		wantDetails map[string]string
	}{
		{"pause-induced", Decision{State: Restarting}, structs.TaskRestarting, "Task restarting in 0s", false,
			map[string]string{"start_delay": "0", "restart_reason": ""}},
		{"within policy", Decision{State: Restarting, Delay: 15 * time.Second, Reason: ReasonWithinPolicy}, structs.TaskRestarting,
			"Task restarting in 15s", false, map[string]string{"start_delay": "15000000000", "restart_reason": ReasonWithinPolicy}},
		{"delay mode", Decision{State: Restarting, Delay: 27 * time.Minute, Reason: ReasonDelay}, structs.TaskRestarting,
			"Exceeded allowed attempts, applying a delay - Task restarting in 27m0s", false,
			map[string]string{"start_delay": "1620000000000", "restart_reason": ReasonDelay}},
		{"fail mode", Decision{State: NotRestarting, Reason: FailReason(2, 30*time.Minute)}, structs.TaskNotRestarting,
			`Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"`, true,
			map[string]string{"fails_task": "true", "restart_reason": `Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"`}},
		{"unrecoverable", Decision{State: NotRestarting, Reason: ReasonUnrecoverableError}, structs.TaskNotRestarting,
			"Error was unrecoverable", true, map[string]string{"fails_task": "true", "restart_reason": ReasonUnrecoverableError}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ev := tc.d.Event(at)
			must.NotNil(t, ev)
			st := structs.NewTaskState()
			st.AppendEvent(ev)
			must.EqOp(t, tc.wantType, ev.Type)
			must.EqOp(t, at.UnixNano(), ev.Time)
			must.EqOp(t, tc.wantDisplay, ev.DisplayMessage)
			must.EqOp(t, tc.wantFails, st.Failed)
			must.EqOp(t, tc.wantFails, tc.d.FailsTask())
			must.MapEq(t, tc.wantDetails, ev.Details)
		})
	}
	must.Nil(t, Decision{State: Terminated}.Event(at))
	must.Nil(t, Decision{State: Killed}.Event(at))
}

func TestReasons_AR7_Verbatim(t *testing.T) {
	must.EqOp(t, "Policy allows no restarts", ReasonNoRestartsAllowed)
	must.EqOp(t, "Error was unrecoverable", ReasonUnrecoverableError)
	must.EqOp(t, "Restart within policy", ReasonWithinPolicy)
	must.EqOp(t, "Exceeded allowed attempts, applying a delay", ReasonDelay)
	must.EqOp(t, "Restart unnecessary as task terminated successfully", ReasonSuccessfulTermination)
	must.EqOp(t, `Exceeded allowed attempts 3 in interval 24h0m0s and mode is "fail"`, FailReason(3, 24*time.Hour))
}

// The zero Tracker allows no restarts and does not panic.
func TestZeroTracker_AR7(t *testing.T) {
	var tr Tracker
	d := tr.SetExitResult(failed).GetState(t0, nil)
	must.EqOp(t, NotRestarting, d.State)
}
