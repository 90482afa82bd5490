//go:build linux

package rawexec

import (
	"encoding/json"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// pollEvery is the recovered-task poll interval of the tests.
const pollEvery = 20 * time.Millisecond

// restartClient closes d, as a crashed client loses it, and returns a new
// driver instance.
func restartClient(t *testing.T, d *Driver, rec *recorder) *Driver {
	t.Helper()
	d.Close()
	cfg := Config{PollInterval: pollEvery}
	if rec != nil {
		cfg.OnEvent = rec.record
	}
	return newDriver(t, cfg)
}

// TestRecoverThenStop: a new driver instance re-attaches to a live task
// (STATE-4), stops it through its process group, and reports its death
// with an unknown exit status.
func TestRecoverThenStop(t *testing.T) {
	d1 := newDriver(t, Config{})
	out := newFIFO(t)
	h := start(t, d1, shTask("a/web", `trap 'exit 0' TERM; trap 'echo hup > "$OUT"' HUP; echo ready > "$OUT"; `+loop,
		map[string]string{"OUT": out.path}))
	must.Eq(t, "ready", out.line(t))
	old := wait(t, d1, "a/web")

	rec := newRecorder()
	d2 := restartClient(t, d1, rec)
	closedEmpty(t, old)
	must.NoError(t, d2.RecoverTask(h.Copy()))
	must.NoError(t, d2.RecoverTask(h.Copy())) // already tracked: left as it is
	ch := wait(t, d2, "a/web")
	must.NoError(t, d2.SignalTask("a/web", "SIGHUP"))
	must.Eq(t, "hup", out.line(t))
	must.NoError(t, d2.StopTask("a/web", 10*time.Second, "SIGTERM"))
	got := result(t, ch)
	must.ErrorIs(t, got.Err, ErrExitUnknown)
	must.Eq(t, drivers.ExitResult{Err: ErrExitUnknown}, *got)
	must.False(t, got.Successful())
	must.Eq(t, []Op{OpRecover, OpRecover, OpWait, OpSignal, OpStop, OpExit}, rec.ops("a/web"))

	// The process is gone: nothing to recover any more.
	d3 := restartClient(t, d2, nil)
	err := d3.RecoverTask(h)
	must.EqError(t, err, `recover task "a/web": process `+itoa(handleState(t, h).PID)+` is not running`)
}

// TestRecoverSeesExternalDeath: a recovered task killed by someone else
// is reported dead at a later poll.
func TestRecoverSeesExternalDeath(t *testing.T) {
	d1 := newDriver(t, Config{})
	h := start(t, d1, shTask("a/web", "exec sleep 300", nil))
	d2 := restartClient(t, d1, nil)
	must.NoError(t, d2.RecoverTask(h))
	ch := wait(t, d2, "a/web")
	must.NoError(t, syscall.Kill(-handleState(t, h).PGID, syscall.SIGKILL))
	must.Eq(t, drivers.ExitResult{Err: ErrExitUnknown}, *result(t, ch))
	must.ErrorIs(t, d2.SignalTask("a/web", "SIGHUP"), drivers.ErrTaskExited)
	must.NoError(t, d2.DestroyTask("a/web", false))
}

// TestRecoverForceKill: StopTask on a recovered task that ignores the
// signal force-kills its group after the timeout; DestroyTask(force) of
// another kills it at once.
func TestRecoverForceKill(t *testing.T) {
	d1 := newDriver(t, Config{})
	out := newFIFO(t)
	env := map[string]string{"OUT": out.path}
	h1 := start(t, d1, shTask("a/web", `trap '' INT; echo ready > "$OUT"; `+loop, env))
	must.Eq(t, "ready", out.line(t))
	h2 := start(t, d1, shTask("a/api", "exec sleep 300", nil))

	rec := newRecorder()
	d2 := restartClient(t, d1, rec)
	must.NoError(t, d2.RecoverTask(h1))
	must.NoError(t, d2.RecoverTask(h2))
	ch1, ch2 := wait(t, d2, "a/web"), wait(t, d2, "a/api")
	must.NoError(t, d2.StopTask("a/web", 200*time.Millisecond, "SIGINT"))
	must.Eq(t, drivers.ExitResult{Err: ErrExitUnknown}, *result(t, ch1))
	must.Eq(t, []Op{OpRecover, OpWait, OpStop, OpForceKill, OpExit}, rec.ops("a/web"))

	must.ErrorIs(t, d2.DestroyTask("a/api", false), drivers.ErrTaskRunning)
	must.NoError(t, d2.DestroyTask("a/api", true))
	must.Eq(t, drivers.ExitResult{Err: ErrExitUnknown}, *result(t, ch2))
	_, err := d2.WaitTask(t.Context(), "a/api")
	must.ErrorIs(t, err, drivers.ErrTaskNotFound)
}

// TestRecoverSignalsGoneGroup: a signal to a recovered task whose process
// has died reports the exit at once instead of at the next poll.
func TestRecoverSignalsGoneGroup(t *testing.T) {
	d1 := newDriver(t, Config{})
	h := start(t, d1, shTask("a/web", "exec sleep 300", nil))
	ch1 := wait(t, d1, "a/web")
	d2 := New(Config{Clock: clock.New(), PollInterval: time.Hour, Path: testPath})
	defer d2.Close()
	must.NoError(t, d2.RecoverTask(h))
	ch2 := wait(t, d2, "a/web")
	// d1, still the parent, sees the kill; d2 only at its next poll, an
	// hour away, unless it signals the group.
	must.NoError(t, d1.StopTask("a/web", time.Second, "SIGKILL"))
	must.Eq(t, drivers.ExitResult{Signal: 9}, *result(t, ch1))
	err := d2.SignalTask("a/web", "SIGHUP")
	must.ErrorIs(t, err, drivers.ErrTaskExited)
	must.Eq(t, drivers.ExitResult{Err: ErrExitUnknown}, *result(t, ch2))
}

// TestRecoverErrors: handles that cannot be recovered.
func TestRecoverErrors(t *testing.T) {
	d := newDriver(t, Config{})
	state := func(st driverState) []byte {
		data, err := json.Marshal(st)
		must.NoError(t, err)
		return data
	}
	self, err := procStartTime(os.Getpid())
	must.NoError(t, err)
	cases := []struct {
		name    string
		handle  *drivers.TaskHandle
		wantErr string
	}{
		{"nil", nil, "nil task handle"},
		{"other driver", &drivers.TaskHandle{Version: 1, Driver: "docker", TaskID: "a/web"},
			`recover task "a/web": handle of driver "docker", want "raw_exec"`},
		{"other version", &drivers.TaskHandle{Version: 2, Driver: Name, TaskID: "a/web"},
			`recover task "a/web": unsupported handle version 2, want 1`},
		{"bad state", &drivers.TaskHandle{Version: 1, Driver: Name, TaskID: "a/web", DriverState: []byte("{")},
			`recover task "a/web": decode driver state: unexpected end of JSON input`},
		{"no pid", &drivers.TaskHandle{Version: 1, Driver: Name, TaskID: "a/web", DriverState: state(driverState{PGID: 4})},
			`recover task "a/web": driver state has no valid pid and pgid (0, 4)`},
		{"pid reused", &drivers.TaskHandle{Version: 1, Driver: Name, TaskID: "a/web",
			DriverState: state(driverState{PID: os.Getpid(), PGID: os.Getpid(), ProcStart: self + 1})},
			`recover task "a/web": process ` + itoa(os.Getpid()) + ` is another process (start time ` +
				utoa(self) + `, want ` + utoa(self+1) + `)`},
		{"not permitted", &drivers.TaskHandle{Version: 1, Driver: Name, TaskID: "a/init",
			DriverState: state(driverState{PID: 1, PGID: 1})}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.wantErr == "" && os.Geteuid() == 0 {
				t.Skip("root may signal process 1")
			}
			err := d.RecoverTask(tc.handle)
			if tc.wantErr == "" {
				must.ErrorIs(t, err, syscall.EPERM)
				must.EqError(t, err, `recover task "a/init": probe process 1: operation not permitted`)
				return
			}
			must.EqError(t, err, tc.wantErr)
		})
	}
	d.Close()
	must.ErrorIs(t, d.RecoverTask(&drivers.TaskHandle{Version: 1, Driver: Name, TaskID: "a/web",
		DriverState: state(driverState{PID: 1, PGID: 1})}), ErrClosed)
}

// TestProbeProcess: a live process, a zombie and a missing one.
func TestProbeProcess(t *testing.T) {
	status, start, err := probeProcess(os.Getpid(), 0)
	must.NoError(t, err)
	must.Eq(t, procAlive, status)
	must.Positive(t, start)

	// A child that exited but is not reaped is a zombie: gone.
	p, err := os.StartProcess("/bin/sh", []string{"sh", "-c", "exit 0"}, &os.ProcAttr{})
	must.NoError(t, err)
	must.NoError(t, awaitExit(p.Pid))
	status, _, err = probeProcess(p.Pid, 0)
	must.NoError(t, err)
	must.Eq(t, procGone, status)
	_, err = p.Wait()
	must.NoError(t, err)
	status, _, err = probeProcess(p.Pid, 0)
	must.NoError(t, err)
	must.Eq(t, procGone, status)
}
