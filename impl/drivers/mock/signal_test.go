package mock

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/shoenig/test/must"
)

// TestSignalTask: what a signal does to a running task (PAUSE-11: what
// follows is the normal exit path).
func TestSignalTask(t *testing.T) {
	cases := []struct {
		name   string
		config map[string]any
		signal string
		wantAt time.Duration
		want   *drivers.ExitResult // nil: the task keeps running
	}{
		{name: "trapped: clean exit at kill_after",
			config: map[string]any{"exit_on_signals": []any{"SIGHUP"}, "kill_after": "2s"},
			signal: "SIGHUP", wantAt: 2 * time.Second, want: &drivers.ExitResult{}},
		{name: "untrapped terminating: killed by it at kill_after",
			config: map[string]any{"kill_after": "1s"},
			signal: "SIGUSR1", wantAt: time.Second, want: &drivers.ExitResult{Signal: 10}},
		{name: "untrapped, no kill_after: at once",
			config: map[string]any{}, signal: "SIGTERM", want: &drivers.ExitResult{Signal: 15}},
		{name: "ignored: keeps running",
			config: map[string]any{"ignore_signals": []any{"SIGUSR1"}}, signal: "SIGUSR1"},
		{name: "not terminating by default: keeps running",
			config: map[string]any{}, signal: "SIGCHLD"},
		{name: "SIGKILL: at once even with kill_after",
			config: map[string]any{"kill_after": "1s"}, signal: "SIGKILL", want: &drivers.ExitResult{Signal: 9}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				h := newHarness(Config{})
				h.start(t, "a/web", tc.config)
				ch := h.wait(t, "a/web")
				must.NoError(t, h.d.SignalTask("a/web", tc.signal))
				if tc.want == nil {
					h.advance(time.Hour)
					pending(t, ch)
					h.d.Close()
					return
				}
				if tc.wantAt > 0 {
					h.advance(tc.wantAt - time.Nanosecond)
					pending(t, ch)
					h.advance(time.Nanosecond)
				}
				must.Eq(t, *tc.want, *result(t, ch))
				must.Eq(t, tc.wantAt, h.exits()[0].At)
			})
		})
	}
}

func TestSignalTaskErrors(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		err := h.d.SignalTask("a/nope", "SIGHUP")
		must.ErrorIs(t, err, drivers.ErrTaskNotFound)
		must.EqError(t, err, `signal task "a/nope": task not found`)

		h.start(t, "a/web", map[string]any{"signal_error": "signals disabled", "kill_after": "1s"})
		ch := h.wait(t, "a/web")
		err = h.d.SignalTask("a/web", "SIGTERM")
		must.EqError(t, err, "signals disabled")
		err = h.d.SignalTask("a/web", "SIGWHAT")
		must.EqError(t, err, `signal task "a/web": unknown signal "SIGWHAT"`)
		h.advance(time.Hour)
		pending(t, ch) // the failed signal did nothing

		h.start(t, "a/db", map[string]any{"run_for": "1s"})
		h.advance(time.Second)
		err = h.d.SignalTask("a/db", "SIGTERM")
		must.ErrorIs(t, err, drivers.ErrTaskExited)
		must.EqError(t, err, `signal task "a/db": task has exited`)
		h.d.Close()
	})
}
