package restart

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/structs"
)

// run kinds drawn by the properties.
const (
	runFailed = iota
	runSuccess
	runStartErr
	runUnrecoverable
	runTriggered
	runPauseInduced
	runKinds
)

// TestProperty_AR7_PAUSE6 drives a tracker with random runs at increasing
// instants and checks, for every decision:
//   - PAUSE-6 / AR-7 (2): pause-induced and triggered runs restart at once
//     with no reason, leave count and interval alone and never fail;
//   - AR-7 (7) fail mode: no more than Attempts attempt-consuming restarts
//     within one interval;
//   - AR-7 (7) delay mode: an exhausted interval restarts exactly at its end;
//   - AR-7 (8): within-policy delays lie in [Delay, Delay*1.25) (1 ns for 0).
func TestProperty_AR7_PAUSE6(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		attempts := rapid.IntRange(1, 5).Draw(rt, "attempts")
		interval := time.Duration(rapid.IntRange(5, 120).Draw(rt, "intervalMin")) * time.Minute
		delay := time.Duration(rapid.IntRange(0, 60).Draw(rt, "delaySec")) * time.Second
		mode := rapid.SampledFrom([]string{structs.RestartPolicyModeFail, structs.RestartPolicyModeDelay}).Draw(rt, "mode")
		jobType := rapid.SampledFrom([]string{structs.JobTypeService, structs.JobTypeBatch}).Draw(rt, "jobType")
		tr := New(structs.NewRestartPolicy(attempts, interval, delay, mode), jobType, mainTask(), t0)

		now := t0
		restartsInWindow := map[time.Time]int{}
		n := rapid.IntRange(1, 60).Draw(rt, "runs")
		for i := range n {
			now = now.Add(time.Duration(rapid.Int64Range(0, int64(interval/3)).Draw(rt, "gap")))
			kind := rapid.IntRange(0, runKinds-1).Draw(rt, "kind")
			u := rapid.Float64Range(0, 0.9999999).Draw(rt, "u")
			countBefore, windowBefore := tr.Count(), tr.WindowStart()
			switch kind {
			case runFailed:
				tr.SetExitResult(ExitResult{ExitCode: 1})
			case runSuccess:
				tr.SetExitResult(ExitResult{})
			case runStartErr:
				tr.SetStartError(errBoom, true)
			case runUnrecoverable:
				tr.SetStartError(errBoom, false)
			case runTriggered:
				tr.SetRestartTriggered().SetExitResult(ExitResult{ExitCode: 1})
			case runPauseInduced:
				tr.SetPauseInduced().SetExitResult(ExitResult{ExitCode: 137, Signal: 9})
			}
			d := tr.GetState(now, func() float64 { return u })

			if kind == runTriggered || kind == runPauseInduced {
				if d != (Decision{State: Restarting}) {
					rt.Fatalf("run %d: PAUSE-6 free restart decided %+v", i, d)
				}
				if tr.Count() != countBefore || !tr.WindowStart().Equal(windowBefore) {
					rt.Fatalf("run %d: PAUSE-6 free restart moved count %d->%d window %v->%v",
						i, countBefore, tr.Count(), windowBefore, tr.WindowStart())
				}
				continue
			}
			if !d.ConsumesAttempt {
				rt.Fatalf("run %d: policy run did not consume an attempt: %+v", i, d)
			}
			if d.State == Restarting && d.Reason == ReasonWithinPolicy {
				restartsInWindow[tr.WindowStart()]++
				lo, hi := delay, delay+delay/4
				if delay == 0 {
					lo, hi = time.Nanosecond, time.Nanosecond+1
				}
				if d.Delay < lo || d.Delay >= hi {
					rt.Fatalf("run %d: AR-7(8) delay %v outside [%v,%v)", i, d.Delay, lo, hi)
				}
				if restartsInWindow[tr.WindowStart()] > attempts {
					rt.Fatalf("run %d: %d restarts within one interval, policy allows %d",
						i, restartsInWindow[tr.WindowStart()], attempts)
				}
			}
			if d.Reason == ReasonDelay {
				if mode != structs.RestartPolicyModeDelay {
					rt.Fatalf("run %d: delay reason in fail mode", i)
				}
				if !now.Add(d.Delay).Equal(tr.WindowStart().Add(interval)) && d.Delay != time.Nanosecond {
					rt.Fatalf("run %d: AR-7(7) delay-mode restart at %v, interval ends %v",
						i, now.Add(d.Delay), tr.WindowStart().Add(interval))
				}
			}
			if d.State == NotRestarting && kind != runUnrecoverable && mode == structs.RestartPolicyModeDelay {
				rt.Fatalf("run %d: delay mode failed a recoverable run: %+v", i, d)
			}
			if d.State == Terminated && (kind != runSuccess || jobType != structs.JobTypeBatch) {
				rt.Fatalf("run %d: Terminated for kind %d job %s", i, kind, jobType)
			}
		}
	})
}
