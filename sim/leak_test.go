package sim

import (
	"sync"
	"testing"
	"testing/synctest"

	"github.com/shoenig/test/must"
)

// TestLiveGoroutines: goroutines started under a label are counted until
// they end, including grandchildren.
func TestLiveGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		withIncarnation("w1/1", func() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				wg.Add(1)
				go func() { defer wg.Done(); <-stop }()
				<-stop
			}()
		})
		synctest.Wait()
		must.EqOp(t, 2, liveGoroutines("w1/1"))
		must.EqOp(t, 0, liveGoroutines("w1/2"))
		close(stop)
		wg.Wait()
		must.EqOp(t, 0, liveGoroutines("w1/1"))
	})
}
