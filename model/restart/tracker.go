package restart

import (
	"fmt"
	"math"
	"time"

	"github.com/allocsim/allocsim/model/structs"
)

// ExitResult is how a task run ended (AR-7): the driver's exit code and
// signal, and the error it reported, if any.
type ExitResult struct {
	ExitCode int
	Signal   int
	Err      error
}

// Successful reports a clean exit: code 0, signal 0, no error (AR-7).
func (r ExitResult) Successful() bool { return r.ExitCode == 0 && r.Signal == 0 && r.Err == nil }

// RestartOnSuccess reports whether a task that exited successfully is
// restarted anyway (AR-7): true except for batch and sysbatch jobs;
// prestart and poststart tasks only if they are sidecars; poststop tasks
// never.
func RestartOnSuccess(jobType string, task *structs.Task) bool {
	if jobType == structs.JobTypeBatch || jobType == structs.JobTypeSysBatch {
		return false
	}
	if task == nil {
		return true
	}
	switch {
	case task.IsPoststop():
		return false
	case task.IsPrestart(), task.IsPoststart():
		return task.IsSidecar()
	default:
		return true
	}
}

// FailReason is AR-7's fail-mode reason for a policy.
func FailReason(attempts int, interval time.Duration) string {
	return fmt.Sprintf(ReasonExceededFailFormat, attempts, interval)
}

// Tracker is one task's restart tracker (AR-7). Build it with New; the
// zero value is a tracker whose policy allows no restarts.
//
// It is a plain value: no clock, no randomness, no goroutines. Set the
// inputs of the run that just ended, then call GetState.
type Tracker struct {
	attempts  int
	interval  time.Duration
	delay     time.Duration
	delayMode bool
	onSuccess bool

	count       int
	windowStart time.Time

	// Per-run inputs, cleared by GetState.
	exit         *ExitResult
	startErr     error
	recoverable  bool
	triggered    bool
	pauseInduced bool

	killed bool
}

// New returns the tracker of a task of a job of type jobType under policy
// (absent fields take the job type's defaults, DATA-3). created is the
// instant the tracker is built: the first policy interval starts there.
func New(policy *structs.RestartPolicy, jobType string, task *structs.Task, created time.Time) *Tracker {
	p := policy.WithDefaults(jobType)
	return &Tracker{
		attempts:    p.GetAttempts(),
		interval:    p.GetInterval(),
		delay:       p.GetDelay(),
		delayMode:   p.GetMode() == structs.RestartPolicyModeDelay,
		onSuccess:   RestartOnSuccess(jobType, task),
		windowStart: created,
	}
}

// SetExitResult records how the run ended.
func (t *Tracker) SetExitResult(r ExitResult) *Tracker {
	t.exit = &r
	return t
}

// SetStartError records that the run failed to start; a nil err is
// ignored. An unrecoverable error ends the task (AR-7 (5)).
func (t *Tracker) SetStartError(err error, recoverable bool) *Tracker {
	if err == nil {
		return t
	}
	t.startErr, t.recoverable = err, recoverable
	return t
}

// SetRestartTriggered records an operator restart (Restart Signaled,
// AR-1): it restarts at once without using an attempt (AR-7 (2)).
func (t *Tracker) SetRestartTriggered() *Tracker {
	t.triggered = true
	return t
}

// SetPauseInduced records that the run ended by a pause stop (PAUSE-5): it
// restarts at once, uses no attempt, leaves the interval alone and never
// fails the task, whatever the exit (PAUSE-6, AR-7 (2)).
func (t *Tracker) SetPauseInduced() *Tracker {
	t.pauseInduced = true
	return t
}

// SetKilled records that the task is being killed; every later decision is
// Killed (AR-7 (1)).
func (t *Tracker) SetKilled() *Tracker {
	t.killed = true
	return t
}

// Count is the number of attempts used in the current policy interval.
func (t *Tracker) Count() int { return t.count }

// WindowStart is the start of the current policy interval.
func (t *Tracker) WindowStart() time.Time { return t.windowStart }

// Killed reports whether SetKilled was called.
func (t *Tracker) Killed() bool { return t.killed }

// GetState is AR-7's decision for the run whose inputs were set, at instant
// now. draw returns a uniform float64 in [0,1); it is called exactly once,
// and only for a within-policy restart (AR-7 (8)); nil draws 0. Values
// outside [0,1) are clamped. GetState clears the per-run inputs.
func (t *Tracker) GetState(now time.Time, draw func() float64) Decision {
	defer t.clearRun()

	// (1) A kill wins over everything.
	if t.killed {
		return Decision{State: Killed}
	}
	// (2) Triggered and pause-induced restarts: no attempt, no interval
	// change, never a failure (PAUSE-6).
	if t.triggered || t.pauseInduced {
		return Decision{State: Restarting}
	}
	successNoRestart := t.startErr == nil && t.exit != nil && t.exit.Successful() && !t.onSuccess
	// (3) A policy that allows no restarts.
	if t.attempts == 0 {
		if successNoRestart {
			return Decision{State: Terminated, Reason: ReasonNoRestartsAllowed}
		}
		return Decision{State: NotRestarting, Reason: ReasonNoRestartsAllowed}
	}
	// (4) Roll the interval over, then use an attempt.
	if now.After(t.windowStart.Add(t.interval)) {
		t.count = 0
		t.windowStart = now
	}
	t.count++
	// (5) Unrecoverable start errors end the task.
	if t.startErr != nil && !t.recoverable {
		return Decision{State: NotRestarting, Reason: ReasonUnrecoverableError, ConsumesAttempt: true}
	}
	// (6) A successful exit that need not restart.
	if successNoRestart {
		return Decision{State: Terminated, Reason: ReasonSuccessfulTermination, ConsumesAttempt: true}
	}
	// (7) Attempts exhausted in this interval.
	if t.count > t.attempts {
		if !t.delayMode {
			return Decision{State: NotRestarting, Reason: FailReason(t.attempts, t.interval), ConsumesAttempt: true}
		}
		return Decision{State: Restarting, Delay: atLeastOne(t.windowStart.Add(t.interval).Sub(now)),
			Reason: ReasonDelay, ConsumesAttempt: true}
	}
	// (8) Within policy: Delay plus jitter.
	return Decision{State: Restarting, Delay: t.jitteredDelay(draw), Reason: ReasonWithinPolicy, ConsumesAttempt: true}
}

// JitterFraction is the share of the policy Delay that the random part of a
// within-policy restart delay can add (AR-7 (8)).
const JitterFraction = 0.25

// jitteredDelay is Delay + uniform[0,Delay) * 0.25, with a zero Delay
// read as 1 ns (AR-7 (8)).
func (t *Tracker) jitteredDelay(draw func() float64) time.Duration {
	u := 0.0
	if draw != nil {
		u = draw()
	}
	d := t.delay
	if d <= 0 {
		d = time.Nanosecond
	}
	if math.IsNaN(u) || u < 0 {
		u = 0
	}
	j := int64(u * float64(d)) // uniform[0, d)
	if j >= int64(d) {
		j = int64(d) - 1
	}
	return d + time.Duration(float64(j)*JitterFraction)
}

// atLeastOne keeps a restart delay positive: the delay-mode wait can reach
// zero when a run ends exactly at the interval's end, and a zero delay
// would decide again at the same instant without rolling the interval.
func atLeastOne(d time.Duration) time.Duration {
	if d < time.Nanosecond {
		return time.Nanosecond
	}
	return d
}

func (t *Tracker) clearRun() {
	t.exit, t.startErr, t.recoverable = nil, nil, false
	t.triggered, t.pauseInduced = false, false
}
