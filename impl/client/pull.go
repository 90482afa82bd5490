package client

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// Pull loop timing. SPEC is silent on these; they are on the injected
// clock.
const (
	// pullRetryBase is the wait after the first failed pull; each further
	// consecutive failure doubles it up to pullRetryMax. A success resets
	// it. There is no jitter, so a failed pull draws no randomness.
	pullRetryBase = time.Second
	pullRetryMax  = 30 * time.Second
	// pullNoChangeDelay is the wait after a reply whose index does not
	// exceed MinQueryIndex (a blocking query that timed out, or a server
	// that does not block): nothing changed, so the reply is ignored, and
	// the wait keeps a non-blocking server from making the client spin
	// without the clock advancing.
	pullNoChangeDelay = time.Second
	// snapshotInterval is the period of the loop that persists every
	// runner (STATE-2: `alloc` every 60 s).
	snapshotInterval = 60 * time.Second
)

// pullLoop pulls the node's allocs as Nomad's client does: the blocking
// Node.GetClientAllocs answers with an index map (alloc ID →
// AllocModifyIndex), Alloc.GetAllocs fetches the allocs the client needs
// (registry.wants: new, or whose index moved), and runAllocs applies the
// view. A failure of either call backs off and pulls again from the
// same MinQueryIndex, so nothing of a view is applied until all of it
// was fetched. The first successful pull closes ServersContactedCh once
// its allocs are applied: a restored task waiting for the servers
// (STATE-4) then wakes with its runner already holding the servers' view
// (a server stop included), never racing it (DET-3).
func (c *Client) pullLoop(ctx context.Context) {
	defer c.loops.Done()
	var (
		index     uint64
		contacted bool
		backoff   time.Duration
	)
	for {
		req := &structs.NodeClientAllocsRequest{
			NodeID:       c.node.NodeID,
			QueryOptions: structs.QueryOptions{Region: c.node.Region, MinQueryIndex: index},
		}
		var resp structs.NodeClientAllocsIndexResponse
		err := c.rpc.call(ctx, structs.RPCNodeGetClientAllocs, req, &resp)
		var fetched map[string]*structs.Allocation
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
		case contacted && resp.Index <= index:
			backoff = 0
			if !c.wait(ctx, pullNoChangeDelay) {
				return
			}
			continue
		default:
			fetched, err = c.fetch(ctx, resp.Allocs)
			if ctx.Err() != nil {
				return
			}
		}
		if err != nil {
			backoff = min(max(2*backoff, pullRetryBase), pullRetryMax)
			c.logger.Warn("pulling allocs failed", "retry_in", backoff, "error", err)
			if !c.wait(ctx, backoff) {
				return
			}
			continue
		}
		backoff = 0
		index = resp.Index
		c.runAllocs(resp.Allocs, fetched)
		if !contacted {
			contacted = true
			c.contact.mark()
		}
	}
}

// fetch gets the allocs of an index map that the client needs with one
// Alloc.GetAllocs (none when it needs none), by ID. A reply without
// every alloc asked for is an error: the pull is made again.
func (c *Client) fetch(ctx context.Context, listed map[string]uint64) (map[string]*structs.Allocation, error) {
	ids := c.runners.wants(listed)
	if len(ids) == 0 {
		return nil, nil
	}
	// Like Nomad's client: ask for a server whose state holds the
	// newest index fetched.
	var minIndex uint64
	for _, id := range ids {
		minIndex = max(minIndex, listed[id]-min(listed[id], 1))
	}
	req := &structs.AllocsGetRequest{
		AllocIDs:     ids,
		QueryOptions: structs.QueryOptions{Region: c.node.Region, MinQueryIndex: minIndex},
	}
	var resp structs.AllocsGetResponse
	if err := c.rpc.call(ctx, structs.RPCAllocGetAllocs, req, &resp); err != nil {
		return nil, err
	}
	out := make(map[string]*structs.Allocation, len(resp.Allocs))
	for _, a := range resp.Allocs {
		if a != nil {
			out[a.ID] = a
		}
	}
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			return nil, fmt.Errorf("%s: asked for %d allocs, got %d: %s missing", structs.RPCAllocGetAllocs, len(ids), len(out), id)
		}
	}
	return out, nil
}

// runAllocs applies the servers' view of the node's allocs (listed, the
// index map) with the allocs fetched for it, in alloc-ID order (DET-2):
//
//  1. a live runner whose alloc left the map is retired and destroyed;
//  2. a live runner whose alloc was fetched with a higher
//     AllocModifyIndex gets it: Reconnect when the servers mark it
//     `unknown` (a disconnected node came back), Update otherwise;
//  3. a fetched alloc without a runner is built, unless it was reported
//     failed or is already client-terminal (nothing left to run or
//     report; noted, so that it is fetched again only if it changes).
func (c *Client) runAllocs(listed map[string]uint64, fetched map[string]*structs.Allocation) {
	c.runners.forgetGone(listed)
	for _, e := range c.runners.liveEntries() {
		if _, ok := listed[e.id]; ok {
			continue
		}
		if ar, key, ok := c.runners.retire(e.id); ok {
			c.updates.forget(e.id)
			c.goDestroy(ar, key)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(fetched)) {
		a := fetched[id]
		if e, ok := c.runners.entry(id); ok {
			if a.AllocModifyIndex > e.modifyIndex {
				c.updateRunner(e, a)
			}
			continue
		}
		if c.runners.isFailed(id) {
			continue
		}
		if a.ClientTerminal() {
			c.runners.markTerminal(id, a.AllocModifyIndex)
			continue
		}
		c.addAlloc(a)
	}
}

func (c *Client) updateRunner(e runnerEntry, a *structs.Allocation) {
	update := a.CopySkipJob()
	if a.ClientStatus == structs.AllocClientStatusUnknown {
		if err := e.ar.Reconnect(update); err != nil {
			c.logger.Error("reconnecting alloc runner failed", "alloc_id", e.id, "error", err)
		}
	} else {
		e.ar.Update(update)
	}
	c.runners.setModifyIndex(e.id, a.AllocModifyIndex)
}

// addAlloc builds, persists, registers and runs the runner of a new alloc.
func (c *Client) addAlloc(a *structs.Allocation) {
	ar, ok := c.build(a.CopySkipJob(), c.nextRunnerRand())
	if !ok {
		return
	}
	if err := c.opts.StateDB.PutAllocation(a); err != nil { // STATE-2: on add
		c.logger.Error("persisting new alloc failed", "alloc_id", a.ID, "error", err)
	}
	c.runners.add(a.ID, ar, a.AllocModifyIndex)
	c.goRun(ar)
}

// snapshotLoop persists every live runner every snapshotInterval (STATE-2).
func (c *Client) snapshotLoop(ctx context.Context) {
	defer c.loops.Done()
	ticker := c.clock.Ticker(snapshotInterval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		c.snapshot()
	}
}

// snapshot persists every live runner's state (STATE-2), in alloc-ID
// order, as one batch of the state DB when it can batch
// (state.Batcher) and the runner can write through the batch's handle;
// a runner that cannot persists through its own.
func (c *Client) snapshot() {
	persist := func(db interfaces.StateDB) error {
		for _, e := range c.runners.liveEntries() {
			var err error
			if p, ok := e.ar.(persisterTo); ok && db != nil {
				err = p.PersistStateTo(db)
			} else {
				err = e.ar.PersistState()
			}
			if err != nil {
				c.logger.Error("persisting alloc runner state failed", "alloc_id", e.id, "error", err)
			}
		}
		return nil
	}
	if b, ok := c.opts.StateDB.(state.Batcher); ok {
		_ = b.Batch(persist)
		return
	}
	_ = persist(nil)
}

// persisterTo is an alloc runner that can persist through a given handle
// on its state DB (the reference's, impl/allocrunner).
type persisterTo interface {
	PersistStateTo(db interfaces.StateDB) error
}

// wait blocks for d on the client's clock; false means ctx ended first.
func (c *Client) wait(ctx context.Context, d time.Duration) bool {
	t := c.clock.Timer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
