package mock

import (
	"context"
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/shoenig/test/must"
)

// TestWaitTaskContextCancel: a waiter whose context ends gets a closed
// channel without a result; other waiters still get the exit.
func TestWaitTaskContextCancel(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", map[string]any{"run_for": "5s", "exit_code": 7})
		ctx, cancel := context.WithCancel(t.Context())
		cancelled, err := h.d.WaitTask(ctx, "a/web")
		must.NoError(t, err)
		kept := h.wait(t, "a/web")
		cancel()
		h.advance(time.Second)
		r, ok := <-cancelled
		must.False(t, ok)
		must.Nil(t, r)
		pending(t, kept)
		h.advance(4 * time.Second)
		must.Eq(t, 7, result(t, kept).ExitCode)
	})
}

// TestWaitTaskCancelledBeforeCall: an already-ended context closes the
// channel without a result.
func TestWaitTaskCancelledBeforeCall(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", nil)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		ch, err := h.d.WaitTask(ctx, "a/web")
		must.NoError(t, err)
		_, ok := <-ch
		must.False(t, ok)
		h.d.Close()
	})
}

// TestWaitTaskResultsAreCopies: each waiter gets its own result.
func TestWaitTaskResultsAreCopies(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", map[string]any{"run_for": "1s", "exit_code": 2})
		a, b := h.wait(t, "a/web"), h.wait(t, "a/web")
		h.advance(time.Second)
		ra := result(t, a)
		ra.ExitCode = 99
		must.Eq(t, 2, result(t, b).ExitCode)
		must.Eq(t, 2, result(t, h.wait(t, "a/web")).ExitCode)
	})
}

func TestWaitTaskUnknown(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		_, err := h.d.WaitTask(t.Context(), "a/nope")
		must.ErrorIs(t, err, drivers.ErrTaskNotFound)
		must.EqError(t, err, `wait task "a/nope": task not found`)
	})
}

func TestDestroyTask(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		err := h.d.DestroyTask("a/nope", true)
		must.ErrorIs(t, err, drivers.ErrTaskNotFound)
		must.EqError(t, err, `destroy task "a/nope": task not found`)

		h.start(t, "a/web", nil)
		ch := h.wait(t, "a/web")
		err = h.d.DestroyTask("a/web", false)
		must.ErrorIs(t, err, drivers.ErrTaskRunning)
		must.EqError(t, err, `destroy task "a/web": task is still running`)
		pending(t, ch)

		must.NoError(t, h.d.DestroyTask("a/web", true))
		must.Eq(t, drivers.ExitResult{Signal: 9}, *result(t, ch))
		_, err = h.d.WaitTask(t.Context(), "a/web")
		must.ErrorIs(t, err, drivers.ErrTaskNotFound)

		// An exited task is forgotten without force; its timer is gone.
		h.start(t, "a/db", map[string]any{"run_for": "1s"})
		h.advance(time.Second)
		must.NoError(t, h.d.DestroyTask("a/db", false))
		must.Eq(t, 2, len(h.exits()))
	})
}

// TestDestroyStopsTimer: destroying a task with a planned exit leaves no
// armed timer behind (the planned exit never fires).
func TestDestroyStopsTimer(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", map[string]any{"run_for": "5s"})
		must.NoError(t, h.d.DestroyTask("a/web", true))
		h.advance(time.Minute)
		must.Eq(t, []traced{
			{At: 0, Op: OpStart, TaskID: "a/web", Detail: "ok"},
			{At: 0, Op: OpDestroy, TaskID: "a/web", Detail: "force=true"},
			{At: 0, Op: OpExit, TaskID: "a/web", Detail: "exit_code=0 signal=9"},
		}, h.trace())
	})
}

// TestClose: Close abandons tasks and unblocks every blocked call.
func TestClose(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", map[string]any{"run_for": "10s", "ignore_signals": "SIGINT"})
		ch := h.wait(t, "a/web")
		stopped := stopAsync(h.d, "a/web", time.Minute, "SIGINT")
		started := make(chan error, 1)
		go func() {
			_, err := h.d.StartTask(taskConfig("a/db", map[string]any{"start_block_for": "1m"}))
			started <- err
		}()
		h.advance(time.Second)
		h.d.Close()
		h.d.Close() // idempotent
		must.EqError(t, <-stopped, `stop task "a/web": mock driver closed`)
		must.EqError(t, <-started, `start task "a/db": mock driver closed`)
		_, ok := <-ch
		must.False(t, ok)
		h.advance(time.Hour)
		must.Eq(t, 0, len(h.exits()))

		_, err := h.d.WaitTask(t.Context(), "a/web")
		must.ErrorIs(t, err, ErrClosed)
		must.ErrorIs(t, h.d.SignalTask("a/web", "SIGINT"), ErrClosed)
		must.ErrorIs(t, h.d.DestroyTask("a/web", true), ErrClosed)
		must.ErrorIs(t, h.d.StopTask("a/web", 0, ""), ErrClosed)
	})
}

// TestCloseWithCancelledWaiter: a context ending after Close is harmless.
func TestCloseWithCancelledWaiter(t *testing.T) {
	bubble(t, func(t *testing.T) {
		h := newHarness(Config{})
		h.start(t, "a/web", nil)
		ctx, cancel := context.WithCancel(t.Context())
		ch, err := h.d.WaitTask(ctx, "a/web")
		must.NoError(t, err)
		h.d.Close()
		cancel()
		h.advance(time.Second)
		_, ok := <-ch
		must.False(t, ok)
	})
}
