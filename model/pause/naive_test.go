package pause

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/structs"
)

// This file is a deliberately naive second implementation of the pause
// states of SPEC §4 (PAUSE-1..PAUSE-10) and SCHED-9's notice, written from
// SPEC.md's text alone, and the property test that steps Machine and it
// side by side. It keeps the SPEC's nouns as fields (stored state,
// effective paused line, arrived, tracking timer, pause stop in flight)
// and applies each sentence where it applies; it never calls the package
// but for the Input constructors and the outputs it compares.
//
// What is compared after every input: the stored state, the effective
// paused state, the events (type and message; display message for
// Pausing/Running), whether the live task is stopped, whether the gate
// opens (on arrival), whether an exit is pause-induced, whether the hook
// failed, a request's error, and the armed tracking timer (the package's
// TimerAction replayed on a timer of its own).
//
// Readings of SPEC text the naive code had to choose:
//   - before the first arrival requests are only stored (PAUSE-3: "Task
//     Setup precedes the first Pausing"); the effective state is the
//     initial one (not paused, or the restored one, PAUSE-10);
//   - a restore with a recovered live handle means the task is past the
//     gate: it counts as arrived, and a non-override state is re-evaluated
//     at once ("a recovered live task whose state is paused is
//     pause-stopped");
//   - SCHED-9's notice goes out once per distinct schedule key, ever;
//   - after the loop finished for good, nothing happens but storing; the
//     tracking timer is cancelled;
//   - a request on an unscheduled task is refused for that before its
//     state is looked at (the API refuses bad states before any lookup,
//     API-2, so only the machine sees the order).

// naivePause is one task's pause state.
type naivePause struct {
	task     string
	key      string // schedule key, "" = unscheduled
	stored   structs.TaskScheduleState
	paused   bool // the effective paused line (PAUSE-4)
	arrived  bool
	done     bool // finished for good, or PAUSE-9
	stopping bool // a pause stop whose exit is not seen yet (PAUSE-5)
	timer    time.Time
	noticed  map[string]bool // SCHED-9
}

// naiveOut is what one input makes the runner do.
type naiveOut struct {
	Events       []string // "Type|DisplayMessage|Message"
	Stop         bool
	GateOpen     bool
	PauseInduced bool
	Failed       bool
	Err          string
}

func naiveEvent(typ, display, msg string) string { return typ + "|" + display + "|" + msg }

func (n *naivePause) tracking() bool {
	return n.arrived && !n.done && n.key != "" && !n.stored.Override()
}

// follow appends PAUSE-4's event when the effective state changes and
// stops a live task that becomes paused (PAUSE-5).
func (n *naivePause) follow(out *naiveOut, live bool) {
	now := n.stored.Paused()
	if now == n.paused {
		return
	}
	n.paused = now
	switch n.stored {
	case "scheduled_pause":
		out.Events = append(out.Events, naiveEvent("Pausing", "Pausing due to schedule", ""))
	case "force_pause":
		out.Events = append(out.Events, naiveEvent("Pausing", "Pausing due to override", ""))
	case "":
		out.Events = append(out.Events, naiveEvent("Running", "Running due to schedule", ""))
	case "force_run":
		out.Events = append(out.Events, naiveEvent("Running", "Running due to override", ""))
	}
	if now && live && !n.stopping {
		out.Stop, n.stopping = true, true
	}
}

// settle applies one tracking evaluation (PAUSE-3): store ""/scheduled_pause,
// arm the timer at WindowEnd inside or NextStart outside (none if zero),
// follow, then SCHED-9's notice.
func (n *naivePause) settle(out *naiveOut, ev Evaluation, live bool) {
	if ev.Inside {
		n.stored, n.timer = "", ev.WindowEnd
	} else {
		n.stored, n.timer = "scheduled_pause", ev.NextStart
	}
	n.follow(out, live)
	if !ev.Inside && ev.NextStart.IsZero() && !n.noticed[n.key] {
		n.noticed[n.key] = true
		out.Events = append(out.Events, naiveEvent("Task hook message", "", "Schedule has no future start time; task will remain paused"))
	}
}

// fail is PAUSE-9: stop a live task, Task hook failed `pause: <err>`, an
// unrecoverable start error; done.
func (n *naivePause) fail(out *naiveOut, err error, live bool) {
	if live && !n.stopping {
		out.Stop = true
	}
	out.Events = append(out.Events, naiveEvent("Task hook failed", "", "pause: "+err.Error()))
	out.Failed = true
	n.done, n.timer = true, time.Time{}
}

// step applies one input.
func (n *naivePause) step(in Input) naiveOut {
	var out naiveOut
	switch in.Kind {
	case KindRequest:
		switch {
		case n.key == "":
			out.Err = fmt.Sprintf("task %q has no schedule", n.task)
			return out
		case in.State != "force_pause" && in.State != "force_run" && in.State != "schedule_resume":
			out.Err = "Not a valid task schedule state"
			return out
		case in.State == "schedule_resume" && in.Eval.Err != nil:
			out.Err = in.Eval.Err.Error() // "an evaluation error is returned, state kept"
			return out
		}
		if !n.arrived || n.done {
			n.stored = in.State
			if in.State == "schedule_resume" {
				n.stored = map[bool]structs.TaskScheduleState{true: "", false: "scheduled_pause"}[in.Eval.Inside]
			}
			return out
		}
		if in.State == "schedule_resume" {
			n.settle(&out, in.Eval, in.Live)
			return out
		}
		n.stored, n.timer = in.State, time.Time{} // overrides suspend tracking
		n.follow(&out, in.Live)
	case KindArrive:
		if !n.arrived {
			n.arrived = true
			switch {
			case n.key == "", n.stored.Override():
				n.follow(&out, false)
			case in.Eval.Err != nil:
				n.fail(&out, in.Eval.Err, false)
			default:
				n.settle(&out, in.Eval, false)
			}
		}
		out.GateOpen = !n.paused && !n.done
	case KindBoundary:
		if !n.tracking() {
			return out // a stale timer
		}
		if in.Eval.Err != nil {
			n.fail(&out, in.Eval.Err, in.Live)
			return out
		}
		n.settle(&out, in.Eval, in.Live)
	case KindScheduleChange:
		old := n.key
		n.key = in.Schedule
		switch {
		case n.done || old == in.Schedule:
		case in.Schedule == "": // removing the schedule sets ""
			n.stored, n.timer = "", time.Time{}
			if n.arrived {
				n.follow(&out, in.Live)
			}
		case n.tracking(): // adding one starts tracking; a change re-evaluates
			if in.Eval.Err != nil {
				n.fail(&out, in.Eval.Err, in.Live)
			} else {
				n.settle(&out, in.Eval, in.Live)
			}
		}
	case KindRestore:
		if n.key != "" { // "" is the only state of an unscheduled task (PAUSE-1)
			n.stored, n.paused = in.State, in.State.Paused()
		}
		if in.Live {
			n.arrived = true
			switch {
			case n.key == "" || n.stored.Override():
			case in.Eval.Err != nil:
				n.fail(&out, in.Eval.Err, true)
				return out
			default:
				n.settle(&out, in.Eval, true)
			}
			if n.paused && !n.stopping {
				out.Stop, n.stopping = true, true
			}
		}
	case KindExited:
		out.PauseInduced, n.stopping = n.stopping, false
	case KindFinished:
		n.done, n.timer = true, time.Time{}
	}
	return out
}

// naiveModelOut renders the package's output the naive way.
func naiveModelOut(in Input, o Output) naiveOut {
	out := naiveOut{Stop: o.Stop, Failed: o.Failed != nil}
	for _, e := range o.Events {
		display := ""
		if e.Type == "Pausing" || e.Type == "Running" {
			display = e.DisplayMessage
		}
		out.Events = append(out.Events, naiveEvent(e.Type, display, e.Message))
	}
	if in.Kind == KindArrive {
		out.GateOpen = o.GateOpen
	}
	if in.Kind == KindExited {
		out.PauseInduced = o.PauseInduced
	}
	if o.Err != nil {
		out.Err = o.Err.Error()
	}
	return out
}

func (o naiveOut) String() string {
	return fmt.Sprintf("{events [%s] stop=%v gate=%v pauseInduced=%v failed=%v err=%q}",
		strings.Join(o.Events, "; "), o.Stop, o.GateOpen, o.PauseInduced, o.Failed, o.Err)
}

var errNaiveZone = errors.New("invalid timezone in schedule: unknown time zone Mars/Olympus")

// naiveEval draws an evaluation at now: inside with a window end (or
// none), outside with a next start (or none, SCHED-9), or an error.
func naiveEval(rt *rapid.T, now time.Time) Evaluation {
	switch rapid.IntRange(0, 9).Draw(rt, "eval") {
	case 0:
		return Evaluation{Err: errNaiveZone}
	case 1:
		return Evaluation{Inside: true} // never closes
	case 2:
		return Evaluation{} // outside, no future start
	case 3, 4, 5:
		return Evaluation{Inside: true, WindowEnd: now.Add(time.Duration(rapid.IntRange(1, 120).Draw(rt, "end")) * time.Minute),
			NextStart: now.Add(25 * time.Hour)}
	default:
		return Evaluation{NextStart: now.Add(time.Duration(rapid.IntRange(1, 120).Draw(rt, "next")) * time.Minute)}
	}
}

func naiveInputString(in Input) string {
	ev := "inside"
	switch {
	case in.Eval.Err != nil:
		ev = "error"
	case !in.Eval.Inside && in.Eval.NextStart.IsZero():
		ev = "outside, no future start"
	case !in.Eval.Inside:
		ev = "outside"
	case in.Eval.WindowEnd.IsZero():
		ev = "inside, never closes"
	}
	switch in.Kind {
	case KindRequest:
		return fmt.Sprintf("request(%q, %s, live=%v)", in.State, ev, in.Live)
	case KindArrive:
		return fmt.Sprintf("arrive(%s)", ev)
	case KindBoundary:
		return fmt.Sprintf("boundary(%s, live=%v)", ev, in.Live)
	case KindScheduleChange:
		return fmt.Sprintf("schedule(%q, %s, live=%v)", in.Schedule, ev, in.Live)
	case KindRestore:
		return fmt.Sprintf("restore(%q, %s, live=%v)", in.State, ev, in.Live)
	}
	return in.Kind.String()
}

// TestNaive_PAUSE_Machine steps Machine and the naive machine through
// generated task lives: an optional restore, requests, arrivals at the
// gate, tracking boundaries when a timer is armed (and stale ones),
// schedule changes, exits of the live task and the end of the loop.
func TestNaive_PAUSE_Machine(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		key := rapid.SampledFrom([]string{"", "k1", "k1", "k2"}).Draw(rt, "schedule")
		m := New("web", key)
		n := &naivePause{task: "web", key: key, noticed: map[string]bool{}}
		var modelTimer time.Time
		now := time.Date(2024, 3, 10, 1, 0, 0, 0, time.UTC)
		live := false // the generator's own view: a driver handle is up
		var trail []string

		apply := func(in Input) {
			next, o := m.Step(in)
			m = next
			got, want := naiveModelOut(in, o), n.step(in)
			if o.Timer.Set {
				modelTimer = o.Timer.At
			}
			trail = append(trail, fmt.Sprintf("  %s -> %s stored=%q paused=%v timer=%v", naiveInputString(in), want, n.stored, n.paused, n.timer.Format(time.TimeOnly)))
			if got.String() != want.String() || m.Stored() != n.stored || m.Paused() != n.paused || !modelTimer.Equal(n.timer) {
				rt.Fatalf("PAUSE (schedule %q) step %d %s:\n model: %s stored=%q paused=%v timer=%v\n naive: %s stored=%q paused=%v timer=%v\nsteps:\n%s",
					key, len(trail)-1, naiveInputString(in), got, m.Stored(), m.Paused(), modelTimer.Format(time.TimeOnly),
					want, n.stored, n.paused, n.timer.Format(time.TimeOnly), strings.Join(trail, "\n"))
			}
		}

		if rapid.IntRange(0, 3).Draw(rt, "restore") == 0 {
			live = rapid.Bool().Draw(rt, "restoredLive")
			state := rapid.SampledFrom([]structs.TaskScheduleState{"", "scheduled_pause", "force_run", "force_pause"}).Draw(rt, "restored")
			apply(OnRestore(state, naiveEval(rt, now), live))
		}
		for range rapid.IntRange(1, 25).Draw(rt, "inputs") {
			if n.done {
				// After the loop: requests are stored without effect.
				apply(OnRequest(rapid.SampledFrom([]structs.TaskScheduleState{"force_pause", "force_run", "schedule_resume"}).Draw(rt, "lateState"),
					naiveEval(rt, now), false))
				continue
			}
			now = now.Add(time.Duration(rapid.IntRange(0, 90).Draw(rt, "gap")) * time.Minute)
			switch rapid.IntRange(0, 8).Draw(rt, "input") {
			case 0, 1:
				states := []structs.TaskScheduleState{"force_pause", "force_run", "schedule_resume", "schedule_resume", "bogus"}
				apply(OnRequest(rapid.SampledFrom(states).Draw(rt, "state"), naiveEval(rt, now), live))
			case 2, 3:
				if !live {
					apply(OnArrive(naiveEval(rt, now)))
					live = n.arrived && !n.paused && !n.done // the gate opened: the task starts
				}
			case 4:
				if !n.timer.IsZero() || rapid.IntRange(0, 4).Draw(rt, "stale") == 0 {
					if !n.timer.IsZero() {
						now = n.timer
					}
					apply(OnBoundary(naiveEval(rt, now), live))
				}
			case 5:
				next := rapid.SampledFrom([]string{"", "k1", "k2", "k3"}).Draw(rt, "newSchedule")
				if next != n.key {
					apply(OnScheduleChange(next, naiveEval(rt, now), live))
				}
			case 6, 7:
				if live {
					apply(OnExited())
					live = false
				}
			case 8:
				if rapid.IntRange(0, 3).Draw(rt, "finish") == 0 {
					apply(OnFinished())
					live = false
				}
			}
		}
	})
}

// TestNaive_PAUSE4_Vectors pins PAUSE-4's event rules with sequences taken
// from the SPEC sentences, on model and naive alike.
func TestNaive_PAUSE4_Vectors(t *testing.T) {
	t0 := time.Date(2024, 3, 10, 1, 0, 0, 0, time.UTC)
	in := Evaluation{Inside: true, WindowEnd: t0.Add(time.Hour)}
	out := Evaluation{NextStart: t0.Add(time.Hour)}
	cases := []struct {
		name   string
		inputs []Input
		want   []string // events of all inputs, in order
	}{
		{"first arrival inside: no Running before the first Started", []Input{OnArrive(in)}, nil},
		{"first arrival outside: Pausing due to schedule", []Input{OnArrive(out)},
			[]string{naiveEvent("Pausing", "Pausing due to schedule", "")}},
		{"force_pause then scheduled_pause: one Pausing", []Input{OnArrive(in), OnRequest("force_pause", Evaluation{}, true), OnRequest("schedule_resume", out, false)},
			[]string{naiveEvent("Pausing", "Pausing due to override", "")}},
		{"force_run inside: nothing (force_run ↔ \"\")", []Input{OnArrive(in), OnRequest("force_run", Evaluation{}, true)}, nil},
		{"requests before the first arrival are silent", []Input{OnRequest("force_pause", Evaluation{}, false), OnArrive(in)},
			[]string{naiveEvent("Pausing", "Pausing due to override", "")}},
		{"override ends at a boundary? no: overrides suspend tracking", []Input{OnArrive(in), OnRequest("force_run", Evaluation{}, true), OnBoundary(out, true)}, nil},
		{"no future start: Pausing, then the SCHED-9 notice, once", []Input{OnArrive(Evaluation{}), OnRequest("schedule_resume", Evaluation{}, false)},
			[]string{naiveEvent("Pausing", "Pausing due to schedule", ""), naiveEvent("Task hook message", "", MsgNoFutureStart)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New("web", "k1")
			n := &naivePause{task: "web", key: "k1", noticed: map[string]bool{}}
			var got, nv []string
			for _, input := range c.inputs {
				var o Output
				m, o = m.Step(input)
				got = append(got, naiveModelOut(input, o).Events...)
				nv = append(nv, n.step(input).Events...)
			}
			if strings.Join(got, ";") != strings.Join(c.want, ";") || strings.Join(nv, ";") != strings.Join(c.want, ";") {
				t.Fatalf("events:\n model: %q\n naive: %q\n  want: %q", got, nv, c.want)
			}
		})
	}
}
