package sim

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/allocsim/allocsim/model/structs"
)

// Sync observation (SYNC-3, SYNC-5). The world logs what the client under
// test does with its allocation sync, through the contract only: every
// Node.UpdateAlloc call as its RPC port sees it (rpcPort), the instant of
// each incarnation's first successful alloc pull (the first server
// contact, which closes ServersContactedCh; see Contact), and every push a
// runner makes through the StateUpdater the world wraps (updaterTap), with
// the instants it was called and returned. None of it is traced, so the
// traces of existing scenarios are unchanged.
//
// Calls and contacts share one sequence, so that a property can order a
// call against a contact made at the same instant.

// SyncCall is one Node.UpdateAlloc call of a client incarnation.
type SyncCall struct {
	// Seq orders the call's start among the world's sync observations
	// (calls and contacts); ReturnSeq its return (zero while in flight).
	Seq, ReturnSeq uint64
	// Incarnation is the client incarnation (1, 2, ...) that made it;
	// Live whether it was still the running one when it called.
	Incarnation int
	Live        bool
	// Start is the virtual instant the client made the call (before the
	// world's hold); Return the instant it returned, zero while Returned
	// is false.
	Start, Return time.Time
	Returned      bool
	// Err is the call's error, "" for none.
	Err string
	// Allocs are the allocs of the request in request order, each with a
	// copy of its client-computed state.
	Allocs []SyncEntry
}

// OK reports whether the call returned without error: the server stored
// what it carried (the acknowledged states of SYNC-3).
func (c SyncCall) OK() bool { return c.Returned && c.Err == "" }

// InFlight reports whether the call had started and not returned at t.
func (c SyncCall) InFlight(t time.Time) bool {
	return !c.Start.After(t) && (!c.Returned || c.Return.After(t))
}

// SyncEntry is one alloc of an UpdateAlloc request.
type SyncEntry struct {
	AllocID string
	State   *structs.AllocState
}

// Contact is an incarnation's first successful alloc pull. A pull is a
// Node.GetClientAllocs, then an Alloc.GetAllocs when the client needs
// allocs: the world counts an Alloc.GetAllocs as part of the pull when
// the incarnation starts it at the instant its Node.GetClientAllocs
// returned and before starting another one (as the reference does). The
// pull then succeeded when that Alloc.GetAllocs did; otherwise when its
// Node.GetClientAllocs did.
type Contact struct {
	Incarnation int
	// At is the instant the pull's last call returned; Seq orders it
	// among the world's sync observations.
	At  time.Time
	Seq uint64
}

// Push is one AllocStateUpdated call a runner made on the StateUpdater
// the world gave it.
type Push struct {
	Incarnation int
	Alloc       string
	// Called and Returned are the virtual instants of the call and its
	// return; Returned is zero while InFlight.
	Called, Returned time.Time
	InFlight         bool
	seq              uint64
}

// syncLog is the world's sync observation log.
type syncLog struct {
	mu       sync.Mutex
	seq      uint64
	calls    []*SyncCall
	contacts map[int]Contact
	// pulls counts each incarnation's Node.GetClientAllocs calls;
	// joinable holds, for an incarnation whose contact is a
	// Node.GetClientAllocs, that call's number (an Alloc.GetAllocs may
	// still join its pull); fetching the incarnations whose first
	// successful pull waits for its Alloc.GetAllocs.
	pulls    map[int]uint64
	joinable map[int]uint64
	fetching map[int]bool
	pushSeq  uint64
	inflight map[uint64]*Push
	blocked  []Push
	// last is, by alloc ID, the state the last logged call carried
	// (lastState).
	last map[string]*structs.AllocState
}

// callBegin logs a call of inc on its RPC port; it returns the handle
// callEnd takes (nil for a call other than Node.UpdateAlloc).
func (l *syncLog) callBegin(inc *incarnation, method string, args any, now time.Time) *SyncCall {
	switch method {
	case structs.RPCNodeGetClientAllocs, structs.RPCAllocGetAllocs:
		l.pullBegin(inc.n, method, now)
		return nil
	case structs.RPCNodeUpdateAlloc:
	default:
		return nil
	}
	c := &SyncCall{Incarnation: inc.n, Live: inc.live(), Start: now}
	if req, ok := args.(*structs.AllocUpdateRequest); ok && req != nil {
		for _, a := range req.Alloc {
			if a != nil {
				c.Allocs = append(c.Allocs, SyncEntry{AllocID: a.ID, State: a.ClientStateReusing(l.lastState(a.ID))})
			}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range c.Allocs {
		if l.last == nil {
			l.last = map[string]*structs.AllocState{}
		}
		l.last[e.AllocID] = e.State
	}
	l.seq++
	c.Seq = l.seq
	l.calls = append(l.calls, c)
	return c
}

// lastState is the state the last logged call carried for alloc id, nil
// before any: a logged state is never changed, so the next call's copy
// shares what equals it (structs.Allocation.ClientStateReusing).
func (l *syncLog) lastState(id string) *structs.AllocState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last[id]
}

// pullBegin counts a Node.GetClientAllocs of inc; an Alloc.GetAllocs
// that joins the pull that gave inc's contact (Contact) withdraws the
// contact until it returns.
func (l *syncLog) pullBegin(inc int, method string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if method == structs.RPCNodeGetClientAllocs {
		if l.pulls == nil {
			l.pulls = map[int]uint64{}
		}
		l.pulls[inc]++
		return
	}
	c, ok := l.contacts[inc]
	pull, joins := l.joinable[inc]
	if !ok || !joins || pull != l.pulls[inc] || !c.At.Equal(now) {
		return
	}
	delete(l.contacts, inc)
	delete(l.joinable, inc)
	if l.fetching == nil {
		l.fetching = map[int]bool{}
	}
	l.fetching[inc] = true
}

// callEnd logs the return of a call: an UpdateAlloc's outcome, or the
// incarnation's first successful alloc pull.
func (l *syncLog) callEnd(inc *incarnation, method string, c *SyncCall, now time.Time, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case c != nil:
		l.seq++
		c.Return, c.Returned, c.Err, c.ReturnSeq = now, true, errString(err), l.seq
	case method == structs.RPCAllocGetAllocs && l.fetching[inc.n]:
		delete(l.fetching, inc.n)
		if err == nil {
			l.contact(inc.n, now, false)
		}
	case method == structs.RPCNodeGetClientAllocs && err == nil:
		if _, ok := l.contacts[inc.n]; !ok && !l.fetching[inc.n] {
			l.contact(inc.n, now, true)
		}
	}
}

// contact records inc's first contact, with the lock held; joinable
// when it is a Node.GetClientAllocs that an Alloc.GetAllocs may join.
func (l *syncLog) contact(inc int, now time.Time, joinable bool) {
	if l.contacts == nil {
		l.contacts = map[int]Contact{}
		l.joinable = map[int]uint64{}
	}
	l.seq++
	l.contacts[inc] = Contact{Incarnation: inc, At: now, Seq: l.seq}
	if joinable {
		l.joinable[inc] = l.pulls[inc]
	}
}

// pushes counts the pushes logged so far.
func (l *syncLog) pushes() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pushSeq
}

// pushBegin logs a push of inc about alloc.
func (l *syncLog) pushBegin(inc *incarnation, alloc string, now time.Time) *Push {
	p := &Push{Incarnation: inc.n, Alloc: alloc, Called: now, InFlight: true}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pushSeq++
	p.seq = l.pushSeq
	if l.inflight == nil {
		l.inflight = map[uint64]*Push{}
	}
	l.inflight[p.seq] = p
	return p
}

// pushEnd logs the push's return; one that returned at a later instant
// than it was called is kept.
func (l *syncLog) pushEnd(p *Push, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.inflight, p.seq)
	if !now.Equal(p.Called) {
		done := *p
		done.Returned, done.InFlight = now, false
		l.blocked = append(l.blocked, done)
	}
}

// SyncCalls returns copies of the Node.UpdateAlloc calls of every
// incarnation from the from-th on (0 is the first), in start order
// (Seq). A call's fields change only until it returned, so a reader can
// keep what returned and read on from its first call still in flight.
// A call's Allocs and their States are the log's own, never changed once
// logged: they are shared, read them and never change them (checkers
// read every call at every settled instant, and copying the states was
// 1 % of a conformance check's CPU).
func (w *World) SyncCalls(from int) []SyncCall {
	w.sync.mu.Lock()
	defer w.sync.mu.Unlock()
	from = min(max(from, 0), len(w.sync.calls))
	out := make([]SyncCall, 0, len(w.sync.calls)-from)
	for _, c := range w.sync.calls[from:] {
		out = append(out, *c)
	}
	return out
}

// SyncSeq is the sequence number of the world's latest sync observation
// (a call's start or return, a first contact; Seq, ReturnSeq): a reader
// of SyncCalls that sees it unchanged has nothing new to read.
func (w *World) SyncSeq() uint64 {
	w.sync.mu.Lock()
	defer w.sync.mu.Unlock()
	return w.sync.seq
}

// FirstContact returns incarnation inc's first successful alloc pull
// (Contact), if it made one.
func (w *World) FirstContact(inc int) (Contact, bool) {
	w.sync.mu.Lock()
	defer w.sync.mu.Unlock()
	c, ok := w.sync.contacts[inc]
	return c, ok
}

// BlockedPushes returns every push that returned at a later instant than
// it was called, then every push still in flight, each group sorted by
// call instant, incarnation and alloc (SYNC-5.5: producers never block).
func (w *World) BlockedPushes() []Push {
	w.sync.mu.Lock()
	out := slices.Clone(w.sync.blocked)
	var inflight []Push
	for _, p := range w.sync.inflight {
		inflight = append(inflight, *p)
	}
	w.sync.mu.Unlock()
	order := func(a, b Push) int {
		return cmp.Or(a.Called.Compare(b.Called), cmp.Compare(a.Incarnation, b.Incarnation),
			cmp.Compare(a.Alloc, b.Alloc), cmp.Compare(a.seq, b.seq))
	}
	slices.SortFunc(out, order)
	slices.SortFunc(inflight, order)
	return append(out, inflight...)
}

// Incarnation returns the number of the newest client incarnation (0
// before Start) and whether it is running (false once it crashed, until
// the next one starts).
func (w *World) Incarnation() (int, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.incN, w.inc != nil
}

// AcknowledgedState reads alloc's persisted acknowledged state (STATE-1)
// from the state DB storage, as a restore would load it now; nil if none.
// It only reads.
func (w *World) AcknowledgedState(allocID string) (*structs.AllocState, error) {
	w.mu.Lock()
	db := w.db
	w.mu.Unlock()
	return db.GetAcknowledgedState(allocID)
}
