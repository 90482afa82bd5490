//go:build linux

package rawexec

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// TestExitResult: the exit code or the killing signal of the process
// reaches WaitTask (AR-6 `Terminated`); a signal death has code 0.
func TestExitResult(t *testing.T) {
	cases := []struct {
		name   string
		script string
		want   drivers.ExitResult
	}{
		{"exit 0", "exit 0", drivers.ExitResult{}},
		{"exit 3", "exit 3", drivers.ExitResult{ExitCode: 3}},
		{"killed by SIGTERM", "kill -TERM $$", drivers.ExitResult{Signal: 15}},
		{"killed by SIGKILL", "kill -KILL $$", drivers.ExitResult{Signal: 9}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder()
			d := newDriver(t, Config{OnEvent: rec.record})
			start(t, d, shTask("a/web", tc.script, nil))
			got := result(t, wait(t, d, "a/web"))
			must.Eq(t, tc.want, *got)
			must.Eq(t, tc.want.ExitCode == 0 && tc.want.Signal == 0, got.Successful())
			// A later WaitTask gets the same result at once.
			must.Eq(t, tc.want, *result(t, wait(t, d, "a/web")))
			// The process may exit before or after the first WaitTask.
			ops := rec.ops("a/web")
			slices.Sort(ops)
			must.Eq(t, []Op{OpExit, OpStart, OpWait, OpWait}, ops)
		})
	}
}

// TestStartEnvAndWorkDir: the task sees PATH from the driver config, its
// Env, nothing of the driver's environment, and runs in its task dir.
func TestStartEnvAndWorkDir(t *testing.T) {
	t.Setenv("RAWEXEC_LEAK", "leaked")
	d := newDriver(t, Config{})
	out := newFIFO(t)
	taskDir := t.TempDir()
	cfg := shTask("a/web", `printf '%s|%s|%s|%s\n' "$PATH" "$FOO" "${RAWEXEC_LEAK-unset}" "$(pwd)" > "$OUT"`,
		map[string]string{"FOO": "bar baz", "OUT": out.path})
	cfg.TaskDir = taskDir
	start(t, d, cfg)
	must.Eq(t, testPath+"|bar baz|unset|"+taskDir, out.line(t))
	must.Eq(t, drivers.ExitResult{}, *result(t, wait(t, d, "a/web")))

	// The task's Env may override PATH; a missing task dir is not used.
	cfg = shTask("a/api", `printf '%s|%s\n' "$PATH" "$(pwd)" > "$OUT"`,
		map[string]string{"PATH": "/bin", "OUT": out.path})
	cfg.TaskDir = filepath.Join(taskDir, "missing")
	start(t, d, cfg)
	wd, err := os.Getwd()
	must.NoError(t, err)
	must.Eq(t, "/bin|"+wd, out.line(t))
	must.Eq(t, drivers.ExitResult{}, *result(t, wait(t, d, "a/api")))
}

// TestStartLogs: stdout and stderr are appended to the task's files in
// the alloc's log dir (ADIR-2); without a log dir they are discarded.
func TestStartLogs(t *testing.T) {
	d := newDriver(t, Config{})
	allocDir := t.TempDir()
	logs := filepath.Join(allocDir, allocdir.SharedAllocName, allocdir.LogDirName)
	must.NoError(t, os.MkdirAll(logs, 0o777))
	taskDir := filepath.Join(allocDir, "web")
	must.NoError(t, os.Mkdir(taskDir, 0o777))

	for i := range 2 {
		cfg := shTask("a/web", "echo out; echo err >&2; exit 0", nil)
		cfg.TaskDir = taskDir
		start(t, d, cfg)
		must.Eq(t, drivers.ExitResult{}, *result(t, wait(t, d, "a/web")))
		stdout, err := os.ReadFile(filepath.Join(logs, "web.stdout.0"))
		must.NoError(t, err)
		stderr, err := os.ReadFile(filepath.Join(logs, "web.stderr.0"))
		must.NoError(t, err)
		must.Eq(t, strings.Repeat("out\n", i+1), string(stdout))
		must.Eq(t, strings.Repeat("err\n", i+1), string(stderr))
	}

	// Without Name, the task dir's name; an unwritable log file fails the
	// start, recoverably.
	must.NoError(t, os.Mkdir(filepath.Join(logs, "api.stdout.0"), 0o777))
	cfg := shTask("a/api", "exit 0", nil)
	cfg.Name, cfg.TaskDir = "", filepath.Join(allocDir, "api")
	_, err := d.StartTask(cfg)
	must.ErrorContains(t, err, `start task "a/api": open log file: `)
	must.True(t, drivers.IsRecoverable(err))
	must.NoError(t, os.Remove(filepath.Join(logs, "api.stdout.0")))
	must.NoError(t, os.Mkdir(filepath.Join(logs, "api.stderr.0"), 0o777))
	_, err = d.StartTask(cfg)
	must.ErrorContains(t, err, `start task "a/api": open log file: `)
}

// TestStartHandle: the handle's DriverState records pid = pgid, the start
// instant on the injected clock and the resolved program.
func TestStartHandle(t *testing.T) {
	clk := clock.NewMock()
	at := time.Date(2031, 3, 30, 1, 59, 0, 0, time.UTC)
	clk.Set(at)
	d := newDriver(t, Config{Clock: clk})
	h := start(t, d, shTask("a/web", "exit 0", nil))
	must.Eq(t, 1, h.Version)
	st := handleState(t, h)
	must.Positive(t, st.PID)
	must.Eq(t, st.PID, st.PGID)
	must.Eq(t, at.UnixNano(), st.StartedAt)
	want, err := lookPath("sh", testPath)
	must.NoError(t, err)
	must.Eq(t, want, st.Command)
	must.Eq(t, drivers.ExitResult{}, *result(t, wait(t, d, "a/web")))
}

// TestStartProcessGroup: the task leads its own process group (set
// before exec, so as soon as StartTask returns).
func TestStartProcessGroup(t *testing.T) {
	d := newDriver(t, Config{})
	h := start(t, d, shTask("a/web", "exec sleep 300", nil))
	st := handleState(t, h)
	pgid, err := syscall.Getpgid(st.PID)
	must.NoError(t, err)
	must.Eq(t, st.PID, pgid)
	must.NotEq(t, syscall.Getpgrp(), pgid)
	must.NoError(t, d.StopTask("a/web", time.Second, "SIGKILL"))
	must.Eq(t, drivers.ExitResult{Signal: 9}, *result(t, wait(t, d, "a/web")))
}

// TestStartCommandErrors: a program that cannot be found or run is an
// unrecoverable start error; an explicit path is used as given.
func TestStartCommandErrors(t *testing.T) {
	d := newDriver(t, Config{})
	_, err := d.StartTask(&drivers.TaskConfig{ID: "a/web", Config: map[string]any{"command": "no-such-program"}})
	must.EqError(t, err, `start task "a/web": look up command "no-such-program" in PATH "/usr/bin:/bin": executable file not found in $PATH`)
	must.ErrorIs(t, err, exec.ErrNotFound)
	must.False(t, drivers.IsRecoverable(err))

	dir := t.TempDir()
	script := filepath.Join(dir, "script")
	must.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o644))
	_, err = d.StartTask(&drivers.TaskConfig{ID: "a/web", Config: map[string]any{"command": script}})
	must.ErrorIs(t, err, os.ErrPermission)
	must.False(t, drivers.IsRecoverable(err))

	// Lookup skips relative PATH entries and non-executables.
	_, err = lookPath("script", "relative:"+dir)
	must.ErrorIs(t, err, exec.ErrNotFound)
	must.NoError(t, os.Chmod(script, 0o755))
	p, err := lookPath("script", "relative:"+dir)
	must.NoError(t, err)
	must.Eq(t, script, p)

	h := start(t, d, &drivers.TaskConfig{ID: "a/web", Config: map[string]any{"command": script}})
	must.Eq(t, script, handleState(t, h).Command)
	must.Eq(t, drivers.ExitResult{}, *result(t, wait(t, d, "a/web")))
}

// TestStartTaskExists: a running task's ID cannot be started again; an
// exited one is replaced.
func TestStartTaskExists(t *testing.T) {
	d := newDriver(t, Config{})
	out := newFIFO(t)
	start(t, d, shTask("a/web", `read x < "$OUT"; exit 4`, map[string]string{"OUT": out.path}))
	_, err := d.StartTask(shTask("a/web", "exit 0", nil))
	must.ErrorIs(t, err, drivers.ErrTaskExists)
	must.EqError(t, err, `start task "a/web": task already started`)
	_, err = out.f.WriteString("go\n")
	must.NoError(t, err)
	must.Eq(t, drivers.ExitResult{ExitCode: 4}, *result(t, wait(t, d, "a/web")))

	start(t, d, shTask("a/web", "exit 5", nil))
	must.Eq(t, drivers.ExitResult{ExitCode: 5}, *result(t, wait(t, d, "a/web")))
}

// TestStartInvalid: a config without ID, a nil config.
func TestStartInvalid(t *testing.T) {
	d := newDriver(t, Config{})
	_, err := d.StartTask(nil)
	must.EqError(t, err, "task config has no ID")
	_, err = d.StartTask(&drivers.TaskConfig{Config: map[string]any{"command": "sh"}})
	must.EqError(t, err, "task config has no ID")
}

// TestDriverBasics: name, capabilities and defaults; a nil clock is a
// wiring mistake (no real-clock default, DET-1).
func TestDriverBasics(t *testing.T) {
	must.Panic(t, func() { New(Config{}) })
	clk := clock.NewMock()
	d := New(Config{Clock: clk})
	defer d.Close()
	must.Eq(t, "raw_exec", d.Name())
	must.Eq(t, drivers.Capabilities{SendSignals: true, FSIsolation: drivers.FSIsolationNone}, *d.Capabilities())
	must.Eq(t, DefaultPath, d.path)
	must.Eq(t, DefaultPollInterval, d.pollInterval)
	must.Eq[clock.Clock](t, clk, d.clock)

	// A wait failure without a process state is the result's error.
	werr := errors.New("wait failed")
	must.Eq(t, drivers.ExitResult{Err: werr}, *exitResult(nil, werr))
}
