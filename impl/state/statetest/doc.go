// Package statetest is the conformance suite for interfaces.StateDB
// implementations (SPEC §10), used the way testing/fstest.TestFS is: an
// implementation's own test calls
//
//	statetest.TestStateDB(t, func(t *testing.T, hook state.FaultHook) interfaces.StateDB {
//		db := ... // a fresh, empty DB that consults hook before every write
//		t.Cleanup(func() { db.Close() })
//		return db
//	})
//
// and gets one subtest per property: round trips of every value, deep-copy
// isolation, agreement with a naive model under random operations, deletes,
// listing sorted by alloc ID (DET-2), corrupt entries skipped per alloc
// (STATE-3), injected write failures (STATE-1), argument checks, Close,
// Reopen and concurrent use. Subtests that need the optional
// state.RawWriter or state.Reopener are skipped, with a message, for a DB
// that lacks them.
package statetest
