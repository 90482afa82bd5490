//go:build linux

package rawexec

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any goroutine outlives the tests: every
// reaper must have ended with its process, every timer been stopped.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
