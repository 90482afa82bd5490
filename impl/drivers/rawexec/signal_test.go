//go:build linux

package rawexec

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/shoenig/test/must"
)

// TestSignalTask: SignalTask delivers the signal (PAUSE-11): the task's
// HUP trap runs and the task keeps running.
func TestSignalTask(t *testing.T) {
	rec := newRecorder()
	d := newDriver(t, Config{OnEvent: rec.record})
	out := newFIFO(t)
	start(t, d, shTask("a/web", `trap 'echo hup > "$OUT"' HUP; echo ready > "$OUT"; `+loop,
		map[string]string{"OUT": out.path}))
	ch := wait(t, d, "a/web")
	must.Eq(t, "ready", out.line(t))
	for range 2 {
		must.NoError(t, d.SignalTask("a/web", "hup"))
		must.Eq(t, "hup", out.line(t))
	}
	must.NoError(t, d.StopTask("a/web", 10*time.Second, "SIGTERM"))
	must.Eq(t, drivers.ExitResult{Signal: 15}, *result(t, ch))
	must.Eq(t, []Op{OpStart, OpWait, OpSignal, OpSignal, OpStop, OpExit}, rec.ops("a/web"))

	err := d.SignalTask("a/web", "SIGHUP")
	must.ErrorIs(t, err, drivers.ErrTaskExited)
	must.EqError(t, err, `signal task "a/web": task has exited`)
}

// TestSignalTaskErrors: unknown task, unknown signal; a terminating
// signal ends the task through the ordinary exit path.
func TestSignalTaskErrors(t *testing.T) {
	d := newDriver(t, Config{})
	must.ErrorIs(t, d.SignalTask("a/none", "SIGHUP"), drivers.ErrTaskNotFound)
	start(t, d, shTask("a/web", "exec sleep 300", nil))
	ch := wait(t, d, "a/web")
	must.EqError(t, d.SignalTask("a/web", "SIGBOGUS"), `signal task "a/web": unknown signal "SIGBOGUS"`)
	must.NoError(t, d.SignalTask("a/web", "SIGUSR1"))
	must.Eq(t, drivers.ExitResult{Signal: 10}, *result(t, ch))
}
