//go:build linux

package rawexec

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"github.com/allocsim/allocsim/plugins/drivers"
	"golang.org/x/sys/unix"
)

// supported: the driver runs processes on this OS.
const supported = true

// setProcessGroup makes the process the leader of a new process group
// (pgid = pid), so that signals reach it and everything it starts, and
// not the driver.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends signal sig to every process of group pgid.
func signalGroup(pgid, sig int) error {
	return syscall.Kill(-pgid, syscall.Signal(sig))
}

// signalProcess sends signal sig (0: only check) to process pid.
func signalProcess(pid, sig int) error {
	return syscall.Kill(pid, syscall.Signal(sig))
}

// isGone reports whether a signal error means no such process or group.
func isGone(err error) bool { return errors.Is(err, syscall.ESRCH) }

// awaitExit blocks until pid, a child of this process, has exited,
// without reaping it.
func awaitExit(pid int) error {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// exitResult is a reaped process's ExitResult: its exit code, or the
// signal that killed it (code 0 then, as the mock driver reports it);
// a wait failure other than a non-zero exit becomes Err.
func exitResult(ps *os.ProcessState, waitErr error) *drivers.ExitResult {
	res := &drivers.ExitResult{}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		res.Err = waitErr
	}
	if ps == nil {
		return res
	}
	ws, ok := ps.Sys().(syscall.WaitStatus)
	switch {
	case !ok:
		res.ExitCode = ps.ExitCode()
	case ws.Signaled():
		res.Signal = int(ws.Signal())
	default:
		res.ExitCode = ws.ExitStatus()
	}
	return res
}

// procStatus is what a probe found at a pid.
type procStatus int

const (
	procAlive  procStatus = iota // running (or stopped), the expected process
	procGone                     // no such process, or a zombie
	procReused                   // another process (start time differs)
)

// probeProcess looks at pid in /proc: gone if absent or a zombie, reused
// if wantStart ≠ 0 and its start time differs (returned), else alive.
// Without /proc it falls back to signal 0 (a zombie then looks alive).
func probeProcess(pid int, wantStart uint64) (procStatus, uint64, error) {
	state, start, err := procStat(pid)
	switch {
	case err == nil && (state == 'Z' || state == 'X' || state == 'x'):
		return procGone, start, nil
	case err == nil && wantStart != 0 && start != wantStart:
		return procReused, start, nil
	case err == nil:
		return procAlive, start, nil
	case errors.Is(err, fs.ErrNotExist):
		return procGone, 0, nil
	}
	switch err := signalProcess(pid, 0); {
	case err == nil, errors.Is(err, syscall.EPERM):
		return procAlive, 0, nil
	case isGone(err):
		return procGone, 0, nil
	default:
		return procAlive, 0, err
	}
}

// procStartTime is pid's start time in clock ticks since boot.
func procStartTime(pid int) (uint64, error) {
	_, start, err := procStat(pid)
	return start, err
}

// procStat reads the state and start time of /proc/<pid>/stat.
func procStat(pid int) (byte, uint64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, err
	}
	return parseProcStat(pid, data)
}

// parseProcStat returns the state (field 3) and start time (field 22) of
// a /proc/<pid>/stat line. The command name (field 2) may hold spaces and
// parentheses, so fields are counted from its last closing parenthesis.
func parseProcStat(pid int, data []byte) (byte, uint64, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("parse /proc/%d/stat: no command name", pid)
	}
	fields := bytes.Fields(data[i+1:])
	const stateField, startField = 3, 22 // 1-based, in the whole line
	if len(fields) <= startField-3 || len(fields[0]) != 1 {
		return 0, 0, fmt.Errorf("parse /proc/%d/stat: %d fields", pid, len(fields)+2)
	}
	start, err := strconv.ParseUint(string(fields[startField-3]), 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("parse /proc/%d/stat start time: %w", pid, err)
	}
	return fields[stateField-3][0], start, nil
}
