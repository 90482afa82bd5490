package pause

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/structs"
)

func genEvaluation(rt *rapid.T) Evaluation {
	switch rapid.IntRange(0, 9).Draw(rt, "eval") {
	case 0:
		return Evaluation{Err: errors.New("syntax error in hour field: '25'")}
	case 1:
		return noFuture
	case 2:
		return Evaluation{Inside: true}
	case 3, 4, 5:
		return inside(time.Duration(rapid.IntRange(1, 48).Draw(rt, "end")) * time.Hour)
	default:
		return outside(time.Duration(rapid.IntRange(1, 48).Draw(rt, "next")) * time.Hour)
	}
}

func genInput(rt *rapid.T) Input {
	ev := genEvaluation(rt)
	live := rapid.Bool().Draw(rt, "live")
	switch rapid.IntRange(0, 12).Draw(rt, "kind") {
	case 0, 1, 2, 3:
		s := rapid.SampledFrom([]structs.TaskScheduleState{fPause, fRun, resume, resume, sched, "bogus"}).Draw(rt, "request")
		return OnRequest(s, ev, live)
	case 4, 5:
		return OnArrive(ev)
	case 6, 7, 8:
		return OnBoundary(ev, live)
	case 9:
		return OnScheduleChange(rapid.SampledFrom([]string{"", keyA, keyB}).Draw(rt, "key"), ev, live)
	case 10:
		return OnExited()
	case 11:
		if rapid.IntRange(0, 3).Draw(rt, "restore") == 0 {
			s := rapid.SampledFrom([]structs.TaskScheduleState{run, sched, fRun, fPause, resume}).Draw(rt, "restored")
			return OnRestore(s, ev, live)
		}
		return OnArrive(ev)
	default:
		if rapid.IntRange(0, 4).Draw(rt, "finish") == 0 {
			return OnFinished()
		}
		return OnExited()
	}
}

// TestProperty_PAUSE4_EventsFollowEffectiveState drives the machine with
// any sequence of inputs and checks after every step:
//   - PAUSE-4: Pausing and Running alternate, each crossing the paused
//     line from the side the effective state was on, and the effective
//     state equals the stored state's side once the gate was reached;
//     no Pausing/Running before the first arrival (PAUSE-3);
//   - PAUSE-1: schedule_resume is never stored; unscheduled tasks store "";
//   - PAUSE-5: Stop only for a live handle, PauseInduced only after a
//     Stop; GateOpen only when not paused;
//   - PAUSE-2: a rejected request changes nothing;
//   - PAUSE-9: Failed comes with exactly one Task hook failed event;
//   - SCHED-9: the notice comes at most once per schedule, only when
//     scheduled_pause, after any Pausing of the same step;
//   - PAUSE-3: a timer is armed only while tracking.
func TestProperty_PAUSE4_EventsFollowEffectiveState(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		key := rapid.SampledFrom([]string{"", keyA, keyB}).Draw(rt, "initialKey")
		m := New("web", key)
		effective := false
		stopInFlight := false
		noticed := map[string]bool{}
		n := rapid.IntRange(1, 80).Draw(rt, "steps")
		for i := range n {
			in := genInput(rt)
			prev := m
			var out Output
			m, out = m.Step(in)

			if in.Kind == KindRestore {
				seed := in.State
				if prev.Schedule() == "" || seed == resume {
					seed = run
				}
				effective, stopInFlight = seed.Paused(), false
			}
			if out.Err != nil {
				if in.Kind != KindRequest {
					rt.Fatalf("step %d: Err on %s", i, in.Kind)
				}
				if diff := cmp.Diff(prev, m, cmp.AllowUnexported(Machine{})); diff != "" {
					rt.Fatalf("step %d: PAUSE-2 rejected request changed the machine:\n%s", i, diff)
				}
			}
			for j, ev := range out.Events {
				switch ev.Type {
				case structs.TaskPausing:
					if effective {
						rt.Fatalf("step %d: Pausing while already paused", i)
					}
					if !prev.Arrived() && in.Kind != KindRestore && in.Kind != KindArrive {
						rt.Fatalf("step %d: PAUSE-3 Pausing before the first arrival", i)
					}
					effective = true
				case structs.TaskRunning:
					if !effective {
						rt.Fatalf("step %d: Running while not paused", i)
					}
					effective = false
				case structs.TaskHookMessage:
					if ev.Message != MsgNoFutureStart || noticed[m.Schedule()] || m.Stored() != sched {
						rt.Fatalf("step %d: SCHED-9 notice %q for %q (noticed %v, stored %q)", i, ev.Message, m.Schedule(), noticed, m.Stored())
					}
					if j != len(out.Events)-1 {
						rt.Fatalf("step %d: SCHED-9 notice before another event", i)
					}
					noticed[m.Schedule()] = true
				case structs.TaskHookFailed:
					if out.Failed == nil || len(out.Events) != 1 || ev.Message != "pause: "+in.Eval.Err.Error() {
						rt.Fatalf("step %d: PAUSE-9 event %+v with Failed %v", i, out.Events, out.Failed)
					}
				default:
					rt.Fatalf("step %d: unexpected event %q", i, ev.Type)
				}
			}
			if out.Failed != nil && !m.Done() {
				rt.Fatalf("step %d: PAUSE-9 failure left the machine running", i)
			}
			if m.Paused() != effective {
				rt.Fatalf("step %d: effective paused %v but events say %v", i, m.Paused(), effective)
			}
			if m.Stored() == resume {
				rt.Fatalf("step %d: PAUSE-1 schedule_resume stored", i)
			}
			if m.Schedule() == "" && m.Stored() != run {
				rt.Fatalf("step %d: unscheduled task stored %q", i, m.Stored())
			}
			if m.Arrived() && !m.Done() && m.Paused() != m.Stored().Paused() {
				rt.Fatalf("step %d: PAUSE-4 effective %v diverges from stored %q", i, m.Paused(), m.Stored())
			}
			if out.Stop && !in.Live {
				rt.Fatalf("step %d: PAUSE-5 Stop without a live handle", i)
			}
			if out.Stop && out.Failed == nil {
				if stopInFlight {
					rt.Fatalf("step %d: second pause stop while one is in flight", i)
				}
				stopInFlight = true
			}
			if out.Failed != nil || in.Kind == KindFinished {
				stopInFlight = false
			}
			if in.Kind == KindExited {
				if out.PauseInduced != stopInFlight {
					rt.Fatalf("step %d: PauseInduced = %v, pause stop in flight %v", i, out.PauseInduced, stopInFlight)
				}
				stopInFlight = false
			}
			if out.GateOpen && m.Paused() {
				rt.Fatalf("step %d: gate open while paused", i)
			}
			if !out.Timer.At.IsZero() && !out.Tracking {
				rt.Fatalf("step %d: PAUSE-3 timer armed without tracking", i)
			}
			if out.Tracking != m.Tracking() || out.GateOpen != m.GateOpen() {
				rt.Fatalf("step %d: output flags disagree with the machine", i)
			}
			if slices.ContainsFunc(out.Events, func(e Event) bool { return e.Type == structs.TaskHookMessage }) && m.Stored().Override() {
				rt.Fatalf("step %d: SCHED-9 notice under an override", i)
			}
		}
	})
}
