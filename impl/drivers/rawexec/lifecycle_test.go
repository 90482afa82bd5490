//go:build linux

package rawexec

import (
	"context"
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// TestDestroyTask: a running task is refused without force; with force
// it is killed (signal 9, delivered to waiters) and forgotten; an exited
// one is forgotten.
func TestDestroyTask(t *testing.T) {
	rec := newRecorder()
	d := newDriver(t, Config{OnEvent: rec.record})
	start(t, d, shTask("a/web", "exec sleep 300", nil))
	ch := wait(t, d, "a/web")
	err := d.DestroyTask("a/web", false)
	must.ErrorIs(t, err, drivers.ErrTaskRunning)
	must.EqError(t, err, `destroy task "a/web": task is still running`)
	must.NoError(t, d.DestroyTask("a/web", true))
	must.Eq(t, drivers.ExitResult{Signal: 9}, *result(t, ch))
	_, err = d.WaitTask(context.Background(), "a/web")
	must.ErrorIs(t, err, drivers.ErrTaskNotFound)
	must.ErrorIs(t, d.DestroyTask("a/web", true), drivers.ErrTaskNotFound)
	must.Eq(t, []Op{OpStart, OpWait, OpExit, OpDestroy}, rec.ops("a/web"))

	start(t, d, shTask("a/api", "exit 2", nil))
	must.Eq(t, drivers.ExitResult{ExitCode: 2}, *result(t, wait(t, d, "a/api")))
	must.NoError(t, d.DestroyTask("a/api", false))
	must.ErrorIs(t, d.SignalTask("a/api", "SIGHUP"), drivers.ErrTaskNotFound)
}

// TestWaitTaskContext: a WaitTask whose context ends first is closed
// without a result; other waiters still get it.
func TestWaitTaskContext(t *testing.T) {
	d := newDriver(t, Config{})
	start(t, d, shTask("a/web", "exec sleep 300", nil))
	ctx, cancel := context.WithCancel(context.Background())
	early := wait(t, d, "a/web")
	cancelled, err := d.WaitTask(ctx, "a/web")
	must.NoError(t, err)
	cancel()
	closedEmpty(t, cancelled)
	must.NoError(t, d.StopTask("a/web", time.Second, "SIGTERM"))
	must.Eq(t, drivers.ExitResult{Signal: 15}, *result(t, early))

	_, err = d.WaitTask(ctx, "a/none")
	must.EqError(t, err, `wait task "a/none": task not found`)
}

// TestClose: closing lets go of the tasks without killing them (a
// crashed client): waiters close empty, a waiting StopTask returns
// ErrClosed, every later call fails with ErrClosed.
func TestClose(t *testing.T) {
	rec := newRecorder()
	d := newDriver(t, Config{OnEvent: rec.record})
	out := newFIFO(t)
	h := start(t, d, shTask("a/web", `trap '' INT; echo ready > "$OUT"; `+loop, map[string]string{"OUT": out.path}))
	must.Eq(t, "ready", out.line(t))
	ch := wait(t, d, "a/web")
	stopped := stopAsync(d, "a/web", time.Hour, "SIGINT")
	<-rec.stops // the signal is sent; StopTask waits for the exit
	d.Close()
	d.Close() // idempotent
	closedEmpty(t, ch)
	must.ErrorIs(t, returned(t, stopped), ErrClosed)

	_, err := d.StartTask(shTask("a/api", "exit 0", nil))
	must.ErrorIs(t, err, ErrClosed)
	_, err = d.WaitTask(context.Background(), "a/web")
	must.ErrorIs(t, err, ErrClosed)
	must.ErrorIs(t, d.StopTask("a/web", time.Second, ""), ErrClosed)
	must.ErrorIs(t, d.SignalTask("a/web", "SIGHUP"), ErrClosed)
	must.ErrorIs(t, d.DestroyTask("a/web", true), ErrClosed)

	// The process still runs: a new driver can recover it.
	d2 := newDriver(t, Config{PollInterval: pollEvery})
	must.NoError(t, d2.RecoverTask(h))
	must.NoError(t, d2.StopTask("a/web", 0, "SIGINT"))
}

// TestCloseReleasesDestroy: a DestroyTask waiting for a recovered task's
// exit returns ErrClosed when the driver closes.
func TestCloseReleasesDestroy(t *testing.T) {
	d1 := newDriver(t, Config{})
	hold := newHolder(t)
	h := start(t, d1, shTask("a/web", `exec sleep 300 > "$HOLD"`, map[string]string{"HOLD": hold.path}))
	proc := hold.open(t)
	d1.Close()
	d2 := New(Config{Clock: clock.New(), PollInterval: time.Hour, Path: testPath})
	must.NoError(t, d2.RecoverTask(h))
	destroyed := make(chan error, 1)
	go func() { destroyed <- d2.DestroyTask("a/web", true) }()
	// The SIGKILL is sent at once; d2 would see the exit an hour later.
	eof(t, proc)
	d2.Close()
	must.ErrorIs(t, returned(t, destroyed), ErrClosed)
}
