//go:build linux

package rawexec

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// loop keeps a shell busy until a signal ends it.
const loop = "while :; do sleep 0.1; done"

// TestStopTrapped: a task that traps the stop signal exits cleanly (code
// 0, signal 0) and StopTask returns once it has (AR-6 kill path).
func TestStopTrapped(t *testing.T) {
	for _, sig := range []string{"", "SIGTERM"} {
		t.Run("signal="+sig, func(t *testing.T) {
			rec := newRecorder()
			d := newDriver(t, Config{OnEvent: rec.record})
			out := newFIFO(t)
			trap := "INT"
			if sig != "" {
				trap = "TERM"
			}
			start(t, d, shTask("a/web", "trap 'exit 0' "+trap+`; echo ready > "$OUT"; `+loop,
				map[string]string{"OUT": out.path}))
			ch := wait(t, d, "a/web")
			must.Eq(t, "ready", out.line(t))
			must.NoError(t, d.StopTask("a/web", 10*time.Second, sig))
			must.Eq(t, drivers.ExitResult{}, *result(t, ch))
			must.Eq(t, []Op{OpStart, OpWait, OpStop, OpExit}, rec.ops("a/web"))
			// Stopping an exited task returns at once.
			must.NoError(t, d.StopTask("a/web", 10*time.Second, sig))
		})
	}
}

// TestStopForceKill: a task ignoring the stop signal is SIGKILLed once
// the timeout has passed: signal 9.
func TestStopForceKill(t *testing.T) {
	rec := newRecorder()
	d := newDriver(t, Config{OnEvent: rec.record})
	out := newFIFO(t)
	start(t, d, shTask("a/web", `trap '' INT; echo ready > "$OUT"; `+loop, map[string]string{"OUT": out.path}))
	ch := wait(t, d, "a/web")
	must.Eq(t, "ready", out.line(t))
	must.NoError(t, d.StopTask("a/web", 300*time.Millisecond, "SIGINT"))
	must.Eq(t, drivers.ExitResult{Signal: 9}, *result(t, ch))
	must.Eq(t, []Op{OpStart, OpWait, OpStop, OpForceKill, OpExit}, rec.ops("a/web"))
}

// TestStopForceKillOnInjectedClock: the force kill waits for the timeout
// on the injected clock, not on the real one (DET-1).
func TestStopForceKillOnInjectedClock(t *testing.T) {
	clk := clock.NewMock()
	rec := newRecorder()
	d := newDriver(t, Config{Clock: clk, OnEvent: rec.record})
	out := newFIFO(t)
	start(t, d, shTask("a/web", `trap '' TERM; echo ready > "$OUT"; `+loop, map[string]string{"OUT": out.path}))
	ch := wait(t, d, "a/web")
	must.Eq(t, "ready", out.line(t))
	stopped := stopAsync(d, "a/web", time.Hour, "SIGTERM")
	<-rec.stops // the signal is sent and the force kill armed
	clk.Add(time.Hour)
	must.NoError(t, returned(t, stopped))
	must.Eq(t, drivers.ExitResult{Signal: 9}, *result(t, ch))
}

// TestStopImmediateKill: SIGKILL as the stop signal, or a timeout ≤ 0,
// kills at once.
func TestStopImmediateKill(t *testing.T) {
	cases := []struct {
		name    string
		signal  string
		timeout time.Duration
	}{
		{"SIGKILL", "SIGKILL", time.Hour},
		{"zero timeout", "SIGINT", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder()
			d := newDriver(t, Config{Clock: clock.NewMock(), OnEvent: rec.record})
			out := newFIFO(t)
			start(t, d, shTask("a/web", `trap '' INT; echo ready > "$OUT"; `+loop, map[string]string{"OUT": out.path}))
			ch := wait(t, d, "a/web")
			must.Eq(t, "ready", out.line(t))
			must.NoError(t, d.StopTask("a/web", tc.timeout, tc.signal))
			must.Eq(t, drivers.ExitResult{Signal: 9}, *result(t, ch))
		})
	}
}

// TestStopKillsChildren: the stop signal reaches the whole process group,
// so the task's children die with it.
func TestStopKillsChildren(t *testing.T) {
	d := newDriver(t, Config{})
	out := newFIFO(t)
	hold := newHolder(t)
	start(t, d, shTask("a/web", `sleep 300 > "$HOLD" & echo ready > "$OUT"; wait`,
		map[string]string{"OUT": out.path, "HOLD": hold.path}))
	ch := wait(t, d, "a/web")
	must.Eq(t, "ready", out.line(t))
	child := hold.open(t) // the child is running and holds the pipe
	must.NoError(t, d.StopTask("a/web", 10*time.Second, "SIGTERM"))
	must.Eq(t, drivers.ExitResult{Signal: 15}, *result(t, ch))
	eof(t, child) // the child is dead
}

// TestExitKillsLeftovers: when the task's main process exits, what it
// left running in its process group is killed.
func TestExitKillsLeftovers(t *testing.T) {
	d := newDriver(t, Config{})
	out, goOn := newFIFO(t), newFIFO(t)
	hold := newHolder(t)
	start(t, d, shTask("a/web", `sleep 300 > "$HOLD" & echo ready > "$OUT"; read x < "$GO"; exit 6`,
		map[string]string{"OUT": out.path, "GO": goOn.path, "HOLD": hold.path}))
	ch := wait(t, d, "a/web")
	must.Eq(t, "ready", out.line(t))
	child := hold.open(t) // the child is running and holds the pipe
	_, err := goOn.f.WriteString("go\n")
	must.NoError(t, err)
	must.Eq(t, drivers.ExitResult{ExitCode: 6}, *result(t, ch))
	eof(t, child) // the child is dead
}

// TestStopErrors: unknown task, unknown signal.
func TestStopErrors(t *testing.T) {
	d := newDriver(t, Config{})
	err := d.StopTask("a/none", time.Second, "SIGINT")
	must.ErrorIs(t, err, drivers.ErrTaskNotFound)
	must.EqError(t, err, `stop task "a/none": task not found`)

	start(t, d, shTask("a/web", "exec sleep 300", nil))
	ch := wait(t, d, "a/web")
	must.EqError(t, d.StopTask("a/web", time.Second, "SIGNOPE"), `stop task "a/web": unknown signal "SIGNOPE"`)
	must.NoError(t, d.StopTask("a/web", time.Second, "SIGKILL"))
	must.Eq(t, drivers.ExitResult{Signal: 9}, *result(t, ch))
}
