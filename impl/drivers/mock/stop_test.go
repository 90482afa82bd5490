package mock

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/shoenig/test/must"
)

// TestStopTask: StopTask's outcome and instant per configuration (AR-6
// kill path, PAUSE-5 pause stop: signal, force kill after the timeout).
func TestStopTask(t *testing.T) {
	cases := []struct {
		name    string
		config  map[string]any
		hang    bool
		signal  string
		timeout time.Duration
		wantAt  time.Duration // after the StopTask call
		want    drivers.ExitResult
	}{
		{name: "trapped, kill_after < timeout: clean exit at kill_after",
			config: map[string]any{"exit_on_signals": []any{"SIGINT", "SIGTERM"}, "kill_after": "2s"},
			signal: "SIGINT", timeout: 5 * time.Second, wantAt: 2 * time.Second, want: drivers.ExitResult{}},
		{name: "trapped, kill_after = timeout: clean exit wins the tie",
			config: map[string]any{"exit_on_signals": []any{"SIGTERM"}, "kill_after": "5s"},
			signal: "SIGTERM", timeout: 5 * time.Second, wantAt: 5 * time.Second, want: drivers.ExitResult{}},
		{name: "trapped, kill_after > timeout: force kill at timeout",
			config: map[string]any{"exit_on_signals": []any{"SIGINT"}, "kill_after": "6s"},
			signal: "SIGINT", timeout: 5 * time.Second, wantAt: 5 * time.Second, want: drivers.ExitResult{Signal: 9}},
		{name: "untrapped: killed by the signal at kill_after",
			config: map[string]any{"exit_on_signals": []any{"SIGTERM"}, "kill_after": "1s"},
			signal: "SIGINT", timeout: 5 * time.Second, wantAt: time.Second, want: drivers.ExitResult{Signal: 2}},
		{name: "untrapped, no kill_after: killed at once",
			config: map[string]any{}, signal: "SIGTERM", timeout: 5 * time.Second, want: drivers.ExitResult{Signal: 15}},
		{name: "untrapped, kill_after > timeout: force kill at timeout",
			config: map[string]any{"kill_after": "10s"},
			signal: "SIGQUIT", timeout: 3 * time.Second, wantAt: 3 * time.Second, want: drivers.ExitResult{Signal: 9}},
		{name: "default signal is SIGINT",
			config: map[string]any{"exit_on_signals": []any{"SIGINT"}, "kill_after": "1s"},
			signal: "", timeout: 5 * time.Second, wantAt: time.Second, want: drivers.ExitResult{}},
		{name: "ignored: force kill at timeout",
			config: map[string]any{"ignore_signals": []any{"SIGINT"}},
			signal: "SIGINT", timeout: 4 * time.Second, wantAt: 4 * time.Second, want: drivers.ExitResult{Signal: 9}},
		{name: "not terminating by default: force kill at timeout",
			config: map[string]any{}, signal: "SIGWINCH", timeout: 4 * time.Second,
			wantAt: 4 * time.Second, want: drivers.ExitResult{Signal: 9}},
		{name: "SIGKILL: dies at once",
			config: map[string]any{"kill_after": "3s"}, signal: "SIGKILL", timeout: 5 * time.Second,
			want: drivers.ExitResult{Signal: 9}},
		{name: "hang fault: force kill at timeout",
			config: map[string]any{"exit_on_signals": []any{"SIGINT"}, "kill_after": "1s"}, hang: true,
			signal: "SIGINT", timeout: 5 * time.Second, wantAt: 5 * time.Second, want: drivers.ExitResult{Signal: 9}},
		{name: "zero timeout: force kill at once",
			config: map[string]any{"kill_after": "1s"}, signal: "SIGINT", timeout: 0,
			want: drivers.ExitResult{Signal: 9}},
		{name: "natural exit before the stop plan wins",
			config: map[string]any{"run_for": "12s", "exit_code": 4, "kill_after": "10s"},
			signal: "SIGINT", timeout: 5 * time.Second, wantAt: 2 * time.Second, want: drivers.ExitResult{ExitCode: 4}},
		{name: "natural exit at the stop plan's instant wins the tie",
			config: map[string]any{"run_for": "11s", "exit_code": 4, "exit_on_signals": []any{"SIGINT"}, "kill_after": "1s"},
			signal: "SIGINT", timeout: 5 * time.Second, wantAt: time.Second, want: drivers.ExitResult{ExitCode: 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				h := newHarness(Config{Faults: hangFaults{hang: tc.hang}})
				h.start(t, "a/web", tc.config)
				ch := h.wait(t, "a/web")
				h.advance(10 * time.Second)
				stopped := stopAsync(h.d, "a/web", tc.timeout, tc.signal)
				if tc.wantAt > 0 {
					h.advance(tc.wantAt - time.Nanosecond)
					pending(t, ch)
					mustBlock(t, stopped)
					h.advance(time.Nanosecond)
				}
				synctest.Wait()
				must.NoError(t, <-stopped)
				got := result(t, ch)
				must.Eq(t, tc.want, *got)
				exits := h.exits()
				must.Eq(t, 1, len(exits))
				must.Eq(t, 10*time.Second+tc.wantAt, exits[0].At)
			})
		})
	}
}

// hangFaults makes every stop hang when hang is set.
type hangFaults struct {
	NoFaults
	hang bool
	err  error
}

func (f hangFaults) StopTask(string, time.Duration, string) StopFault {
	return StopFault{Hang: f.hang, Err: f.err}
}

func stopAsync(d *Driver, id string, timeout time.Duration, signal string) <-chan error {
	done := make(chan error, 1)
	go func() { done <- d.StopTask(id, timeout, signal) }()
	return done
}

func mustBlock(t *testing.T, ch <-chan error) {
	t.Helper()
	select {
	case err := <-ch:
		t.Fatalf("call returned early: %v", err)
	default:
	}
}

func TestStopTaskAlreadyExited(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", map[string]any{"run_for": "1s", "exit_code": 1})
		h.advance(time.Second)
		must.NoError(t, h.d.StopTask("a/web", time.Minute, "SIGINT"))
		ch := h.wait(t, "a/web")
		must.Eq(t, 1, result(t, ch).ExitCode)
		must.Eq(t, 1, len(h.exits()))
	})
}

func TestStopTaskErrors(t *testing.T) {
	bubble(t, func(t *testing.T) {
		faults := &hangFaults{}
		h := newHarness(Config{Faults: faults})
		err := h.d.StopTask("a/nope", time.Second, "SIGINT")
		must.ErrorIs(t, err, drivers.ErrTaskNotFound)
		must.EqError(t, err, `stop task "a/nope": task not found`)

		h.start(t, "a/web", nil)
		err = h.d.StopTask("a/web", time.Second, "SIGNOPE")
		must.EqError(t, err, `stop task "a/web": unknown signal "SIGNOPE"`)

		// An injected stop failure sends no signal (AR-6 retries the stop).
		h2 := newHarness(Config{Faults: hangFaults{err: errors.New("rpc timeout")}})
		h2.start(t, "a/web", nil)
		err = h2.d.StopTask("a/web", time.Second, "SIGINT")
		must.EqError(t, err, `stop task "a/web": rpc timeout`)
		ch := h2.wait(t, "a/web")
		h2.advance(time.Hour)
		pending(t, ch)
		must.Eq(t, traced{Op: OpStop, TaskID: "a/web",
			Detail: `signal=SIGINT timeout=1s error="stop task \"a/web\": rpc timeout"`}, h2.trace()[1])
		h.d.Close()
		h2.d.Close()
	})
}

// TestStopAfterSignalKeepsEarlierPlan: a stop whose exit would come later
// than one a signal already planned does not postpone it.
func TestStopAfterSignalKeepsEarlierPlan(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", map[string]any{"exit_on_signals": []any{"SIGTERM"}, "kill_after": "4s"})
		ch := h.wait(t, "a/web")
		must.NoError(t, h.d.SignalTask("a/web", "SIGTERM")) // exits cleanly at 4s
		h.advance(time.Second)
		stopped := stopAsync(h.d, "a/web", 10*time.Second, "SIGINT") // would die of SIGINT at 5s
		h.advance(3 * time.Second)
		must.NoError(t, <-stopped)
		must.Eq(t, drivers.ExitResult{}, *result(t, ch))
		must.Eq(t, 4*time.Second, h.exits()[0].At)
	})
}

// TestConcurrentStops: two stoppers both return at the exit.
func TestConcurrentStops(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", map[string]any{"ignore_signals": []any{"SIGINT"}})
		s1 := stopAsync(h.d, "a/web", 5*time.Second, "SIGINT")
		h.advance(time.Second)
		s2 := stopAsync(h.d, "a/web", 2*time.Second, "SIGINT")
		h.advance(2 * time.Second)
		must.NoError(t, <-s1)
		must.NoError(t, <-s2)
		must.Eq(t, 3*time.Second, h.exits()[0].At)
	})
}
