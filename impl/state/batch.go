package state

import "github.com/allocsim/allocsim/impl/interfaces"

// BatchHook is the simulator's gate for a batch of writes (DB.Batch): it
// runs once when the batch begins, before any of its writes, and may
// block (the simulator holds the batch there as one call). It must be
// safe for concurrent use.
type BatchHook func()

// Batcher is a state DB that can group one goroutine's writes (DB).
type Batcher interface {
	Batch(fn func(tx interfaces.StateDB) error) error
}

var _ Batcher = (*DB)(nil)

// Batch runs fn with tx, a handle on d for fn's writes, as one unit for
// the simulator: the BatchHook runs once first, then every write through
// tx reaches the FaultHook with Write.InBatch set, where it is decided
// and traced as any write (a write that fails fails alone; the others
// still happen). It returns fn's error. The writes are the same writes,
// in the same order, as fn would make through d itself: a batch is not
// a transaction, and nothing is rolled back. tx is for fn's goroutine
// and for the duration of fn only.
//
// A client's 60 s snapshot of every alloc is one batch (STATE-2), so that
// the simulator holds it once, not once per alloc.
func (d *DB) Batch(fn func(tx interfaces.StateDB) error) error {
	if d.batchHook != nil {
		d.batchHook()
	}
	tx := &DB{be: d.be, hook: d.hook, batchHook: d.batchHook, memo: d.memo, frozen: d.frozen, inBatch: true}
	return fn(tx)
}
