package mock

import (
	"errors"
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/shoenig/test/must"
)

// TestRecoverKeepsExitInstant: a new driver instance recovering the handle
// after a client restart (STATE-4) keeps the task running until the
// instant it would have exited anyway.
func TestRecoverKeepsExitInstant(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.advance(time.Minute)
		handle := h.start(t, "a/web", map[string]any{"run_for": "30s", "exit_code": 5,
			"exit_on_signals": []any{"SIGINT"}, "kill_after": "2s"})
		h.advance(10 * time.Second)

		d := h.restart(Config{})
		must.NoError(t, d.RecoverTask(handle.Copy()))
		ch := h.wait(t, "a/web")
		h.advance(20*time.Second - time.Nanosecond)
		pending(t, ch)
		h.advance(time.Nanosecond)
		must.Eq(t, drivers.ExitResult{ExitCode: 5}, *result(t, ch))
		must.Eq(t, []traced{{At: 90 * time.Second, Op: OpExit, TaskID: "a/web", Detail: "exit_code=5 signal=0"}}, h.exits())
	})
}

// TestRecoverThenStop: StopTask works on a recovered task with its config.
func TestRecoverThenStop(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		handle := h.start(t, "a/web", map[string]any{"exit_on_signals": []any{"SIGINT"}, "kill_after": "2s"})
		h.advance(time.Hour)
		d := h.restart(Config{})
		must.NoError(t, d.RecoverTask(handle))
		ch := h.wait(t, "a/web")
		stopped := stopAsync(d, "a/web", 5*time.Second, "SIGINT")
		h.advance(2 * time.Second)
		must.NoError(t, <-stopped)
		must.Eq(t, drivers.ExitResult{}, *result(t, ch))
		must.Eq(t, time.Hour+2*time.Second, h.exits()[0].At)
	})
}

// TestRecoverAfterExitInstant: a task whose exit instant passed while the
// client was down exits at recovery with its configured result.
func TestRecoverAfterExitInstant(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		handle := h.start(t, "a/web", map[string]any{"run_for": "10s", "exit_code": 1, "exit_err_msg": "bad"})
		h.d.Close() // the client crashed before the exit
		h.advance(time.Minute)
		d := h.restart(Config{})
		must.NoError(t, d.RecoverTask(handle))
		r := result(t, h.wait(t, "a/web"))
		must.Eq(t, 1, r.ExitCode)
		must.EqError(t, r.Err, "bad")
		must.Eq(t, []traced{
			{At: 0, Op: OpStart, TaskID: "a/web", Detail: "ok"},
			{At: time.Minute, Op: OpRecover, TaskID: "a/web", Detail: "ok"},
			{At: time.Minute, Op: OpExit, TaskID: "a/web", Detail: `exit_code=1 signal=0 err="bad"`},
			{At: time.Minute, Op: OpWait, TaskID: "a/web", Detail: "ok"},
		}, h.trace())
	})
}

func TestRecoverAlreadyTracked(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		handle := h.start(t, "a/web", map[string]any{"run_for": "10s"})
		ch := h.wait(t, "a/web")
		must.NoError(t, h.d.RecoverTask(handle))
		h.advance(10 * time.Second)
		must.True(t, result(t, ch).Successful())
		must.Eq(t, 1, len(h.exits()))
		must.Eq(t, traced{Op: OpRecover, TaskID: "a/web", Detail: "already_tracked"}, h.trace()[2])
	})
}

func TestRecoverBadHandles(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		good := h.start(t, "a/web", nil)
		h.d.Close()
		d := h.restart(Config{})

		mutate := func(f func(*drivers.TaskHandle)) *drivers.TaskHandle {
			c := good.Copy()
			f(c)
			return c
		}
		cases := []struct {
			name   string
			handle *drivers.TaskHandle
			want   string
		}{
			{"nil", nil, "nil task handle"},
			{"other driver", mutate(func(c *drivers.TaskHandle) { c.Driver = "docker" }),
				`recover task "a/web": handle of driver "docker", want "mock_driver"`},
			{"version", mutate(func(c *drivers.TaskHandle) { c.Version = 2 }),
				`recover task "a/web": unsupported handle version 2, want 1`},
			{"garbled", mutate(func(c *drivers.TaskHandle) { c.DriverState = []byte("{not json") }),
				`recover task "a/web": decode driver state: invalid character 'n' looking for beginning of object key string`},
			{"empty state", mutate(func(c *drivers.TaskHandle) { c.DriverState = nil }),
				`recover task "a/web": decode driver state: unexpected end of JSON input`},
			{"no task", mutate(func(c *drivers.TaskHandle) { c.DriverState = []byte(`{"State":"running"}`) }),
				`recover task "a/web": driver state is for task ""`},
			{"other task", mutate(func(c *drivers.TaskHandle) { c.TaskID = "a/db" }),
				`recover task "a/db": driver state is for task "a/web"`},
			{"not running", mutate(func(c *drivers.TaskHandle) {
				c.DriverState = []byte(`{"Task":{"ID":"a/web"},"State":"exited"}`)
			}), `recover task "a/web": driver state "exited", want "running"`},
		}
		for _, tc := range cases {
			must.EqError(t, d.RecoverTask(tc.handle), tc.want, must.Sprint(tc.name))
		}
		_, err := d.WaitTask(t.Context(), "a/web")
		must.ErrorIs(t, err, drivers.ErrTaskNotFound)
		d.Close()
		must.ErrorIs(t, d.RecoverTask(good), ErrClosed)
	})
}

// scriptedFaults injects fixed faults.
type scriptedFaults struct {
	start   StartFault
	recover error
	seen    []string
}

func (f *scriptedFaults) StartTask(cfg *drivers.TaskConfig) StartFault {
	f.seen = append(f.seen, "start "+cfg.ID)
	return f.start
}

func (f *scriptedFaults) RecoverTask(h *drivers.TaskHandle) error {
	f.seen = append(f.seen, "recover "+h.TaskID)
	return f.recover
}

func (f *scriptedFaults) StopTask(id string, timeout time.Duration, signal string) StopFault {
	f.seen = append(f.seen, "stop "+id+" "+timeout.String()+" "+signal)
	return StopFault{}
}

func TestFaults(t *testing.T) {
	t.Run("start delay adds to start_block_for", func(t *testing.T) {
		bubble(t, func(t *testing.T) {
			h := newHarness(Config{Faults: &scriptedFaults{start: StartFault{Delay: 3 * time.Second}}})
			done := make(chan error, 1)
			go func() {
				_, err := h.d.StartTask(taskConfig("a/web", map[string]any{"start_block_for": "2s"}))
				done <- err
			}()
			h.advance(5*time.Second - time.Nanosecond)
			mustBlock(t, done)
			h.advance(time.Nanosecond)
			must.NoError(t, <-done)
			h.d.Close()
		})
	})
	t.Run("start error wins over start_error", func(t *testing.T) {
		bubble(t, func(t *testing.T) {
			injected := drivers.NewRecoverableError(errors.New("injected"), true)
			h := newHarness(Config{Faults: &scriptedFaults{start: StartFault{Err: injected}}})
			_, err := h.d.StartTask(taskConfig("a/web", map[string]any{"start_error": "configured"}))
			must.EqError(t, err, "injected")
			must.True(t, drivers.IsRecoverable(err))
		})
	})
	t.Run("faults are not consulted for a bad config", func(t *testing.T) {
		bubble(t, func(t *testing.T) {
			f := &scriptedFaults{}
			h := newHarness(Config{Faults: f})
			_, err := h.d.StartTask(taskConfig("a/web", map[string]any{"run_for": "x"}))
			must.Error(t, err)
			must.SliceEmpty(t, f.seen)
		})
	})
	t.Run("planned exit replaces run_for and survives recovery", func(t *testing.T) {
		bubble(t, func(t *testing.T) {
			f := &scriptedFaults{start: StartFault{Exit: &PlannedExit{After: 4 * time.Second,
				Result: drivers.ExitResult{ExitCode: 137, OOMKilled: true, Err: errors.New("oom")}}}}
			h := newHarness(Config{Faults: f})
			handle := h.start(t, "a/web", map[string]any{"run_for": "1h"})
			h.advance(time.Second)
			d := h.restart(Config{Faults: f})
			must.NoError(t, d.RecoverTask(handle))
			ch := h.wait(t, "a/web")
			h.advance(3 * time.Second)
			r := result(t, ch)
			must.Eq(t, 137, r.ExitCode)
			must.True(t, r.OOMKilled)
			must.EqError(t, r.Err, "oom")
			must.Eq(t, []traced{{At: 4 * time.Second, Op: OpExit, TaskID: "a/web",
				Detail: `exit_code=137 signal=0 oom_killed=true err="oom"`}}, h.exits())
			must.Eq(t, []string{"start a/web", "recover a/web"}, f.seen)
		})
	})
	t.Run("planned exit due at start exits at once", func(t *testing.T) {
		bubble(t, func(t *testing.T) {
			h := newHarness(Config{Faults: &scriptedFaults{start: StartFault{Exit: &PlannedExit{
				Result: drivers.ExitResult{ExitCode: 2}}}}})
			h.start(t, "a/web", nil)
			must.Eq(t, 2, result(t, h.wait(t, "a/web")).ExitCode)
		})
	})
	t.Run("recover error", func(t *testing.T) {
		bubble(t, func(t *testing.T) {
			f := &scriptedFaults{}
			h := newHarness(Config{Faults: f})
			handle := h.start(t, "a/web", nil)
			f.recover = errors.New("process gone")
			d := h.restart(Config{Faults: f})
			must.EqError(t, d.RecoverTask(handle), `recover task "a/web": process gone`)
			must.Eq(t, traced{Op: OpRecover, TaskID: "a/web",
				Detail: `error="process gone"`}, h.trace()[1])
			d.Close()
		})
	})
	t.Run("stop is consulted with the defaulted signal", func(t *testing.T) {
		bubble(t, func(t *testing.T) {
			f := &scriptedFaults{}
			h := newHarness(Config{Faults: f})
			h.start(t, "a/web", nil)
			must.NoError(t, h.d.StopTask("a/web", 5*time.Second, ""))
			must.Eq(t, []string{"start a/web", "stop a/web 5s SIGINT"}, f.seen)
		})
	})
}
