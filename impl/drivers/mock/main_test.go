package mock

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any goroutine outlives the tests; bubble
// and the property test also check after each test.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
