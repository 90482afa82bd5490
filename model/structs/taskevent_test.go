package structs

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

var t0 = time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)

// TestDisplayMessage checks the DATA-8 derivations one type at a time.
func TestDisplayMessage(t *testing.T) {
	ev := func(typ string) *TaskEvent { return NewTaskEvent(typ, t0) }
	cases := []struct {
		name string
		ev   *TaskEvent
		want string
	}{
		{"received", ev(TaskReceived), "Task received by client"},
		{"started", ev(TaskStarted), "Task started by client"},
		{"setup", ev(TaskSetup).SetMessage(MsgTaskSetupBuildingDir), "Building Task Directory"},
		{"terminated code", ev(TaskTerminated).SetExitCode(0), "Exit Code: 0"},
		{"terminated signal", ev(TaskTerminated).SetExitCode(137).SetSignal(9), "Exit Code: 137, Signal: 9"},
		{"terminated message", ev(TaskTerminated).SetExitCode(1).SetExitMessage(errors.New(`boom "x"`)),
			`Exit Code: 1, Exit Message: "boom \"x\""`},
		{"restarting within policy", ev(TaskRestarting).SetRestartReason(ReasonWithinPolicy).SetStartDelay(15 * time.Second),
			"Task restarting in 15s"},
		{"restarting empty reason", ev(TaskRestarting).SetStartDelay(0), "Task restarting in 0s"},
		{"restarting other reason", ev(TaskRestarting).SetRestartReason("Exceeded allowed attempts, applying a delay").SetStartDelay(90 * time.Second),
			"Exceeded allowed attempts, applying a delay - Task restarting in 1m30s"},
		{"not restarting reason", ev(TaskNotRestarting).SetRestartReason("Error was unrecoverable"), "Error was unrecoverable"},
		{"not restarting default", ev(TaskNotRestarting), "Task exceeded restart policy"},
		{"killing reason", ev(TaskKilling).SetKillReason("because"), "because"},
		{"killing timeout", ev(TaskKilling).SetKillTimeout(5 * time.Second), "Sent interrupt. Waiting 5s before force killing"},
		{"killing bare", ev(TaskKilling), "Sent interrupt"},
		{"killed", ev(TaskKilled), "Task successfully killed"},
		{"killed error", ev(TaskKilled).SetKillError(errors.New("stuck")), "stuck"},
		{"signaling generic", ev(TaskSignaling).SetSignalText("SIGHUP"), "Task being sent a signal"},
		{"signaling sig", ev(TaskSignaling).SetTaskSignal("SIGHUP"), "Task being sent signal SIGHUP"},
		{"signaling reason", ev(TaskSignaling).SetTaskSignalReason("reload"), "reload"},
		{"signaling both", ev(TaskSignaling).SetTaskSignal("SIGHUP").SetTaskSignalReason("reload"), "Task being sent signal SIGHUP: reload"},
		{"restart signaled", ev(TaskRestartSignal), "Task signaled to restart"},
		{"restart signaled reason", ev(TaskRestartSignal).SetRestartReason("user"), "user"},
		{"setup failure", ev(TaskSetupFailure), "Task setup failed"},
		{"setup failure err", ev(TaskSetupFailure).SetSetupError(errors.New("no dir")), "no dir"},
		{"driver failure", ev(TaskDriverFailure), "Failed to start task"},
		{"driver failure err", ev(TaskDriverFailure).SetDriverError(errors.New("bad")), "bad"},
		{"failed validation", ev(TaskFailedValidation), "Validation of task failed"},
		{"failed validation err", ev(TaskFailedValidation).SetValidationError(errors.New("v")), "v"},
		{"sibling", ev(TaskSiblingFailed).SetFailedSibling("web"), `Task's sibling "web" failed`},
		{"leader", ev(TaskLeaderDead), "Leader Task in Group dead"},
		{"main dead", ev(TaskMainDead), "Main tasks in the group died"},
		{"reconnected", ev(TaskClientReconnected), "Client reconnected"},
		{"restore failed", ev(TaskRestoreFailed), MsgRestoreFailed},
		{"hook failed", ev(TaskHookFailed).SetMessage("volumes: x"), "volumes: x"},
		{"hook message", ev(TaskHookMessage).SetMessage("m"), "m"},
		{"pausing explicit", ev(TaskPausing).SetDisplayMessage(DisplayPausingSchedule), "Pausing due to schedule"},
		{"running explicit", ev(TaskRunning).SetDisplayMessage(DisplayRunningOverride), "Running due to override"},
		{"explicit kept", ev(TaskStarted).SetDisplayMessage("mine"), "mine"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.ev.PopulateDisplayMessage()
			must.EqOp(t, tc.want, tc.ev.DisplayMessage)
		})
	}
}

// TestEventDetails checks that setters fill Details (DATA-7).
func TestEventDetails(t *testing.T) {
	e := NewTaskEvent(TaskTerminated, t0).
		SetMessage("m").SetFailsTask().SetRestartReason("r").SetSetupError(errors.New("s")).
		SetDriverError(errors.New("d")).SetExitCode(3).SetSignal(15).SetOOMKilled(false).
		SetKillTimeout(30 * time.Second).SetKillReason("k").SetKillError(errors.New("ke")).
		SetStartDelay(time.Second).SetFailedSibling("f").SetTaskSignal("SIGHUP").
		SetTaskSignalReason("tsr").SetValidationError(errors.New("v"))
	want := map[string]string{
		"message": "m", "fails_task": "true", "restart_reason": "r", "setup_error": "s",
		"driver_error": "d", "exit_code": "3", "signal": "15", "oom_killed": "false",
		"kill_timeout": "30s", "kill_reason": "k", "kill_error": "ke", "start_delay": "1000000000",
		"failed_sibling": "f", "task_signal": "SIGHUP", "task_signal_reason": "tsr", "validation_error": "v",
	}
	must.MapEq(t, want, e.Details)
	must.EqOp(t, t0.UnixNano(), e.Time)
	e2 := NewTaskEvent(TaskTerminated, t0).SetExitMessage(errors.New("gone"))
	must.EqOp(t, "gone", e2.Details["exit_message"])
	// nil errors leave the event untouched.
	e3 := NewTaskEvent(TaskKilled, t0).SetKillError(nil).SetSetupError(nil).SetDriverError(nil).
		SetValidationError(nil).SetExitMessage(nil)
	must.MapEmpty(t, e3.Details)
	// Copy is deep.
	c := e.Copy()
	c.Details["message"] = "changed"
	must.EqOp(t, "m", e.Details["message"])
	must.Nil(t, (*TaskEvent)(nil).Copy())
}

// TestHookFailedTexts: the parsers read back what the formats write.
func TestHookFailedTexts(t *testing.T) {
	msg := fmt.Sprintf(FmtHookFailedMessage, "volumes", fmt.Errorf(FmtNoCSIMount, "data"))
	hook, err, ok := SplitHookFailed(msg)
	if !ok || hook != "volumes" {
		t.Fatalf("SplitHookFailed(%q) = %q, %q, %v", msg, hook, err, ok)
	}
	if alias, ok := MissingCSIMount(err); !ok || alias != "data" {
		t.Errorf("MissingCSIMount(%q) = %q, %v, want data", err, alias, ok)
	}
	if IsHookPanic(err) {
		t.Errorf("IsHookPanic(%q) = true", err)
	}
	panicked := fmt.Sprintf(FmtHookPanic, "runtime error: invalid memory address or nil pointer dereference")
	if !IsHookPanic(panicked) {
		t.Errorf("IsHookPanic(%q) = false", panicked)
	}
	if _, ok := MissingCSIMount(panicked); ok {
		t.Errorf("MissingCSIMount(%q) matched", panicked)
	}
}
