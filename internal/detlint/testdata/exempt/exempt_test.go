package exempt

import (
	"testing"
	"time"

	"github.com/benbjohnson/clock"
)

func TestRealClock(t *testing.T) {
	_ = clock.New().Now()
	_ = time.Now()
}
