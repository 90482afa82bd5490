//go:build !unix

package testbin

import (
	"os"
	"time"
)

// usage returns a finished process's CPU time; the peak resident set is
// not known here (0).
func usage(ps *os.ProcessState) (cpu time.Duration, maxRSS int64) {
	return ps.UserTime() + ps.SystemTime(), 0
}
