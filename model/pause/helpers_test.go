package pause

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/allocsim/allocsim/model/structs"
)

var t0 = time.Date(2024, 3, 10, 1, 0, 0, 0, time.UTC)

const (
	keyA = `cron:"0 9 * * * *" "0 17" "UTC"`
	keyB = `cron:"0 8 * * * *" "0 12" "UTC"`
)

var errBoom = errors.New("invalid timezone in schedule: unknown time zone Mars/Olympus")

// Evaluations.
func inside(end time.Duration) Evaluation {
	return Evaluation{Inside: true, WindowEnd: t0.Add(end), NextStart: t0.Add(end + time.Hour)}
}
func outside(next time.Duration) Evaluation {
	return Evaluation{NextStart: t0.Add(next)}
}

var (
	noFuture = Evaluation{}
	failing  = Evaluation{Err: errBoom}
)

// State shorthands.
const (
	run    = structs.TaskScheduleStateRun
	sched  = structs.TaskScheduleStateSchedulePause
	fRun   = structs.TaskScheduleStateForceRun
	fPause = structs.TaskScheduleStateForcePause
	resume = structs.TaskScheduleStateScheduleResume
)

// Timer actions.
func armAt(d time.Duration) TimerAction { return TimerAction{Set: true, At: t0.Add(d)} }

var cancelTimer = TimerAction{Set: true}

// step is one input and the complete output and stored state it must give.
type step struct {
	in         Input
	want       Output
	wantStored structs.TaskScheduleState
}

var cmpErrors = cmp.Comparer(func(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
})

// runSteps replays steps on m and compares every output in full.
func runSteps(t *testing.T, m Machine, steps []step) Machine {
	t.Helper()
	for i, s := range steps {
		var got Output
		m, got = m.Step(s.in)
		if diff := cmp.Diff(s.want, got, cmpErrors); diff != "" {
			t.Fatalf("step %d (%s): output mismatch (-want +got):\n%s", i, s.in.Kind, diff)
		}
		if m.Stored() != s.wantStored {
			t.Fatalf("step %d (%s): stored = %q, want %q", i, s.in.Kind, m.Stored(), s.wantStored)
		}
	}
	return m
}

// Events.
var (
	pausingSchedule = []Event{eventPausingSchedule}
	pausingOverride = []Event{eventPausingOverride}
	runningSchedule = []Event{eventRunningSchedule}
	runningOverride = []Event{eventRunningOverride}
)
