package client

import (
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// pendingUpdates is the client-wide buffer of SYNC-1 and the StateUpdater
// every runner is given. Its lock is held only for one Buffer call (an
// insert, a copy-out, a tick), never across an RPC and never while a
// runner is called, so producers never block on the sync loop (SYNC-5.5).
type pendingUpdates struct {
	db interfaces.StateDB

	policy Policies

	mu  sync.Mutex
	buf syncpolicy.Buffer
	// version counts Adds and re-inserts; the sync loop uses it to see
	// whether the buffer changed while it classified without the lock.
	version uint64
	// wake is the parked sync loop's (park): closed by the next Add.
	wake chan struct{}
}

var _ interfaces.StateUpdater = (*pendingUpdates)(nil)

func newPendingUpdates(db interfaces.StateDB, p Policies) *pendingUpdates {
	if p.Add == nil {
		p.Add = (*syncpolicy.Buffer).Add
	}
	if p.Tick == nil {
		p.Tick = (*syncpolicy.Buffer).Tick
	}
	if p.Failed == nil {
		p.Failed = (*syncpolicy.Buffer).Failed
	}
	return &pendingUpdates{db: db, policy: p}
}

// AllocStateUpdated buffers the stripped alloc, newest wins (SYNC-1). It
// never blocks on I/O or on the sync loop.
func (p *pendingUpdates) AllocStateUpdated(alloc *structs.Allocation) {
	if alloc == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.policy.Add(&p.buf, alloc)
	p.version++
	if p.wake != nil {
		close(p.wake)
		p.wake = nil
	}
}

// park returns a channel the next buffered update closes, if the buffer is
// empty now; parked is false, and nothing changed, otherwise. The sync
// loop then stops its ticker until the channel closes.
func (p *pendingUpdates) park() (wake <-chan struct{}, parked bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.buf.Len() > 0 {
		return nil, false
	}
	p.wake = make(chan struct{})
	return p.wake, true
}

// slept adds the ticks a parked sync loop missed to the tick counter.
func (p *pendingUpdates) slept(missed uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Slept(missed)
}

// forget drops what the buffer keeps of a retired runner's alloc
// (syncpolicy.Buffer.Forget).
func (p *pendingUpdates) forget(allocID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Forget(allocID)
}

// PutAllocation persists an alloc (STATE-2 `alloc`).
func (p *pendingUpdates) PutAllocation(alloc *structs.Allocation) error {
	return p.db.PutAllocation(alloc)
}

// snapshot returns the buffered updates of the given alloc IDs that are
// present, and the buffer version they belong to. The updates are the
// buffer's own (Buffer.Peek), to be read only: each tick classified
// copies of them before, 6 % of the bytes BenchmarkClients100x50
// allocated.
func (p *pendingUpdates) snapshot(ids []string) (map[string]*structs.Allocation, uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Sized for what the buffer holds (a few), not for every live runner.
	out := make(map[string]*structs.Allocation, min(len(ids), p.buf.Len()))
	for _, id := range ids {
		if a, ok := p.buf.Peek(id); ok {
			out[id] = a
		}
	}
	return out, p.version
}

// tick applies one SYNC-3 tick with precomputed classes, unless the
// buffer changed since version (then ok is false and nothing happened).
// force ticks regardless of the version.
func (p *pendingUpdates) tick(in syncpolicy.TickInput, version uint64, force bool) (syncpolicy.TickResult, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !force && p.version != version {
		return syncpolicy.TickResult{}, false
	}
	return p.policy.Tick(&p.buf, in), true
}

// tickIdle applies a tick that needs no classification, when the buffer
// is empty; ok is false, and nothing happened, otherwise.
func (p *pendingUpdates) tickIdle(contacted bool) (syncpolicy.TickResult, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.buf.Len() > 0 {
		return syncpolicy.TickResult{}, false
	}
	return p.policy.Tick(&p.buf, syncpolicy.TickInput{ServersContacted: contacted}), true
}

func (p *pendingUpdates) failed(b syncpolicy.Batch) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.policy.Failed(&p.buf, b)
	p.version++
}

func (p *pendingUpdates) succeeded() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Succeeded()
}
