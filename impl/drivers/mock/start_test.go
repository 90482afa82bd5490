package mock

import (
	"errors"
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

// TestRunForExitsAtTheInstant: a task with run_for exits by itself exactly
// run_for after its start, with the configured result (AR-6 wait for exit).
func TestRunForExitsAtTheInstant(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.advance(time.Minute) // start away from the epoch
		h.start(t, "a/web", map[string]any{
			"run_for": "10s", "exit_code": 3.0, "exit_signal": "SIGSEGV", "exit_err_msg": "crashed",
		})
		ch := h.wait(t, "a/web")
		h.advance(10*time.Second - time.Nanosecond)
		pending(t, ch)
		h.advance(time.Nanosecond)
		r := result(t, ch)
		must.Eq(t, 3, r.ExitCode)
		must.Eq(t, 11, r.Signal)
		must.EqError(t, r.Err, "crashed")
		must.False(t, r.Successful())
		must.Eq(t, []traced{{At: 70 * time.Second, Op: OpExit, TaskID: "a/web",
			Detail: `exit_code=3 signal=11 err="crashed"`}}, h.exits())
	})
}

// TestRunForZeroRunsUntilStopped: without run_for the task never exits by
// itself.
func TestRunForZeroRunsUntilStopped(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", map[string]any{"run_for": 0})
		ch := h.wait(t, "a/web")
		h.advance(24 * time.Hour)
		pending(t, ch)
		must.NoError(t, h.d.StopTask("a/web", time.Second, "SIGTERM"))
		r := result(t, ch)
		must.Eq(t, 15, r.Signal)
	})
}

func TestStartErrorRecoverable(t *testing.T) {
	for _, recoverable := range []bool{true, false} {
		t.Run(map[bool]string{true: "recoverable", false: "unrecoverable"}[recoverable], func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				h := newHarness(Config{})
				_, err := h.d.StartTask(taskConfig("a/web", map[string]any{
					"start_error": "image not found", "start_error_recoverable": recoverable,
				}))
				must.EqError(t, err, "image not found")
				must.Eq(t, recoverable, drivers.IsRecoverable(err))
				_, err = h.d.WaitTask(t.Context(), "a/web")
				must.ErrorIs(t, err, drivers.ErrTaskNotFound)
				must.Eq(t, traced{Op: OpStart, TaskID: "a/web",
					Detail: `error="image not found" recoverable=` + map[bool]string{true: "true", false: "false"}[recoverable]},
					h.trace()[0])
			})
		})
	}
}

func TestStartBadConfigNamesKey(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		_, err := h.d.StartTask(taskConfig("a/web", map[string]any{"kill_after": "soon"}))
		must.EqError(t, err, `start task "a/web": invalid mock driver config key "kill_after": invalid duration "soon"`)
		must.False(t, drivers.IsRecoverable(err))
		must.Eq(t, 1, len(h.trace()))

		_, err = h.d.StartTask(nil)
		must.EqError(t, err, "task config has no ID")
		_, err = h.d.StartTask(&drivers.TaskConfig{})
		must.EqError(t, err, "task config has no ID")

		_, err = h.d.StartTask(taskConfig("a/web", map[string]any{"x": func() {}}))
		must.ErrorContains(t, err, `start task "a/web": encode driver state: json: unsupported type`)
	})
}

// TestStartBlockFor: StartTask returns start_block_for later on the clock,
// and the task's run_for counts from there.
func TestStartBlockFor(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		done := make(chan error, 1)
		go func() {
			_, err := h.d.StartTask(taskConfig("a/web", map[string]any{"start_block_for": "5s", "run_for": "1s"}))
			done <- err
		}()
		h.advance(5*time.Second - time.Nanosecond)
		select {
		case err := <-done:
			t.Fatalf("StartTask returned early: %v", err)
		default:
		}
		h.advance(time.Nanosecond)
		must.NoError(t, <-done)
		must.Eq(t, 5*time.Second, h.trace()[0].At)
		ch := h.wait(t, "a/web")
		h.advance(time.Second)
		must.True(t, result(t, ch).Successful())
		must.Eq(t, 6*time.Second, h.exits()[0].At)
	})
}

func TestStartDuplicateAndRestart(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", map[string]any{"run_for": "1s"})
		_, err := h.d.StartTask(taskConfig("a/web", nil))
		must.ErrorIs(t, err, drivers.ErrTaskExists)
		must.EqError(t, err, `start task "a/web": task already started`)

		h.advance(time.Second)
		// An exited task of the same ID is replaced (a restart).
		h.start(t, "a/web", map[string]any{"run_for": "2s", "exit_code": 1})
		ch := h.wait(t, "a/web")
		h.advance(2 * time.Second)
		must.Eq(t, 1, result(t, ch).ExitCode)
	})
}

func TestStartHandle(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{Name: "docker"})
		h.advance(3 * time.Second)
		handle := h.start(t, "a/web", map[string]any{"run_for": "10s", "exit_code": 2})
		must.Eq(t, 1, handle.Version)
		must.Eq(t, "docker", handle.Driver)
		must.Eq(t, "a/web", handle.TaskID)
		st, err := decodeHandle("docker", handle)
		must.NoError(t, err)
		want := &driverState{
			Task:      taskConfig("a/web", map[string]any{"run_for": "10s", "exit_code": 2.0}),
			Spec:      taskSpec{RunFor: 10 * time.Second, ExitCode: 2},
			StartedAt: h.clk.Now().UnixNano(),
			State:     "running",
			Exit:      &exitPlan{After: 10 * time.Second, Result: exitRecord{ExitCode: 2}},
		}
		want.Task.Driver = DefaultName
		if diff := cmp.Diff(want, st); diff != "" {
			t.Fatalf("driver state mismatch (-want +got):\n%s", diff)
		}
		must.Eq(t, "docker", h.d.Name())
		must.Eq(t, &drivers.Capabilities{SendSignals: true, FSIsolation: drivers.FSIsolationNone}, h.d.Capabilities())
	})
}

// TestStartDoesNotAliasConfig: mutating the caller's config after start
// changes nothing.
func TestStartDoesNotAliasConfig(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		cfg := taskConfig("a/web", map[string]any{"run_for": "1s"})
		handle, err := h.d.StartTask(cfg)
		must.NoError(t, err)
		cfg.Config["run_for"] = "1h"
		st, err := decodeHandle(DefaultName, handle)
		must.NoError(t, err)
		must.Eq(t, "1s", st.Task.Config["run_for"].(string))
	})
}

func TestNewDefaults(t *testing.T) {
	must.Panic(t, func() { New(Config{}) }, must.Sprint("a nil clock is a wiring mistake"))
	clk := clock.NewMock()
	d := New(Config{Clock: clk})
	must.Eq(t, DefaultName, d.Name())
	must.Eq[clock.Clock](t, clk, d.clock)
	d.Close()
	_, err := d.StartTask(taskConfig("a/web", nil))
	must.ErrorIs(t, err, ErrClosed)
	must.EqError(t, errors.Unwrap(err), "mock driver closed")
}
