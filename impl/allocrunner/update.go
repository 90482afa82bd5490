package allocrunner

import (
	"sync"

	"github.com/allocsim/allocsim/model/structs"
)

// updateQueue is AR-10's queue of one: an update replaces the queued one
// if it supersedes it (Policies.Supersedes: unless its AllocModifyIndex is
// lower), else it is dropped; nothing is accepted once closed.
type updateQueue struct {
	mu         sync.Mutex
	queued     *structs.Allocation
	closed     bool
	supersedes func(queued, update *structs.Allocation) bool
	// ready has room for one wake-up; done closes with the queue.
	ready chan struct{}
	done  chan struct{}
}

func newUpdateQueue(supersedes func(queued, update *structs.Allocation) bool) *updateQueue {
	return &updateQueue{supersedes: supersedes, ready: make(chan struct{}, 1), done: make(chan struct{})}
}

// push queues a; it reports whether a was kept.
func (q *updateQueue) push(a *structs.Allocation) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || (q.queued != nil && !q.supersedes(q.queued, a)) {
		return false
	}
	q.queued = a
	select {
	case q.ready <- struct{}{}:
	default:
	}
	return true
}

// pop takes the queued update, or nil.
func (q *updateQueue) pop() *structs.Allocation {
	q.mu.Lock()
	defer q.mu.Unlock()
	a := q.queued
	q.queued = nil
	return a
}

// close drops the queued update and refuses later ones.
func (q *updateQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	q.closed = true
	q.queued = nil
	close(q.done)
}

// Update implements interfaces.AllocRunner (AR-10): it queues a copy of
// alloc for the update handler and hands every task runner the alloc
// before it returns, so that a task that wakes within the same instant
// (the servers contacted after a failed recovery, STATE-4) already sees a
// server stop instead of racing the handler's kill (DET-3). The handler
// runs the update hooks and the kill. Updates after WaitCh closed are
// ignored.
func (ar *allocRunner) Update(alloc *structs.Allocation) {
	if alloc == nil {
		return
	}
	select {
	case <-ar.life.waitCh:
		return
	default:
	}
	update := alloc.CopySkipJob() // the job is read only (interfaces.Config)
	if !ar.updates.push(update) {
		ar.logger.Debug("dropped alloc update", "alloc_modify_index", alloc.AllocModifyIndex)
		return
	}
	for _, name := range ar.taskNames {
		ar.tasks[name].SetAlloc(update.CopySkipJob()) // one job for all, read only
	}
}

// handleAllocUpdates handles queued updates one at a time until Run stops
// the queue.
func (ar *allocRunner) handleAllocUpdates() {
	defer close(ar.updateHandlerDone)
	for {
		select {
		case <-ar.updates.ready:
			if a := ar.updates.pop(); a != nil {
				ar.handleAllocUpdate(a)
			}
		case <-ar.updates.done:
			return
		}
	}
}

// handleAllocUpdate is AR-10's handling: store the alloc, run the update
// hooks if it is not terminal, pass it to every task runner (name order),
// and kill all tasks if it newly became server-terminal.
func (ar *allocRunner) handleAllocUpdate(update *structs.Allocation) {
	wasStopped := ar.serverAlloc().ServerTerminal()
	ar.setServerAlloc(update)
	if !update.Terminal() {
		ar.runUpdateHooks(update)
	}
	for _, name := range ar.taskNames {
		ar.tasks[name].Update(update.CopySkipJob()) // one job for all, read only
	}
	if update.ServerTerminal() && !wasStopped {
		ar.killTasks("alloc stopped by the server")
	}
}
