package server

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/allocsim/allocsim/internal/allocjson"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/trace"
)

// Eval triggers the server creates for terminal client updates (SYNC-4).
const (
	TriggerAllocFailure  = "alloc-failure"
	TriggerJobDeregister = "job-deregister"
)

// Received is one state of an alloc the server received from its client.
type Received struct {
	// At is the virtual instant the update reached the server.
	At time.Time
	// CommittedAt is the instant of the log entry that stored it.
	CommittedAt time.Time
	// Index is that log entry's index.
	Index uint64
	// State is the client-computed state received.
	State *structs.AllocState
}

// Stats counts the client-update traffic the server committed.
type Stats struct {
	// UpdateAllocCalls counts accepted Node.UpdateAlloc calls; Rejected
	// those refused by the SYNC-4 checks.
	UpdateAllocCalls int
	Rejected         int
	// AllocUpdates counts the allocs in accepted calls; UnknownAllocs
	// those the server did not know (ignored).
	AllocUpdates  int
	UnknownAllocs int
	// LogEntries is the number of log entries client updates made (one
	// per 50 ms batch) and LogBytes their JSON-encoded size: the "Raft
	// traffic" figure.
	LogEntries int
	LogBytes   int
}

type pendingUpdate struct {
	req      *structs.AllocUpdateRequest
	received time.Time
	done     chan struct{}
	index    uint64
}

// UpdateAlloc is Node.UpdateAlloc (SYNC-4; see the package doc). It
// returns once the request's batch committed, or with the caller's
// context error if the caller went away first (the update still commits).
// The server keeps args' allocs' client state (task states, deployment
// and network status) as its own: the caller hands args over and must
// not change them afterwards, as the transport's copy never is.
func (s *Server) UpdateAlloc(ctx context.Context, args *structs.AllocUpdateRequest, reply *structs.GenericResponse) error {
	s.mu.Lock()
	in := syncpolicy.UpdateAllocRequest{Allocs: len(args.Alloc), EvalsSet: len(args.Evals) > 0}
	if len(args.Alloc) > 0 && args.Alloc[0] != nil {
		in.NodeID = args.Alloc[0].NodeID
	}
	if n, ok := s.nodes[in.NodeID]; ok {
		in.NodeFound, in.NodeStatus = true, n.status
	}
	if err := syncpolicy.ValidateUpdateAlloc(in); err != nil {
		s.stats.Rejected++
		s.mu.Unlock()
		return err
	}
	now := s.cfg.Clock.Now()
	for _, a := range args.Alloc {
		if a != nil {
			a.ModifyTime = now.UnixNano()
		}
	}
	p := &pendingUpdate{req: args, received: now, done: make(chan struct{})}
	s.batch = append(s.batch, p)
	s.stats.UpdateAllocCalls++
	if len(s.batch) == 1 {
		s.cfg.Clock.AfterFunc(syncpolicy.CommitWindow, s.commit)
	}
	s.mu.Unlock()

	select {
	case <-p.done:
		reply.Index = p.index
		return nil
	case <-ctx.Done():
		return errors.New("rpc call abandoned by the caller")
	}
}

// commit stores the pending batch as one log entry (SYNC-4 step 3).
func (s *Server) commit() {
	s.mu.Lock()
	batch := s.batch
	s.batch = nil
	var all []*structs.Allocation
	for _, p := range batch {
		all = append(all, p.req.Alloc...)
	}
	// A new log index, but not a new node alloc index: client updates do
	// not change what the node's pull returns it cares about (desired
	// state, AllocModifyIndex), so they do not wake its blocking query.
	s.index++
	idx := s.index
	now := s.cfg.Clock.Now()
	// json.Marshal's bytes, counted without keeping them.
	size, err := allocjson.ListLen(all)
	if err != nil {
		size = 0
	}
	s.stats.LogEntries++
	s.stats.LogBytes += size
	type evalKey struct{ ns, job string }
	evals := map[evalKey]string{}
	var evalOrder []evalKey
	var ids []string
	for _, p := range batch {
		for _, u := range p.req.Alloc {
			if u == nil {
				continue
			}
			s.stats.AllocUpdates++
			stored, ok := s.allocs[u.ID]
			if !ok || stored.NodeID != u.NodeID {
				s.stats.UnknownAllocs++
				continue
			}
			wasTerminal := stored.ClientTerminal()
			stored = s.edit(stored)
			stored.ClientStatus = u.ClientStatus
			stored.ClientDescription = u.ClientDescription
			// The update is the server's own (UpdateAlloc), and what it
			// stores is never changed in place: the stored alloc and
			// the history share the update's client state.
			state := u.SharedClientState()
			shareReceived(state, stored.TaskStates) // the last state received
			stored.TaskStates = state.TaskStates
			stored.DeploymentStatus = state.DeploymentStatus
			stored.NetworkStatus = state.NetworkStatus
			stored.ModifyIndex = idx
			stored.ModifyTime = u.ModifyTime
			if !s.cfg.DiscardHistory {
				s.history[u.ID] = append(s.history[u.ID], Received{
					At: p.received, CommittedAt: now, Index: idx, State: state,
				})
			}
			ids = append(ids, u.ID)
			if trigger := evalTrigger(stored, wasTerminal); trigger != "" {
				k := evalKey{stored.Namespace, stored.JobID}
				if _, seen := evals[k]; !seen {
					evals[k] = trigger
					evalOrder = append(evalOrder, k)
				}
			}
		}
	}
	for _, k := range evalOrder {
		ev := &structs.Evaluation{ID: s.newID(), Namespace: k.ns, JobID: k.job, TriggeredBy: evals[k]}
		s.evals = append(s.evals, ev)
		s.recordClientEval(ev, idx)
		s.emit(trace.KindServer, "", "eval", ev.TriggeredBy, ev)
	}
	s.emit(trace.KindServer, "", "commit", "", map[string]any{"index": idx, "allocs": ids, "bytes": size, "calls": len(batch)})
	s.mu.Unlock()
	for _, p := range batch {
		p.index = idx
		close(p.done)
	}
}

// recordClientEval records a SYNC-4 eval for the API (EvalRecords), with
// the lock held; the eval itself is traced as it was.
func (s *Server) recordClientEval(ev *structs.Evaluation, idx uint64) {
	job := &structs.Job{ID: ev.JobID, Namespace: ev.Namespace}
	var jobModifyIndex uint64
	if rec, ok := s.jobs[ev.JobID]; ok && rec.Job.Namespace == ev.Namespace {
		job.Type, jobModifyIndex = rec.Job.Type, rec.JobModifyIndex
	}
	s.recordEval(ev.ID, job, ev.TriggeredBy, jobModifyIndex, idx)
}

// evalTrigger is the eval a client update of stored (already applied)
// creates: one when it newly became client-terminal.
func evalTrigger(stored *structs.Allocation, wasTerminal bool) string {
	if wasTerminal || !stored.ClientTerminal() {
		return ""
	}
	if stored.ClientStatus == structs.AllocClientStatusFailed {
		return TriggerAllocFailure
	}
	if stored.ServerTerminal() {
		return TriggerJobDeregister
	}
	return ""
}

// History returns the states the server received for an alloc, oldest
// first, from the from-th on (0: all of them; past the end: none; none
// at all with Config.DiscardHistory). The
// slice is the caller's; the states are the server's own, never changed
// once received (the stored alloc and the next entry share them), so
// they are shared: read them, never change them (copying them at every
// read was 1.7 % of a conformance check's allocations). A check that
// reads it at every settled instant passes what it has read already
// minus the one it compares with.
func (s *Server) History(allocID string, from int) []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.history[allocID]
	return slices.Clone(h[min(max(from, 0), len(h)):])
}

// Stats returns the traffic counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Evals returns the evals created, in creation order.
func (s *Server) Evals() []structs.Evaluation {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]structs.Evaluation, len(s.evals))
	for i, e := range s.evals {
		out[i] = *e
	}
	return out
}
