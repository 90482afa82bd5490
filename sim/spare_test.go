package sim

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"
)

// TestSpareRunner: a spare runner is built from a running alloc's Config
// under a new ID on ports of its own: destroyed before it ran, it pushed
// nothing more when Run came after it, and wrote nothing to the world's
// state DB.
func TestSpareRunner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w, err := New(Config{Scenario: simpleScenario(nil, simpleJob("web", 1, nil)), Factory: referenceFactory()})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		must.True(t, w.RunUntil(allRunning(w, 1), time.Minute))
		_, err = w.SpareRunner("no-such-alloc")
		must.Error(t, err)

		id := w.Server().Allocs()[0].ID
		spare, err := w.SpareRunner(id)
		must.NoError(t, err)
		must.Eq(t, id+"-spare", spare.Runner.Alloc().ID)
		w.Do(spare.Runner.Destroy)
		<-spare.Runner.DestroyCh()
		pushes := spare.Pushes() // Destroy pushes the computed alloc (AR-1)
		w.Do(spare.Runner.Run)
		must.Eq(t, pushes, spare.Pushes(), must.Sprint("Run after Destroy pushes nothing"))
		stored, err := w.PersistedAlloc(id + "-spare")
		must.NoError(t, err)
		must.Nil(t, stored, must.Sprint("the spare has a state DB of its own"))
		must.NoError(t, w.Close())
	})
}
