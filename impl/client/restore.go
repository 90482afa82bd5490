package client

import (
	"fmt"
	"maps"
	"slices"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// restore is STATE-3, run by Start before any loop:
//
//  1. load the allocs (sorted by ID); undecodable ones are logged and
//     skipped;
//  2. an alloc with no task state for any of its group's tasks has its
//     bucket deleted and is skipped;
//  3. build the runner by factory (no-op watcher and migrator); an error
//     reports the alloc failed;
//  4. Restore(); an error sets ClientStatus failed and destroys the runner
//     (in a goroutine the client owns; the alloc is not rebuilt while the
//     servers keep it here);
//  5. hand an acknowledged state to AcknowledgeState;
//  6. register every restored runner, then Run each, in ID order.
//
// Only a failure to list the allocs at all is returned.
func (c *Client) restore() error {
	allocs, undecodable, err := c.opts.StateDB.GetAllAllocations()
	if err != nil {
		return fmt.Errorf("restore allocs: %w", err)
	}
	for _, id := range slices.Sorted(maps.Keys(undecodable)) {
		c.logger.Error("skipping undecodable alloc", "alloc_id", id, "error", undecodable[id])
	}
	type restored struct {
		alloc *structs.Allocation
		ar    interfaces.AllocRunner
	}
	var ok []restored
	for _, alloc := range allocs {
		if !c.hasTaskState(alloc) {
			if err := c.opts.StateDB.DeleteAllocationBucket(alloc.ID); err != nil {
				c.logger.Error("deleting alloc without task state failed", "alloc_id", alloc.ID, "error", err)
			}
			continue
		}
		ar, built := c.build(alloc.CopySkipJob(), c.nextRunnerRand())
		if !built {
			continue
		}
		if err := ar.Restore(); err != nil {
			c.logger.Error("restoring alloc runner failed", "alloc_id", alloc.ID, "error", err)
			ar.SetClientStatus(structs.AllocClientStatusFailed)
			c.runners.markFailed(alloc.ID)
			c.goDestroy(ar, c.runners.addRetiring(ar))
			continue
		}
		acked, err := c.opts.StateDB.GetAcknowledgedState(alloc.ID)
		switch {
		case err != nil:
			c.logger.Error("reading acknowledged state failed", "alloc_id", alloc.ID, "error", err)
		case acked != nil:
			ar.AcknowledgeState(acked)
		}
		ok = append(ok, restored{alloc: alloc, ar: ar})
	}
	for _, r := range ok {
		c.runners.add(r.alloc.ID, r.ar, r.alloc.AllocModifyIndex)
	}
	for _, r := range ok {
		c.goRun(r.ar)
	}
	return nil
}

// hasTaskState reports whether any task of the alloc's group has a
// persisted task state (STATE-3 step 2). A task whose state cannot be read
// counts as having one, so that the runner's Restore reports the error.
func (c *Client) hasTaskState(alloc *structs.Allocation) bool {
	tg := alloc.LookupTaskGroup()
	if tg == nil {
		return false
	}
	for _, task := range tg.Tasks {
		if task == nil {
			continue
		}
		_, ts, err := c.opts.StateDB.GetTaskRunnerState(alloc.ID, task.Name)
		if err != nil {
			c.logger.Error("reading task state failed", "alloc_id", alloc.ID, "task", task.Name, "error", err)
			return true
		}
		if ts != nil {
			return true
		}
	}
	return false
}
