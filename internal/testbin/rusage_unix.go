//go:build unix

package testbin

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// usage returns a finished process's CPU time (user plus system) and peak
// resident set in bytes, from its rusage.
func usage(ps *os.ProcessState) (cpu time.Duration, maxRSS int64) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return ps.UserTime() + ps.SystemTime(), 0
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	maxRSS = int64(ru.Maxrss)
	if runtime.GOOS != "darwin" && runtime.GOOS != "ios" {
		maxRSS *= 1024 // kilobytes everywhere else
	}
	return cpu, maxRSS
}
