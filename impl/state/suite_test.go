package state_test

import (
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/impl/state/statetest"
)

// openBolt opens a fresh bbolt DB in a test temp dir. It skips fsync
// (NoSync): the suite checks semantics, and thousands of fsyncs would make
// it slow on a loaded disk; durability is TestBoltCrashKeepsCommittedWrites'
// job, which runs with fsync.
func openBolt(t *testing.T, hook state.FaultHook) interfaces.StateDB {
	t.Helper()
	db, err := state.OpenBolt(state.BoltConfig{Dir: t.TempDir(), FaultHook: hook, NoSync: true})
	if err != nil {
		t.Fatalf("OpenBolt: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func openMem(t *testing.T, hook state.FaultHook) interfaces.StateDB {
	db := state.NewMemDB(state.MemConfig{FaultHook: hook})
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func TestBoltStateDB(t *testing.T) { statetest.TestStateDB(t, openBolt) }

func TestMemStateDB(t *testing.T) { statetest.TestStateDB(t, openMem) }
