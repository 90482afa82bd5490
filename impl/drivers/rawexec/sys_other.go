//go:build !linux

package rawexec

import (
	"os"
	"os/exec"

	"github.com/allocsim/allocsim/plugins/drivers"
)

// supported: off Linux, StartTask and RecoverTask fail with
// ErrUnsupported before any of the functions below is reached.
const supported = false

type procStatus int

const (
	procAlive procStatus = iota
	procGone
	procReused
)

func setProcessGroup(*exec.Cmd)                            {}
func unignoreSignals()                                     {}
func signalGroup(int, int) error                           { return ErrUnsupported }
func signalProcess(int, int) error                         { return ErrUnsupported }
func isGone(error) bool                                    { return false }
func awaitExit(int) error                                  { return ErrUnsupported }
func procStartTime(int) (uint64, error)                    { return 0, ErrUnsupported }
func probeProcess(int, uint64) (procStatus, uint64, error) { return procGone, 0, ErrUnsupported }

func exitResult(ps *os.ProcessState, waitErr error) *drivers.ExitResult {
	res := &drivers.ExitResult{Err: waitErr}
	if ps != nil {
		res.ExitCode = ps.ExitCode()
	}
	return res
}
