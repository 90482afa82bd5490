package tasktable

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any goroutine outlives the tests: every
// context hook must have been unhooked or have run.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
