package tasktable

import (
	"context"
	"sync"

	"github.com/allocsim/allocsim/plugins/drivers"
)

// Exit is how one task ends, as its StopTask and WaitTask callers see it
// (see the package doc). Create it with NewExit.
type Exit struct {
	exited    bool
	abandoned bool
	result    *drivers.ExitResult
	// done is closed by Deliver.
	done    chan struct{}
	waiters []*waiter
}

// waiter is one WaitTask channel still waiting for the exit.
type waiter struct {
	ch chan *drivers.ExitResult
	// stop unregisters the context hook.
	stop func() bool
}

// NewExit returns a pending Exit.
func NewExit() *Exit { return &Exit{done: make(chan struct{})} }

// Exited reports whether Deliver has been called.
func (e *Exit) Exited() bool { return e.exited }

// Abandoned reports whether Abandon has been called.
func (e *Exit) Abandoned() bool { return e.abandoned }

// Pending reports whether the task has neither exited nor been abandoned.
func (e *Exit) Pending() bool { return !e.exited && !e.abandoned }

// Done returns a channel closed when the task exits (not when it is
// abandoned). It needs no lock.
func (e *Exit) Done() <-chan struct{} { return e.done }

// Wait returns a channel that receives a copy of the exit result once (at
// once if the task has exited) and is then closed; if ctx ends first, or
// the task is abandoned, it is closed without a value. mu is the
// driver's lock, held by the caller and taken by the context hook.
func (e *Exit) Wait(ctx context.Context, mu sync.Locker) <-chan *drivers.ExitResult {
	ch := make(chan *drivers.ExitResult, 1)
	switch {
	case e.exited:
		ch <- e.result.Copy()
		close(ch)
		return ch
	case e.abandoned:
		close(ch)
		return ch
	}
	w := &waiter{ch: ch}
	e.waiters = append(e.waiters, w)
	w.stop = context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		e.cancel(w)
	})
	return ch
}

// cancel closes a waiter's channel without a value if it is still
// waiting.
func (e *Exit) cancel(w *waiter) {
	for i, x := range e.waiters {
		if x == w {
			e.waiters = append(e.waiters[:i], e.waiters[i+1:]...)
			close(w.ch)
			return
		}
	}
}

// Deliver ends a pending Exit with res: Done closes and every waiter
// receives its own copy. On an Exit that is not pending it does nothing.
func (e *Exit) Deliver(res *drivers.ExitResult) {
	if !e.Pending() {
		return
	}
	e.exited, e.result = true, res
	close(e.done)
	for _, w := range e.waiters {
		w.stop()
		w.ch <- res.Copy()
		close(w.ch)
	}
	e.waiters = nil
}

// Abandon ends a pending Exit without a result: every waiter's channel
// closes without a value. On an Exit that is not pending it does nothing.
func (e *Exit) Abandon() {
	if !e.Pending() {
		return
	}
	e.abandoned = true
	for _, w := range e.waiters {
		w.stop()
		close(w.ch)
	}
	e.waiters = nil
}
