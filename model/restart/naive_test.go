package restart

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/structs"
)

// This file is a deliberately naive second implementation of AR-7 (with
// DATA-3's policy defaults), written from SPEC.md's text alone, and the
// property test that drives the Tracker and it side by side. It shares
// nothing with the package: its own defaults, its own restart-on-success
// rule, its own reasons (typed from the SPEC), its own jitter arithmetic.
//
// Readings of SPEC text the naive code had to choose:
//   - "uniform[0,Delay)" is the injected draw u in [0,1) times Delay, in
//     whole nanoseconds (truncated, at most Delay−1 ns), then ×0.25
//     (truncated): Delay + floor(floor(u·Delay)·0.25);
//   - "Delay 0 → 1 ns": a zero Delay restarts after exactly 1 ns;
//   - "at the interval's end" (delay mode): after windowStart + Interval −
//     now, but never after 0: a decision made exactly at the end waits
//     1 ns (as "Delay 0 → 1 ns" does, and DESIGN's "never arm zero
//     durations"; at delay 0 a task failing at once would be decided again
//     at the same instant, still inside the window, forever). The SPEC
//     text alone says 0 there;
//   - "Restart-on-success: true except batch/sysbatch; prestart/poststart
//     tasks only if sidecar; poststop never" is read literally, each clause
//     a further condition: a batch job's prestart sidecar does not restart
//     after a successful exit. Nomad's restart tracker reads it as a
//     cascade (the lifecycle clauses override the job type, so that
//     sidecar restarts); TestNaive_AR7_RestartOnSuccessVectors pins the
//     literal reading, which is the package's.

// naivePolicy is a complete restart policy.
type naivePolicy struct {
	attempts        int
	interval, delay time.Duration
	mode            string
}

// naiveDefaults is DATA-3: "absent fields default by job type:
// service/system 2, 30m, 15s, fail; batch/sysbatch 3, 24h, 15s, fail".
func naiveDefaults(p *structs.RestartPolicy, jobType string) naivePolicy {
	d := naivePolicy{2, 30 * time.Minute, 15 * time.Second, "fail"}
	if jobType == "batch" || jobType == "sysbatch" {
		d = naivePolicy{3, 24 * time.Hour, 15 * time.Second, "fail"}
	}
	if p == nil {
		return d
	}
	if p.Attempts != nil {
		d.attempts = *p.Attempts
	}
	if p.Interval != nil {
		d.interval = *p.Interval
	}
	if p.Delay != nil {
		d.delay = *p.Delay
	}
	if p.Mode != nil {
		d.mode = *p.Mode
	}
	return d
}

// naiveRestartOnSuccess is AR-7's restart-on-success, clause by clause.
func naiveRestartOnSuccess(jobType string, t *structs.Task) bool {
	hook, sidecar := "", false
	if t.Lifecycle != nil {
		hook, sidecar = t.Lifecycle.Hook, t.Lifecycle.Sidecar
	}
	notBatch := jobType != "batch" && jobType != "sysbatch"
	sidecarIfHooked := (hook != "prestart" && hook != "poststart") || sidecar
	return notBatch && sidecarIfHooked && hook != "poststop"
}

// naiveRun is what ended one run.
type naiveRun struct {
	kind        string // exit, start-error, triggered, pause, kill
	code, sig   int
	exitErr     bool
	recoverable bool
}

func (r naiveRun) String() string {
	switch r.kind {
	case "exit", "triggered", "pause":
		return fmt.Sprintf("%s(code %d, signal %d, err %v)", r.kind, r.code, r.sig, r.exitErr)
	case "start-error":
		return fmt.Sprintf("start-error(recoverable %v)", r.recoverable)
	}
	return r.kind
}

// naiveDecision is one decision as the runner sees it.
type naiveDecision struct {
	State    string
	Delay    time.Duration
	Reason   string
	Consumes bool
}

// naiveTracker is AR-7's tracker.
type naiveTracker struct {
	p                naivePolicy
	restartOnSuccess bool
	count            int
	windowStart      time.Time
	killed           bool
}

// decide is AR-7's precedence list, one numbered step per branch.
func (n *naiveTracker) decide(now time.Time, r naiveRun, u float64) naiveDecision {
	if r.kind == "kill" {
		n.killed = true
	}
	successful := r.kind == "exit" && r.code == 0 && r.sig == 0 && !r.exitErr
	// (1) killed → Killed
	if n.killed {
		return naiveDecision{State: "Killed"}
	}
	// (2) triggered restart or pause-induced exit → Restarting, delay 0,
	// empty reason, no attempt
	if r.kind == "triggered" || r.kind == "pause" {
		return naiveDecision{State: "Restarting"}
	}
	// (3) Attempts 0 → Terminated if a successful exit without
	// restart-on-success, else Not Restarting
	if n.p.attempts == 0 {
		if successful && !n.restartOnSuccess {
			return naiveDecision{State: "Terminated"}
		}
		return naiveDecision{State: "Not Restarting", Reason: "Policy allows no restarts"}
	}
	// (4) if now > window start + Interval, reset count and window
	// start; count++
	if now.After(n.windowStart.Add(n.p.interval)) {
		n.count, n.windowStart = 0, now
	}
	n.count++
	// (5) unrecoverable start error → Not Restarting
	if r.kind == "start-error" && !r.recoverable {
		return naiveDecision{State: "Not Restarting", Reason: "Error was unrecoverable", Consumes: true}
	}
	// (6) successful exit without restart-on-success → Terminated
	if successful && !n.restartOnSuccess {
		return naiveDecision{State: "Terminated", Consumes: true}
	}
	// (7) count > Attempts → fail: Not Restarting; delay: Restarting at
	// the interval's end
	if n.count > n.p.attempts {
		if n.p.mode == "fail" {
			reason := fmt.Sprintf(`Exceeded allowed attempts %d in interval %s and mode is "fail"`, n.p.attempts, n.p.interval)
			return naiveDecision{State: "Not Restarting", Reason: reason, Consumes: true}
		}
		return naiveDecision{State: "Restarting", Delay: max(n.windowStart.Add(n.p.interval).Sub(now), time.Nanosecond),
			Reason: "Exceeded allowed attempts, applying a delay", Consumes: true}
	}
	// (8) Restarting after Delay + uniform[0,Delay)×0.25 (Delay 0 → 1 ns)
	d := n.p.delay
	if d == 0 {
		d = time.Nanosecond
	} else {
		uniform := int64(u * float64(d))
		if uniform >= int64(d) { // [0,Delay) excludes Delay; u·Delay rounds up to it just below 1
			uniform = int64(d) - 1
		}
		d += time.Duration(int64(float64(uniform) * 0.25))
	}
	return naiveDecision{State: "Restarting", Delay: d, Reason: "Restart within policy", Consumes: true}
}

// naiveComparable drops what AR-7 does not make observable: the reason
// of a decision that appends no event of its own (Terminated, Killed).
func naiveComparable(d naiveDecision) naiveDecision {
	if d.State == "Terminated" || d.State == "Killed" {
		d.Reason = ""
	}
	return d
}

var errNaiveStart = errors.New("naive: driver says no")

// TestNaive_AR7_Tracker drives Tracker and the naive tracker with the
// same generated policy, task and runs, and compares every decision and
// the attempt count after it.
func TestNaive_AR7_Tracker(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		jobType := rapid.SampledFrom([]string{"service", "batch", "system", "sysbatch"}).Draw(rt, "jobType")
		policy := &structs.RestartPolicy{}
		if rapid.IntRange(0, 3).Draw(rt, "absentAttempts") > 0 {
			policy.Attempts = new(rapid.IntRange(0, 4).Draw(rt, "attempts"))
		}
		if rapid.IntRange(0, 3).Draw(rt, "absentInterval") > 0 {
			policy.Interval = new(time.Duration(rapid.IntRange(5, 600).Draw(rt, "intervalSec")) * time.Second)
		}
		if rapid.IntRange(0, 3).Draw(rt, "absentDelay") > 0 {
			policy.Delay = new(time.Duration(rapid.Int64Range(0, int64(90*time.Second)).Draw(rt, "delayNs")))
		}
		if rapid.IntRange(0, 3).Draw(rt, "absentMode") > 0 {
			policy.Mode = new(rapid.SampledFrom([]string{"fail", "delay"}).Draw(rt, "mode"))
		}
		if rapid.IntRange(0, 9).Draw(rt, "nilPolicy") == 0 {
			policy = nil
		}
		task := &structs.Task{Name: "web"}
		if hook := rapid.SampledFrom([]string{"", "", "prestart", "poststart", "poststop"}).Draw(rt, "hook"); hook != "" {
			task.Lifecycle = &structs.TaskLifecycle{Hook: hook, Sidecar: hook != "poststop" && rapid.Bool().Draw(rt, "sidecar")}
		}
		created := time.Date(2024, 3, 10, 6, 0, 0, 0, time.UTC)

		tr := New(policy, jobType, task, created)
		naive := &naiveTracker{p: naiveDefaults(policy, jobType), restartOnSuccess: naiveRestartOnSuccess(jobType, task), windowStart: created}
		if got, want := RestartOnSuccess(jobType, task), naive.restartOnSuccess; got != want {
			rt.Fatalf("AR-7 RestartOnSuccess(%s, hook %+v):\n model: %v\n naive: %v", jobType, task.Lifecycle, got, want)
		}

		now := created
		var history []string
		for i := range rapid.IntRange(1, 30).Draw(rt, "runs") {
			gap := rapid.SampledFrom([]time.Duration{0, time.Nanosecond, time.Second, time.Minute, 5 * time.Minute, time.Hour, 25 * time.Hour}).Draw(rt, "gapUnit")
			now = now.Add(gap * time.Duration(rapid.IntRange(0, 3).Draw(rt, "gapMul")))
			if rapid.IntRange(0, 5).Draw(rt, "atWindowEnd") == 0 {
				now = naive.windowStart.Add(naive.p.interval) // the boundary itself
			}
			r := naiveRun{kind: rapid.SampledFrom([]string{"exit", "exit", "exit", "start-error", "triggered", "pause", "kill"}).Draw(rt, "kind")}
			switch r.kind {
			case "exit", "triggered", "pause":
				r.code = rapid.SampledFrom([]int{0, 0, 1, 137}).Draw(rt, "code")
				r.sig = rapid.SampledFrom([]int{0, 0, 9, 15}).Draw(rt, "signal")
				r.exitErr = rapid.IntRange(0, 4).Draw(rt, "exitErr") == 0
				var err error
				if r.exitErr {
					err = errNaiveStart
				}
				if r.kind == "triggered" {
					tr.SetRestartTriggered()
				}
				if r.kind == "pause" {
					tr.SetPauseInduced()
				}
				tr.SetExitResult(ExitResult{ExitCode: r.code, Signal: r.sig, Err: err})
			case "start-error":
				r.recoverable = rapid.Bool().Draw(rt, "recoverable")
				tr.SetStartError(errNaiveStart, r.recoverable)
			case "kill":
				tr.SetKilled()
			}
			u := rapid.Float64Range(0, 1).Draw(rt, "u")
			if u == 1 {
				u = 0.9999999999
			}
			draws := 0
			d := tr.GetState(now, func() float64 { draws++; return u })
			got := naiveComparable(naiveDecision{State: string(d.State), Delay: d.Delay, Reason: d.Reason, Consumes: d.ConsumesAttempt})
			want := naiveComparable(naive.decide(now, r, u))
			history = append(history, fmt.Sprintf("  %d @%v %s u=%v -> %+v", i, now.Sub(created), r, u, want))
			if got != want || tr.Count() != naive.count {
				rt.Fatalf("AR-7 decision %d:\n model: %+v count %d\n naive: %+v count %d\npolicy %+v job %s restartOnSuccess %v\nruns:\n%s",
					i, got, tr.Count(), want, naive.count, naive.p, jobType, naive.restartOnSuccess, strings.Join(history, "\n"))
			}
			if wantDraws := map[bool]int{true: 1, false: 0}[want.Reason == "Restart within policy"]; draws > wantDraws {
				rt.Fatalf("AR-7 decision %d drew %d times, want at most %d (the jitter is the only random part)", i, draws, wantDraws)
			}
		}
	})
}

// TestNaive_AR7_Vectors pins AR-7's precedence with vectors from the SPEC
// text, on model and naive alike.
func TestNaive_AR7_Vectors(t *testing.T) {
	created := time.Date(2024, 3, 10, 6, 0, 0, 0, time.UTC)
	mainTask := &structs.Task{Name: "web"}
	type step struct {
		after time.Duration
		run   naiveRun
		want  naiveDecision
	}
	exit1 := naiveRun{kind: "exit", code: 1}
	cases := []struct {
		name    string
		policy  *structs.RestartPolicy
		jobType string
		steps   []step
	}{
		{"(1) killed wins over a triggered restart", structs.NewRestartPolicy(2, time.Minute, time.Second, "fail"), "service",
			[]step{{0, naiveRun{kind: "kill"}, naiveDecision{State: "Killed"}}, {0, naiveRun{kind: "triggered"}, naiveDecision{State: "Killed"}}}},
		{"(2) pause-induced uses no attempt even with Attempts 0", structs.NewRestartPolicy(0, time.Minute, time.Second, "fail"), "service",
			[]step{{0, naiveRun{kind: "pause", code: 1}, naiveDecision{State: "Restarting"}}}},
		{"(3) Attempts 0: a failure is Not Restarting", structs.NewRestartPolicy(0, time.Minute, time.Second, "fail"), "service",
			[]step{{0, exit1, naiveDecision{State: "Not Restarting", Reason: "Policy allows no restarts"}}}},
		{"(3) Attempts 0: batch success is Terminated", structs.NewRestartPolicy(0, time.Minute, time.Second, "fail"), "batch",
			[]step{{0, naiveRun{kind: "exit"}, naiveDecision{State: "Terminated"}}}},
		{"(5) unrecoverable before the attempt check", structs.NewRestartPolicy(1, time.Minute, time.Second, "fail"), "service",
			[]step{{0, naiveRun{kind: "start-error"}, naiveDecision{State: "Not Restarting", Reason: "Error was unrecoverable", Consumes: true}}}},
		{"(7) fail mode", structs.NewRestartPolicy(1, time.Minute, 0, "fail"), "service",
			[]step{{0, exit1, naiveDecision{"Restarting", time.Nanosecond, "Restart within policy", true}},
				{time.Second, exit1, naiveDecision{"Not Restarting", 0, `Exceeded allowed attempts 1 in interval 1m0s and mode is "fail"`, true}}}},
		{"(7) delay mode waits for the interval's end", structs.NewRestartPolicy(1, time.Minute, 0, "delay"), "service",
			[]step{{0, exit1, naiveDecision{"Restarting", time.Nanosecond, "Restart within policy", true}},
				{20 * time.Second, exit1, naiveDecision{"Restarting", 40 * time.Second, "Exceeded allowed attempts, applying a delay", true}}}},
		{"(4) at the interval's end the window has not passed yet", structs.NewRestartPolicy(1, time.Minute, 0, "fail"), "service",
			[]step{{0, exit1, naiveDecision{"Restarting", time.Nanosecond, "Restart within policy", true}},
				{time.Minute, exit1, naiveDecision{"Not Restarting", 0, `Exceeded allowed attempts 1 in interval 1m0s and mode is "fail"`, true}}}},
		{"(4) after it, count resets", structs.NewRestartPolicy(1, time.Minute, 0, "fail"), "service",
			[]step{{0, exit1, naiveDecision{"Restarting", time.Nanosecond, "Restart within policy", true}},
				{time.Minute + 1, exit1, naiveDecision{"Restarting", time.Nanosecond, "Restart within policy", true}}}},
		{"(8) jitter: 15s + 0.5·15s·0.25", nil, "service",
			[]step{{0, exit1, naiveDecision{"Restarting", 15*time.Second + 1875*time.Millisecond, "Restart within policy", true}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := New(c.policy, c.jobType, mainTask, created)
			naive := &naiveTracker{p: naiveDefaults(c.policy, c.jobType), restartOnSuccess: naiveRestartOnSuccess(c.jobType, mainTask), windowStart: created}
			now := created
			for i, s := range c.steps {
				now = now.Add(s.after)
				switch s.run.kind {
				case "exit":
					tr.SetExitResult(ExitResult{ExitCode: s.run.code})
				case "start-error":
					tr.SetStartError(errNaiveStart, s.run.recoverable)
				case "triggered":
					tr.SetRestartTriggered().SetExitResult(ExitResult{ExitCode: 1})
				case "pause":
					tr.SetPauseInduced().SetExitResult(ExitResult{ExitCode: 1})
				case "kill":
					tr.SetKilled()
				}
				d := tr.GetState(now, func() float64 { return 0.5 })
				got := naiveComparable(naiveDecision{string(d.State), d.Delay, d.Reason, d.ConsumesAttempt})
				nv := naiveComparable(naive.decide(now, s.run, 0.5))
				if got != s.want || nv != s.want {
					t.Fatalf("step %d %s:\n model: %+v\n naive: %+v\n  want: %+v", i, s.run, got, nv, s.want)
				}
			}
		})
	}
}

// TestNaive_AR7_RestartOnSuccessVectors pins restart-on-success with the
// SPEC's clauses. The batch sidecars are where the SPEC sentence is
// ambiguous: read literally (here, and in the package) they do not
// restart after a successful exit; Nomad's tracker restarts them.
func TestNaive_AR7_RestartOnSuccessVectors(t *testing.T) {
	lc := func(hook string, sidecar bool) *structs.Task {
		return &structs.Task{Name: "t", Lifecycle: &structs.TaskLifecycle{Hook: hook, Sidecar: sidecar}}
	}
	cases := []struct {
		jobType string
		task    *structs.Task
		want    bool
	}{
		{"service", &structs.Task{Name: "t"}, true},
		{"system", &structs.Task{Name: "t"}, true},
		{"batch", &structs.Task{Name: "t"}, false},
		{"sysbatch", &structs.Task{Name: "t"}, false},
		{"service", lc("prestart", false), false},
		{"service", lc("prestart", true), true},
		{"service", lc("poststart", false), false},
		{"service", lc("poststart", true), true},
		{"service", lc("poststop", false), false},
		{"batch", lc("prestart", true), false},     // Nomad: true
		{"sysbatch", lc("poststart", true), false}, // Nomad: true
	}
	for _, c := range cases {
		got, nv := RestartOnSuccess(c.jobType, c.task), naiveRestartOnSuccess(c.jobType, c.task)
		if got != c.want || nv != c.want {
			t.Errorf("RestartOnSuccess(%s, %+v):\n model: %v\n naive: %v\n  want: %v", c.jobType, c.task.Lifecycle, got, nv, c.want)
		}
	}
}
