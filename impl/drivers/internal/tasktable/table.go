package tasktable

import "github.com/allocsim/allocsim/plugins/drivers"

// Task is what a Table holds.
type Task interface {
	// Abandon lets go of the task without an exit: Table.Close calls it
	// on every task it holds.
	Abandon()
}

// Table is a driver's tasks by ID and whether the driver has closed (see
// the package doc for the locking).
type Table[T Task] struct {
	closedErr error
	// closing is closed by Close.
	closing chan struct{}
	closed  bool
	tasks   map[string]T
}

// New returns an empty, open table whose calls on a closed driver fail
// with closedErr (the driver's ErrClosed).
func New[T Task](closedErr error) *Table[T] {
	return &Table[T]{closedErr: closedErr, closing: make(chan struct{}), tasks: map[string]T{}}
}

// Lookup returns the task of id: the closed error once the table is
// closed, else drivers.ErrTaskNotFound if it holds no such task.
func (tb *Table[T]) Lookup(id string) (T, error) {
	var zero T
	if tb.closed {
		return zero, tb.closedErr
	}
	t, ok := tb.tasks[id]
	if !ok {
		return zero, drivers.ErrTaskNotFound
	}
	return t, nil
}

// Get returns the task of id, if the table holds one (never once
// closed).
func (tb *Table[T]) Get(id string) (T, bool) {
	t, ok := tb.tasks[id]
	return t, ok
}

// Put holds t as the task of id, replacing any other. The table must not
// be closed.
func (tb *Table[T]) Put(id string, t T) { tb.tasks[id] = t }

// Delete forgets the task of id.
func (tb *Table[T]) Delete(id string) { delete(tb.tasks, id) }

// Closed reports whether Close has been called.
func (tb *Table[T]) Closed() bool { return tb.closed }

// Closing returns a channel that Close closes. It needs no lock.
func (tb *Table[T]) Closing() <-chan struct{} { return tb.closing }

// Await blocks until done is closed (nil) or the table is closed (the
// closed error), whichever it sees first. Call it without the driver's
// lock.
func (tb *Table[T]) Await(done <-chan struct{}) error {
	select {
	case <-done:
		return nil
	case <-tb.closing:
		return tb.closedErr
	}
}

// Close marks the table closed, closes Closing, abandons every task and
// forgets them all. Idempotent.
func (tb *Table[T]) Close() {
	if tb.closed {
		return
	}
	tb.closed = true
	close(tb.closing)
	for _, t := range tb.tasks {
		t.Abandon()
	}
	tb.tasks = nil
}
