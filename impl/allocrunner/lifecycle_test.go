package allocrunner

import (
	"testing"
	"testing/synctest"

	"github.com/shoenig/test/must"
)

// TestLifecyclePersistHeld (STATE-2, DET-3): a state DB write made under
// unlessDestroyed may be held by a simulator; meanwhile the lifecycle's
// other flags stay readable, and isDestroyed and markDestroyed wait for
// the write durably (on a channel: with a sync.Mutex synctest.Wait would
// never return and this test would hang), in arrival order.
func TestLifecyclePersistHeld(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var l lifecycle
		l.init()
		release := make(chan struct{})
		wrote := make(chan error, 1)
		go func() { wrote <- l.unlessDestroyed(func() error { <-release; return nil }) }()
		synctest.Wait()

		must.False(t, l.killOrShutdown(), must.Sprint("flags do not wait for the write"))
		destroyed := make(chan bool, 1)
		go func() { destroyed <- l.isDestroyed() }()
		synctest.Wait()
		marked := make(chan struct{})
		go func() { l.markDestroyed(func() {}); close(marked) }()
		synctest.Wait()
		select {
		case <-destroyed:
			t.Fatal("isDestroyed returned while a persist was in flight")
		case <-marked:
			t.Fatal("markDestroyed ran while a persist was in flight")
		default:
		}

		close(release)
		synctest.Wait()
		must.NoError(t, <-wrote)
		must.False(t, <-destroyed, must.Sprint("queued before markDestroyed"))
		<-marked
		must.True(t, l.isDestroyed())
		ran := false
		must.NoError(t, l.unlessDestroyed(func() error { ran = true; return nil }))
		must.False(t, ran, must.Sprint("no write after the bucket was deleted"))
	})
}
