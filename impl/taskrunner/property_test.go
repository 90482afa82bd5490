package taskrunner

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"pgregory.net/rapid"
)

// pauseOp is one step of a pause scenario: advance the clock by Minutes,
// or (Minutes 0) request Request.
type pauseOp struct {
	Minutes int
	Request structs.TaskScheduleState
}

func (o pauseOp) String() string {
	if o.Minutes > 0 {
		return fmt.Sprintf("advance %dm", o.Minutes)
	}
	return "set " + string(o.Request)
}

var pauseOpGen = rapid.Custom(func(t *rapid.T) pauseOp {
	switch rapid.IntRange(0, 3).Draw(t, "kind") {
	case 0:
		return pauseOp{Minutes: rapid.IntRange(1, 3*24*60).Draw(t, "minutes")}
	case 1:
		return pauseOp{Request: structs.TaskScheduleStateForcePause}
	case 2:
		return pauseOp{Request: structs.TaskScheduleStateForceRun}
	default:
		return pauseOp{Request: structs.TaskScheduleStateScheduleResume}
	}
})

// TestPropertyPauseFollowsSchedule: under any sequence of clock advances
// and pause requests on a weekday 09:00-17:00 task, once settled
// (PAUSE-2..6):
//
//  1. the stored state is the last override, or the schedule's verdict
//     at now while tracking;
//  2. a paused task is pending with no live driver run, an unpaused one
//     is running;
//  3. the newest Pausing/Running event matches the effective state;
//  4. the task never fails, although its policy allows no restarts.
func TestPropertyPauseFollowsSchedule(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ops := rapid.SliceOfN(pauseOpGen, 1, 20).Draw(rt, "ops")
		var violation string
		synctest.Test(t, func(t *testing.T) { violation = runPauseScenario(t, ops) })
		if violation != "" {
			rt.Fatal(violation)
		}
	})
}

// runPauseScenario plays ops and returns the first violation, if any.
func runPauseScenario(t *testing.T, ops []pauseOp) string {
	h := scheduledHarness(t, "0 9 * * MON-FRI *", "0 17")
	tr := h.start()
	defer func() {
		tr.Shutdown()
		h.driver.Close()
	}()
	sched := tr.Task().Schedule
	var override structs.TaskScheduleState // "" while tracking
	for i, op := range ops {
		if op.Minutes > 0 {
			h.advance(time.Duration(op.Minutes) * time.Minute)
		} else {
			if err := tr.SetPauseState(op.Request); err != nil {
				return fmt.Sprintf("op %d %v: %v", i, op, err)
			}
			override = op.Request
			if override == structs.TaskScheduleStateScheduleResume {
				override = ""
			}
			synctest.Wait()
		}
		if v := checkPause(h, tr, sched, override); v != "" {
			return fmt.Sprintf("after op %d (%v): %s", i, op, v)
		}
	}
	return ""
}

func checkPause(h *harness, tr *TaskRunner, sched *schedule.Schedule, override structs.TaskScheduleState) string {
	now := h.clk.Now()
	want := override
	if want == "" {
		res, err := schedule.Evaluate(sched, now, nil)
		if err != nil {
			return fmt.Sprintf("Evaluate: %v", err)
		}
		want = structs.TaskScheduleStateSchedulePause
		if res.Inside {
			want = structs.TaskScheduleStateRun
		}
	}
	ts := tr.TaskState()
	if got := tr.GetPauseState(); got != want || ts.Paused != want {
		return fmt.Sprintf("@%v: stored %q (task state %q), want %q", now, got, ts.Paused, want)
	}
	paused := want.Paused()
	wantState := structs.TaskStateRunning
	if paused {
		wantState = structs.TaskStatePending
	}
	if live := tr.liveRun() != nil; ts.State != wantState || live == paused {
		return fmt.Sprintf("@%v: paused=%v but state %q, live run %v; events %v", now, paused, ts.State, live, types(ts))
	}
	for i := len(ts.Events) - 1; i >= 0; i-- {
		if typ := ts.Events[i].Type; typ == structs.TaskPausing || typ == structs.TaskRunning {
			if (typ == structs.TaskPausing) != paused {
				return fmt.Sprintf("@%v: newest pause event %q, paused=%v", now, typ, paused)
			}
			break
		}
	}
	if ts.Failed {
		return fmt.Sprintf("@%v: task failed: %v", now, types(ts))
	}
	return ""
}
