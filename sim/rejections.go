package sim

import (
	"strings"

	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/trace"
)

// clientRejections are the server's answers to a Node.UpdateAlloc whose
// request the client got wrong (SYNC-4's checks that depend on what the
// client sends; a node's status is the server's business and is not
// among them). A faultless client never gets one, so the world reports
// them as the runner's: the harness's own checks must not be what fails
// on a rejected history (linearizability budgets) with the cause lost.
var clientRejections = []string{syncpolicy.MsgNoAllocs, syncpolicy.MsgMissingNodeID, syncpolicy.MsgEvalsSet}

// isClientRejection reports whether err is one of clientRejections or
// SYNC-4's "node <id> not found" (syncpolicy.MsgNodeNotFound).
func isClientRejection(err string) bool {
	for _, r := range clientRejections {
		if strings.HasSuffix(err, r) {
			return true
		}
	}
	prefix, suffix, _ := strings.Cut(syncpolicy.MsgNodeNotFound, "%s")
	_, rest, ok := strings.Cut(err, prefix)
	return ok && strings.HasSuffix(rest, suffix)
}

// reportRejections is the world's verdict on the server's rejections of
// the client's updates, once at Close: how many of its Node.UpdateAlloc
// calls the server rejected, with the first one's instant and error.
func (w *World) reportRejections() {
	// Read in place: SyncCalls would copy every call's states.
	w.sync.mu.Lock()
	total, n := len(w.sync.calls), 0
	var first *SyncCall
	for _, c := range w.sync.calls {
		if c.Returned && isClientRejection(c.Err) {
			if n++; first == nil {
				first = c
			}
		}
	}
	w.sync.mu.Unlock()
	if n == 0 {
		return
	}
	w.violation("SYNC-4 (runner %q, seed %d): the server rejected %d of the client's %d Node.UpdateAlloc calls, the first at %s with %q, want none (a rejected update stores nothing: what the runner pushes must carry what the server checks, e.g. the alloc's NodeID)",
		w.cfg.Factory.Name, w.sc.Seed, n, total, first.Return.UTC().Format(trace.TimeFormat), first.Err)
}
