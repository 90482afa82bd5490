package structs

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// This file is a deliberately naive second implementation of DATA-8's
// DisplayMessage derivation, DATA-7's Details for the setters it uses and
// DATA-6's task state bookkeeping, written from SPEC.md's text alone, and
// the property tests that compare the package with it. The naive side
// never reads an event the package built: it derives what it expects from
// the same generated inputs the setters were given.
//
// Readings of SPEC text the naive code had to choose:
//   - an empty reason or error text counts as absent ("else ...");
//   - Terminated's "Exit Message" is the text given to SetExitMessage;
//   - Restart Signaled's "reason" is the RestartReason;
//   - Killing's "else `Sent interrupt. Waiting <kill_timeout> ...`" needs
//     a non-zero KillTimeout;
//   - "Entering running sets StartedAt" on every entry (not when already
//     running); "dead sets FinishedAt once": the first time only;
//   - Details are checked for the keys whose value the naive side knows
//     (a non-empty input); what an empty input leaves is not compared.

// naiveInputs are what one generated event is built from.
type naiveInputs struct {
	Type                                 string
	Reason, Text, Signal, Name, Explicit string
	Code, SigNum                         int
	Delay                                time.Duration
	ReasonSet, TextSet, SigSet, DelaySet bool
	ErrText                              string // "" and ErrSet: errors.New("")
	ErrSet                               bool
}

func naiveErr(in naiveInputs) error {
	if !in.ErrSet {
		return nil
	}
	return errors.New(in.ErrText)
}

// naiveBuild builds the event through the package's setters, and the
// naive DisplayMessage and Details expected of it.
func naiveBuild(in naiveInputs, at time.Time) (e *TaskEvent, display string, details map[string]string) {
	e = NewTaskEvent(in.Type, at)
	details = map[string]string{}
	errText := ""
	if in.ErrSet {
		errText = in.ErrText
	}
	or := func(s, def string) string {
		if s != "" {
			return s
		}
		return def
	}
	switch in.Type {
	case "Received":
		display = "Task received by client"
	case "Started":
		display = "Task started by client"
	case "Task Setup", "Task hook failed", "Task hook message":
		e.SetMessage(in.Text)
		display = in.Text
		if in.Text != "" {
			details["message"] = in.Text
		}
	case "Terminated":
		e.SetExitCode(in.Code).SetSignal(in.SigNum).SetExitMessage(naiveErr(in))
		display = fmt.Sprintf("Exit Code: %d", in.Code)
		if in.SigNum != 0 {
			display += fmt.Sprintf(", Signal: %d", in.SigNum)
		}
		if errText != "" {
			display += fmt.Sprintf(", Exit Message: %q", errText)
			details["exit_message"] = errText
		}
		details["exit_code"] = strconv.Itoa(in.Code)
		details["signal"] = strconv.Itoa(in.SigNum)
	case "Restarting":
		e.SetRestartReason(in.Reason).SetStartDelay(in.Delay)
		display = "Task restarting in " + in.Delay.String()
		if in.Reason != "" && in.Reason != "Restart within policy" {
			display = in.Reason + " - " + display
		}
		if in.Reason != "" {
			details["restart_reason"] = in.Reason
		}
		details["start_delay"] = strconv.FormatInt(int64(in.Delay), 10)
	case "Not Restarting":
		e.SetRestartReason(in.Reason).SetFailsTask()
		display = or(in.Reason, "Task exceeded restart policy")
		if in.Reason != "" {
			details["restart_reason"] = in.Reason
		}
		details["fails_task"] = "true"
	case "Killing":
		e.SetKillReason(in.Reason)
		if in.DelaySet {
			e.SetKillTimeout(in.Delay)
			details["kill_timeout"] = in.Delay.String()
		}
		switch {
		case in.Reason != "":
			display = in.Reason
			details["kill_reason"] = in.Reason
		case in.DelaySet && in.Delay != 0:
			display = fmt.Sprintf("Sent interrupt. Waiting %s before force killing", in.Delay)
		default:
			display = "Sent interrupt"
		}
	case "Killed":
		e.SetKillError(naiveErr(in))
		display = or(errText, "Task successfully killed")
		if errText != "" {
			details["kill_error"] = errText
		}
	case "Signaling":
		if in.SigSet {
			e.SetTaskSignal(in.Signal)
		}
		if in.ReasonSet {
			e.SetTaskSignalReason(in.Reason)
		}
		sig, reason := "", ""
		if in.SigSet {
			sig = in.Signal
		}
		if in.ReasonSet {
			reason = in.Reason
		}
		switch {
		case sig == "" && reason == "":
			display = "Task being sent a signal"
		case reason == "":
			display = "Task being sent signal " + sig
		case sig == "":
			display = reason
		default:
			display = "Task being sent signal " + sig + ": " + reason
		}
		if sig != "" {
			details["task_signal"] = sig
		}
		if reason != "" {
			details["task_signal_reason"] = reason
		}
	case "Restart Signaled":
		e.SetRestartReason(in.Reason)
		display = or(in.Reason, "Task signaled to restart")
	case "Setup Failure":
		e.SetSetupError(naiveErr(in))
		display = or(errText, "Task setup failed")
		if errText != "" {
			details["setup_error"] = errText
		}
	case "Driver Failure":
		e.SetDriverError(naiveErr(in))
		display = or(errText, "Failed to start task")
		if errText != "" {
			details["driver_error"] = errText
		}
	case "Failed Validation":
		e.SetValidationError(naiveErr(in))
		display = or(errText, "Validation of task failed")
		if errText != "" {
			details["validation_error"] = errText
		}
	case "Sibling Task Failed":
		e.SetFailedSibling(in.Name)
		display = fmt.Sprintf("Task's sibling %q failed", in.Name)
		details["failed_sibling"] = in.Name
	case "Leader Task Dead":
		display = "Leader Task in Group dead"
	case "Main Tasks Dead":
		display = "Main tasks in the group died"
	case "Reconnected":
		display = "Client reconnected"
	case "Failed Restoring Task":
		display = "failed to restore task; will not run until server is contacted"
	}
	if in.Explicit != "" {
		e.SetDisplayMessage(in.Explicit)
		display = in.Explicit // "An explicit DisplayMessage is kept"
	}
	return e, display, details
}

var naiveTypes = []string{"Received", "Started", "Task Setup", "Terminated", "Restarting", "Not Restarting", "Killing",
	"Killed", "Signaling", "Restart Signaled", "Setup Failure", "Driver Failure", "Failed Validation",
	"Sibling Task Failed", "Leader Task Dead", "Main Tasks Dead", "Reconnected", "Failed Restoring Task",
	"Task hook failed", "Task hook message"}

// naiveDraw draws the inputs of one event of type typ; absent texts are
// drawn half the time, since every "else" of DATA-8 hangs on them.
func naiveDraw(rt *rapid.T, typ string) naiveInputs {
	text := func(label string) string {
		if rapid.Bool().Draw(rt, label+"Absent") {
			return ""
		}
		return rapid.SampledFrom([]string{"Restart within policy", "Exceeded allowed attempts, applying a delay",
			"some reason", `quoted "x"`, "multi\nline"}).Draw(rt, label)
	}
	return naiveInputs{
		Type:      typ,
		Reason:    text("reason"),
		Text:      text("text"),
		Signal:    rapid.SampledFrom([]string{"", "SIGHUP", "SIGUSR1"}).Draw(rt, "signal"),
		Name:      rapid.StringMatching(`[a-z][a-z0-9-]{0,6}`).Draw(rt, "name"),
		Explicit:  rapid.SampledFrom([]string{"", "", "", "explicit"}).Draw(rt, "explicit"),
		Code:      rapid.SampledFrom([]int{0, 1, 137, -1}).Draw(rt, "code"),
		SigNum:    rapid.SampledFrom([]int{0, 9, 15}).Draw(rt, "sigNum"),
		Delay:     time.Duration(rapid.SampledFrom([]int64{0, 1, int64(500 * time.Millisecond), int64(1500 * time.Millisecond), int64(15 * time.Second), int64(time.Hour + time.Nanosecond)}).Draw(rt, "delay")),
		ReasonSet: rapid.Bool().Draw(rt, "reasonSet"),
		SigSet:    rapid.Bool().Draw(rt, "sigSet"),
		DelaySet:  rapid.Bool().Draw(rt, "delaySet"),
		ErrText:   text("errText"),
		ErrSet:    rapid.Bool().Draw(rt, "errSet"),
	}
}

// TestNaive_DATA8_DisplayMessage compares PopulateDisplayMessage (and the
// Details the setters fill, DATA-7) with the naive DATA-8 on generated
// events, one subtest per type the SPEC gives a message.
func TestNaive_DATA8_DisplayMessage(t *testing.T) {
	at := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, typ := range naiveTypes {
		t.Run(typ, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				in := naiveDraw(rt, typ)
				e, display, details := naiveBuild(in, at)
				e.PopulateDisplayMessage()
				if e.DisplayMessage != display {
					rt.Fatalf("DATA-8 DisplayMessage of %+v:\n model: %q\n naive: %q", in, e.DisplayMessage, display)
				}
				for k, v := range details {
					if got, ok := e.Details[k]; !ok || got != v {
						rt.Fatalf("DATA-7 Details[%q] of %+v:\n model: %q (present %v)\n naive: %q\nall: %v", k, in, got, ok, v, e.Details)
					}
				}
			})
		})
	}
}

// naiveTaskState is DATA-6's bookkeeping.
type naiveTaskState struct {
	State                              string
	Failed                             bool
	Restarts                           uint64
	LastRestart, StartedAt, FinishedAt time.Time
	Events                             []string // type@unix
}

func naiveOf(s *TaskState) naiveTaskState {
	n := naiveTaskState{State: s.State, Failed: s.Failed, Restarts: s.Restarts, LastRestart: s.LastRestart,
		StartedAt: s.StartedAt, FinishedAt: s.FinishedAt}
	for _, e := range s.Events {
		n.Events = append(n.Events, fmt.Sprintf("%s@%d", e.Type, e.Time))
	}
	return n
}

// append is DATA-6: "Events keeps the newest 10. A FailsTask event sets
// Failed for good. Each Restarting event increments Restarts and sets
// LastRestart".
func (n *naiveTaskState) append(typ string, fails bool, at time.Time) {
	n.Failed = n.Failed || fails
	if typ == "Restarting" {
		n.Restarts++
		n.LastRestart = at
	}
	n.Events = append(n.Events, fmt.Sprintf("%s@%d", typ, at.UnixNano()))
	if len(n.Events) > 10 {
		n.Events = n.Events[len(n.Events)-10:]
	}
}

// set is DATA-6: "Entering running sets StartedAt; dead sets FinishedAt
// once".
func (n *naiveTaskState) set(state string, at time.Time) {
	if state == "running" && n.State != "running" {
		n.StartedAt = at
	}
	if state == "dead" && n.FinishedAt.IsZero() {
		n.FinishedAt = at
	}
	n.State = state
}

func (n naiveTaskState) String() string {
	return fmt.Sprintf("{%s failed=%v restarts=%d last=%v started=%v finished=%v events=[%s]}", n.State, n.Failed, n.Restarts,
		n.LastRestart.Format(time.TimeOnly), n.StartedAt.Format(time.TimeOnly), n.FinishedAt.Format(time.TimeOnly), strings.Join(n.Events, " "))
}

func naiveSame(a, b naiveTaskState) bool {
	return a.String() == b.String() && a.LastRestart.Equal(b.LastRestart) && a.StartedAt.Equal(b.StartedAt) && a.FinishedAt.Equal(b.FinishedAt)
}

// TestNaive_DATA6_Bookkeeping drives a TaskState and the naive one with
// the same appends and state changes and compares them after each step.
func TestNaive_DATA6_Bookkeeping(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		at := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
		s := NewTaskState()
		n := naiveOf(s)
		var steps []string
		for i := range rapid.IntRange(1, 30).Draw(rt, "steps") {
			at = at.Add(time.Duration(rapid.IntRange(0, 3).Draw(rt, "gap")) * time.Second)
			if rapid.IntRange(0, 2).Draw(rt, "setState") == 0 {
				state := rapid.SampledFrom([]string{"pending", "running", "dead"}).Draw(rt, "state")
				s.SetState(state, at)
				n.set(state, at)
				steps = append(steps, fmt.Sprintf("SetState(%s)@%s", state, at.Format(time.TimeOnly)))
			} else {
				typ := rapid.SampledFrom([]string{"Received", "Started", "Restarting", "Not Restarting", "Terminated", "Killing"}).Draw(rt, "type")
				fails := rapid.IntRange(0, 4).Draw(rt, "fails") == 0
				e := NewTaskEvent(typ, at)
				if fails {
					e.SetFailsTask()
				}
				s.AppendEvent(e)
				n.append(typ, fails, at)
				steps = append(steps, fmt.Sprintf("Append(%s fails=%v)@%s", typ, fails, at.Format(time.TimeOnly)))
			}
			if got := naiveOf(s); !naiveSame(got, n) {
				rt.Fatalf("DATA-6 after step %d:\n model: %s\n naive: %s\nsteps: %s", i, got, n, strings.Join(steps, ", "))
			}
		}
	})
}

// TestNaive_DATA8_Vectors pins DATA-8 with messages written out from the
// SPEC, on model and naive alike.
func TestNaive_DATA8_Vectors(t *testing.T) {
	at := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   naiveInputs
		want string
	}{
		{naiveInputs{Type: "Terminated", Code: 137, SigNum: 9, ErrSet: true, ErrText: "OOM killed"}, `Exit Code: 137, Signal: 9, Exit Message: "OOM killed"`},
		{naiveInputs{Type: "Terminated"}, "Exit Code: 0"},
		{naiveInputs{Type: "Restarting", Reason: "Restart within policy", Delay: 15 * time.Second}, "Task restarting in 15s"},
		{naiveInputs{Type: "Restarting", Delay: 0}, "Task restarting in 0s"},
		{naiveInputs{Type: "Restarting", Reason: "Exceeded allowed attempts, applying a delay", Delay: time.Minute},
			"Exceeded allowed attempts, applying a delay - Task restarting in 1m0s"},
		{naiveInputs{Type: "Not Restarting"}, "Task exceeded restart policy"},
		{naiveInputs{Type: "Killing", Delay: 5 * time.Second, DelaySet: true}, "Sent interrupt. Waiting 5s before force killing"},
		{naiveInputs{Type: "Killing"}, "Sent interrupt"},
		{naiveInputs{Type: "Signaling"}, "Task being sent a signal"},
		{naiveInputs{Type: "Signaling", Signal: "SIGHUP", SigSet: true, Reason: "reload", ReasonSet: true}, "Task being sent signal SIGHUP: reload"},
		{naiveInputs{Type: "Sibling Task Failed", Name: "web"}, `Task's sibling "web" failed`},
		{naiveInputs{Type: "Task Setup", Text: "Building Task Directory"}, "Building Task Directory"},
	}
	for _, c := range cases {
		e, nv, _ := naiveBuild(c.in, at)
		e.PopulateDisplayMessage()
		if e.DisplayMessage != c.want || nv != c.want {
			t.Errorf("%s:\n model: %q\n naive: %q\n  want: %q", c.in.Type, e.DisplayMessage, nv, c.want)
		}
	}
}
