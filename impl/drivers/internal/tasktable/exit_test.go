package tasktable

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/shoenig/test/must"
)

// got is what a WaitTask channel holds right now.
type got struct {
	res    *drivers.ExitResult
	closed bool // closed (after res, if any)
	empty  bool // nothing yet
}

// peek reads a WaitTask channel without blocking: its value (if any) and
// whether it is closed after it.
func peek(ch <-chan *drivers.ExitResult) got {
	select {
	case r, ok := <-ch:
		if !ok {
			return got{closed: true}
		}
		select {
		case _, more := <-ch:
			return got{res: r, closed: !more}
		default:
			return got{res: r}
		}
	default:
		return got{empty: true}
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestExitDeliver: waiters from before and after the exit each get their
// own copy of the result, then a closed channel (drivers contract step 2);
// Done closes; a second Deliver changes nothing.
func TestExitDeliver(t *testing.T) {
	var mu sync.Mutex
	e := NewExit()
	must.True(t, e.Pending())
	before := e.Wait(context.Background(), &mu)
	must.Eq(t, got{empty: true}, peek(before))
	must.False(t, isClosed(e.Done()))

	res := &drivers.ExitResult{ExitCode: 7}
	e.Deliver(res)
	must.True(t, e.Exited())
	must.False(t, e.Pending())
	must.True(t, isClosed(e.Done()))
	g := peek(before)
	must.Eq(t, drivers.ExitResult{ExitCode: 7}, *g.res)
	must.True(t, g.closed)
	must.True(t, g.res != res, must.Sprint("a waiter gets a copy"))

	e.Deliver(&drivers.ExitResult{ExitCode: 1})
	after := peek(e.Wait(context.Background(), &mu))
	must.Eq(t, drivers.ExitResult{ExitCode: 7}, *after.res)
	must.True(t, after.closed)
	must.True(t, after.res != res)

	e.Abandon()
	must.False(t, e.Abandoned(), must.Sprint("an exited Exit is not abandoned"))
}

// TestExitAbandon: waiters' channels close without a value, Done stays
// open, a later Wait gets a closed channel, a later Deliver changes
// nothing.
func TestExitAbandon(t *testing.T) {
	var mu sync.Mutex
	e := NewExit()
	ch := e.Wait(context.Background(), &mu)
	e.Abandon()
	must.True(t, e.Abandoned())
	must.False(t, e.Pending())
	must.Eq(t, got{closed: true}, peek(ch))
	must.Eq(t, got{closed: true}, peek(e.Wait(context.Background(), &mu)))

	e.Deliver(&drivers.ExitResult{})
	must.False(t, e.Exited())
	must.False(t, isClosed(e.Done()))
}

// countingLock is a sync.Locker that counts how often it was taken.
type countingLock struct {
	mu    sync.Mutex
	taken int // guarded by mu
}

func (l *countingLock) Lock()   { l.mu.Lock(); l.taken++ }
func (l *countingLock) Unlock() { l.mu.Unlock() }

// TestExitContextEnds: a waiter whose context ends first is closed
// without a value, its hook taking the lock it was handed; the others
// still get the result. A context ending after the exit is harmless: its
// hook was unhooked and never runs.
func TestExitContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lock := &countingLock{}
		e := NewExit()
		ctx, cancel := context.WithCancel(t.Context())
		cancelled := e.Wait(ctx, lock)
		kept := e.Wait(context.Background(), lock)
		late, cancelLate := context.WithCancel(t.Context())
		lateCh := e.Wait(late, lock)

		cancel()
		synctest.Wait()
		lock.Lock()
		must.Eq(t, 2, lock.taken) // the hook's, then this one
		must.Eq(t, got{closed: true}, peek(cancelled))
		must.Eq(t, got{empty: true}, peek(kept))
		e.Deliver(&drivers.ExitResult{Signal: 9})
		lock.Unlock()

		cancelLate()
		synctest.Wait()
		lock.Lock()
		must.Eq(t, 3, lock.taken, must.Sprint("an unhooked hook never runs"))
		lock.Unlock()
		must.Eq(t, drivers.ExitResult{Signal: 9}, *peek(kept).res)
		must.Eq(t, drivers.ExitResult{Signal: 9}, *peek(lateCh).res)
	})
}

// TestExitContextEndedBeforeWait: an already-ended context closes the
// channel without a value.
func TestExitContextEndedBeforeWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		e := NewExit()
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		ch := e.Wait(ctx, &mu)
		synctest.Wait()
		must.Eq(t, got{closed: true}, peek(ch))
	})
}
