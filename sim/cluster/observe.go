package cluster

import (
	"context"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// Change is one ClientStatus change of an alloc, as its runner pushed it.
type Change struct {
	// Client is the index of the client whose runner pushed it.
	Client int
	// Alloc is the alloc's ID; From and To its ClientStatus before (the
	// server's "pending" before the first push) and after.
	Alloc    string
	From, To string
	// At is the virtual instant of the push.
	At time.Time
	// Urgent is SYNC-2's priority of the pushed state against the
	// ClientStatus the client had acknowledged at the push: a different
	// one, or failed with none acknowledged.
	Urgent bool
	// Seen is the instant the server received a call that carries it (or
	// a newer state of the alloc); zero if none did before Close.
	Seen time.Time
}

// Latency is how long the server took to see the change; false if it
// never did.
func (ch Change) Latency() (time.Duration, bool) {
	if ch.Seen.IsZero() {
		return 0, false
	}
	return ch.Seen.Sub(ch.At), true
}

// Call is one Node.UpdateAlloc of a client.
type Call struct {
	// Client is the index of the calling client.
	Client int
	// Start is the instant the client made the call, Received the instant
	// the server received it (zero if it never did), Return the instant
	// it returned (zero if it had not by Close).
	Start, Received, Return time.Time
	// Allocs is the number of allocs it carried.
	Allocs int
	// Urgent says whether one of them was Urgent against the acknowledged
	// state (SYNC-2): a call the 5th-tick rule does not hold back.
	Urgent bool
	// Err is the call's error, empty on success.
	Err string
}

// observer is what the cluster knows of one client's sync: its pushes,
// its calls and the ClientStatus each alloc was acknowledged with.
type observer struct {
	index int

	mu      sync.Mutex
	stopped bool
	// seq numbers the pushes: a call carries the changes pushed before
	// it started (in real order, not only in virtual time).
	seq     uint64
	status  map[string]string // alloc → the last pushed ClientStatus
	acked   map[string]string // alloc → the acknowledged ClientStatus
	pending map[string][]pendingChange
	changes []Change
	calls   []*callRecord
}

// pendingChange is a change the server has not seen yet: its index in
// changes and its push number.
type pendingChange struct {
	idx int
	seq uint64
}

func newObserver(index int) *observer {
	return &observer{index: index, status: map[string]string{}, acked: map[string]string{},
		pending: map[string][]pendingChange{}}
}

// urgent is SYNC-2's Urgent for a ClientStatus against the acknowledged
// one (has false: none acknowledged, then only failed is urgent).
func urgent(status, acked string, has bool) bool {
	if !has {
		return status == structs.AllocClientStatusFailed
	}
	return status != acked
}

// stop ends the observation (Close).
func (o *observer) stop() {
	o.mu.Lock()
	o.stopped = true
	o.mu.Unlock()
}

// push records a pushed alloc.
func (o *observer) push(a *structs.Allocation, now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopped {
		return
	}
	o.seq++
	prev, ok := o.status[a.ID]
	if !ok {
		prev = structs.AllocClientStatusPending
	}
	o.status[a.ID] = a.ClientStatus
	if a.ClientStatus == prev {
		return
	}
	acked, has := o.acked[a.ID]
	o.changes = append(o.changes, Change{Client: o.index, Alloc: a.ID, From: prev, To: a.ClientStatus, At: now,
		Urgent: urgent(a.ClientStatus, acked, has)})
	o.pending[a.ID] = append(o.pending[a.ID], pendingChange{idx: len(o.changes) - 1, seq: o.seq})
}

// callRecord is a call in progress: the Call, the entries' ClientStatus
// and the changes it carries.
type callRecord struct {
	call    Call
	entries map[string]string
	carried []int
}

// begin records the start of an UpdateAlloc carrying req's allocs.
func (o *observer) begin(req *structs.AllocUpdateRequest, now time.Time) *callRecord {
	o.mu.Lock()
	defer o.mu.Unlock()
	rec := &callRecord{call: Call{Client: o.index, Start: now}, entries: map[string]string{}}
	if o.stopped || req == nil {
		return rec
	}
	o.calls = append(o.calls, rec)
	for _, a := range req.Alloc {
		if a == nil {
			continue
		}
		rec.call.Allocs++
		rec.entries[a.ID] = a.ClientStatus
		acked, has := o.acked[a.ID]
		rec.call.Urgent = rec.call.Urgent || urgent(a.ClientStatus, acked, has)
		rec.carried = append(rec.carried, o.carriedBy(a, o.seq)...)
	}
	return rec
}

// carriedBy returns the pending changes of a's alloc that an entry of
// ClientStatus a.ClientStatus made at push number seq carries: those
// pushed before, up to the last whose status is the entry's (a change
// pushed later within the same instant, not in the batch, is left).
func (o *observer) carriedBy(a *structs.Allocation, seq uint64) []int {
	last := -1
	for k, p := range o.pending[a.ID] {
		if p.seq > seq {
			break
		}
		if o.changes[p.idx].To == a.ClientStatus {
			last = k
		}
	}
	var out []int
	for _, p := range o.pending[a.ID][:last+1] {
		out = append(out, p.idx)
	}
	return out
}

// received records the instant the server received the call.
func (o *observer) received(rec *callRecord, now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	rec.call.Received = now
}

// end records the call's return: on success its entries are the
// acknowledged states and the changes it carried are seen.
func (o *observer) end(rec *callRecord, now time.Time, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	rec.call.Return = now
	// Only the Call stays: a run's calls are many (160,904 at 1,000
	// clients), and their entries were a sixtieth of its live memory.
	defer func() { rec.entries, rec.carried = nil, nil }()
	if err != nil {
		rec.call.Err = err.Error()
		return
	}
	for id, status := range rec.entries {
		o.acked[id] = status
	}
	seen := rec.call.Received
	if seen.IsZero() {
		seen = now
	}
	for _, idx := range rec.carried {
		ch := &o.changes[idx]
		if !ch.Seen.IsZero() {
			continue
		}
		ch.Seen = seen
		ps := o.pending[ch.Alloc]
		for k, p := range ps {
			if p.idx == idx {
				o.pending[ch.Alloc] = append(ps[:k:k], ps[k+1:]...)
				break
			}
		}
		if len(o.pending[ch.Alloc]) == 0 {
			delete(o.pending, ch.Alloc)
		}
	}
}

// updaterTap wraps the StateUpdater a runner is given: the observer sees
// every push before the client buffers it.
type updaterTap struct {
	cl   *client
	next interfaces.StateUpdater
}

var _ interfaces.StateUpdater = updaterTap{}

func (u updaterTap) AllocStateUpdated(a *structs.Allocation) {
	if a != nil {
		u.cl.obs.push(a, u.cl.c.clk.Now())
	}
	u.next.AllocStateUpdated(a)
}

func (u updaterTap) PutAllocation(a *structs.Allocation) error { return u.next.PutAllocation(a) }

// rpcTap is the client's RPC client: its connection, with every
// Node.UpdateAlloc observed. Like the connection, it is a
// ContextRPCClient (so the client's Shutdown can end its blocking pull).
type rpcTap struct{ cl *client }

// callKey carries a call's record to the server side (receiver).
type callKey struct{}

// ReadsArgsOnly reports whether the connection only reads a call's args
// until it returns (client.ArgsReadingRPCClient); the tap only reads them.
func (t rpcTap) ReadsArgsOnly() bool { return t.cl.conn.ReadsArgsOnly() }

func (t rpcTap) RPC(method string, args, reply any) error {
	return t.RPCContext(context.Background(), method, args, reply)
}

func (t rpcTap) RPCContext(ctx context.Context, method string, args, reply any) error {
	if method != structs.RPCNodeUpdateAlloc {
		return t.cl.conn.RPCContext(ctx, method, args, reply)
	}
	req, _ := args.(*structs.AllocUpdateRequest)
	o, clk := t.cl.obs, t.cl.c.clk
	rec := o.begin(req, clk.Now())
	err := t.cl.conn.RPCContext(context.WithValue(ctx, callKey{}, rec), method, args, reply)
	o.end(rec, clk.Now(), err)
	return err
}

// receiver is the network's server side: the server, with the receipt of
// every observed Node.UpdateAlloc recorded (the transport calls it on
// the caller's goroutine, with a context derived from the caller's).
type receiver struct{ c *Cluster }

func (r receiver) Call(ctx context.Context, method string, args, reply any) error {
	if method == structs.RPCNodeUpdateAlloc {
		if rec, ok := ctx.Value(callKey{}).(*callRecord); ok {
			r.c.clients[rec.call.Client].obs.received(rec, r.c.clk.Now())
		}
	}
	return r.c.srv.Call(ctx, method, args, reply)
}
