package client

import (
	"context"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// maxClassifyAttempts bounds how often a tick re-classifies because the
// buffer changed while it classified; the last attempt ticks with what it
// has (an update that arrived meanwhile is then unclassified: sent, never
// urgent, and acknowledged to its alloc's runner if it has one;
// classifySnapshot).
const maxClassifyAttempts = 3

// classifySnapshot classifies a buffered update by classes only if it is
// the very update classified (pending, the snapshot). One that replaced
// it since, or arrived since, is unclassified: Typical (sent, never
// urgent), with a runner if its alloc has one among the runners that were
// live when the tick began (liveIDs, sorted), so that a successful call
// acknowledges it to that runner as SYNC-3 requires of every entry whose
// runner exists. A class follows its update, never its alloc ID: the None
// of a state equal to the acknowledged one would otherwise drop a newer
// state that arrived during the classification.
func classifySnapshot(pending map[string]*structs.Allocation, classes map[string]syncpolicy.Class, liveIDs []string) syncpolicy.Classifier {
	byID := syncpolicy.ClassifyMap(classes)
	return func(update *structs.Allocation) (syncpolicy.Priority, bool) {
		if pending[update.ID] != update {
			_, live := slices.BinarySearch(liveIDs, update.ID)
			return syncpolicy.Typical, live
		}
		return byID(update)
	}
}

// syncLoop is the SYNC-3 loop: a 200 ms clock ticker drives Buffer.Tick;
// a Send makes one Node.UpdateAlloc from this goroutine, so exactly one
// RPC is in flight. The ticker is re-phased with Reset: after a success or
// a Rephase to 200 ms from now, after a failure to the retry delay, and
// back to 200 ms after any tick that followed a retry delay.
//
// While the buffer is empty the loop parks (New's client; Ticking's never
// does): it stops the ticker and waits for the next update, then counts
// the ticks it missed into n and resumes the ticker on its phase
// (syncpolicy.ParkedTicks), so that every send happens when a running
// ticker's would, without a clock event every 200 ms of an idle client.
func (c *Client) syncLoop(ctx context.Context) {
	defer c.loops.Done()
	ticker := c.clock.Ticker(syncpolicy.TickInterval)
	defer ticker.Stop()
	period := syncpolicy.TickInterval
	var due time.Time // the instant of the ticker's next tick, known after each tick
	for {
		var at time.Time
		select {
		case <-ctx.Done():
			return
		case at = <-ticker.C:
		}
		if period != syncpolicy.TickInterval {
			// A one-off delay (a retry backoff, the resume after a park)
			// has run out: back to 200 ms now, before the call, or an RPC
			// slower than that delay keeps the ticker firing at it (a
			// resume can be 1 ns away) until the call returns.
			ticker.Reset(syncpolicy.TickInterval)
			period = syncpolicy.TickInterval
		}
		next, rephase := c.syncTick(ctx)
		if ctx.Err() != nil {
			return
		}
		due = at.Add(period)
		if rephase || next != period {
			ticker.Reset(next)
			period = next
			due = c.clock.Now().Add(next)
			// A tick that fell due while the RPC ran is stale: drop it, or
			// it would fire the next tick at once (DESIGN.md, clock hazards).
			select {
			case <-ticker.C:
			default:
			}
		}
		if !c.parkSync {
			continue
		}
		wake, parked := c.updates.park()
		if !parked {
			continue
		}
		ticker.Stop()
		select {
		case <-ctx.Done():
			return
		case <-wake:
		}
		now := c.clock.Now()
		missed, resume := syncpolicy.ParkedTicks(due, now)
		c.updates.slept(missed)
		period = resume.Sub(now)
		ticker.Reset(period)
		due = resume
	}
}

// syncTick runs one tick and returns the delay to the next one and whether
// the ticker must be re-phased to it.
func (c *Client) syncTick(ctx context.Context) (time.Duration, bool) {
	res := c.tickBuffer()
	switch res.Action {
	case syncpolicy.Hold:
		return syncpolicy.TickInterval, false
	case syncpolicy.Rephase:
		return syncpolicy.TickInterval, true
	}
	// Sorted by alloc ID. A transport that only reads the args until it
	// returns is sent the batch's own allocs: nothing changes them until
	// the call returned (Failed re-inserts them unchanged, Delivered hands
	// them over after), which spared a copy of every update sent.
	allocs := res.Batch.Allocs
	if c.rpc.readsArgsOnly {
		allocs = res.Batch.Peek
	}
	req := &structs.AllocUpdateRequest{
		Alloc:        allocs(),
		WriteRequest: structs.WriteRequest{Region: c.node.Region},
	}
	var resp structs.GenericResponse
	if err := c.rpc.call(ctx, structs.RPCNodeUpdateAlloc, req, &resp); err != nil {
		c.updates.failed(res.Batch)
		delay := syncpolicy.RetryDelay(c.retryJitter.Float64())
		c.logger.Warn("syncing alloc states failed", "allocs", res.Batch.Len(), "retry_in", delay, "error", err)
		return delay, true
	}
	c.updates.succeeded()
	// Acknowledge outside every client lock, in alloc-ID order, each only
	// to the runner that still holds the alloc (SYNC-3). Delivered hands
	// over the batch's own allocs, which nothing else holds now: each
	// acknowledged state takes its alloc's fields over.
	for _, e := range res.Batch.Delivered() {
		if !e.HasRunner {
			continue
		}
		if ar, ok := c.runners.get(e.Alloc.ID); ok {
			ar.AcknowledgeState(e.Alloc.SharedClientState())
		}
	}
	return syncpolicy.TickInterval, true
}

// tickBuffer applies Buffer.Tick with each entry classified by its
// runner's GetUpdatePriority. The classification runs without the buffer
// lock (a runner may hold its own lock while it calls AllocStateUpdated;
// see the lock-order note on syncpolicy.Buffer) on copies of the buffered
// updates; if the buffer changed meanwhile, it classifies again.
func (c *Client) tickBuffer() syncpolicy.TickResult {
	contacted := c.contact.done()
	for attempt := 1; ; attempt++ {
		if res, ok := c.updates.tickIdle(contacted); ok {
			return res
		}
		live := c.runners.liveSorted()
		pending, version := c.updates.snapshot(live.ids)
		classes := make(map[string]syncpolicy.Class, len(pending))
		for i, id := range live.ids { // alloc-ID order (DET-2)
			if u, ok := pending[id]; ok {
				classes[id] = syncpolicy.Class{Priority: live.ars[i].GetUpdatePriority(u), HasRunner: true}
			}
		}
		in := syncpolicy.TickInput{ServersContacted: contacted, Classify: classifySnapshot(pending, classes, live.ids)}
		if res, ok := c.updates.tick(in, version, attempt >= maxClassifyAttempts); ok {
			return res
		}
	}
}
