package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// GetClientAllocs is Node.GetClientAllocs, a blocking query: once the
// node's alloc index exceeds MinQueryIndex it returns that index and the
// AllocModifyIndex of every alloc placed on the node, by ID; after
// MaxQueryTime without a change it returns the current map; it ends with
// an error when ctx is done (the caller's connection closed) or the node
// is unknown. The client fetches the allocs themselves with GetAllocs.
func (s *Server) GetClientAllocs(ctx context.Context, args *structs.NodeClientAllocsRequest, reply *structs.NodeClientAllocsIndexResponse) error {
	var timeout <-chan struct{}
	for {
		s.mu.Lock()
		n, ok := s.nodes[args.NodeID]
		if !ok {
			s.mu.Unlock()
			if args.NodeID == "" {
				return errors.New(syncpolicy.MsgMissingNodeID)
			}
			return fmt.Errorf(syncpolicy.MsgNodeNotFound, args.NodeID)
		}
		if n.index > args.MinQueryIndex || timedOut(timeout) {
			reply.Index = n.index
			reply.Allocs = s.nodeAllocIndexes(n.id)
			s.mu.Unlock()
			return nil
		}
		changed := n.changed
		s.mu.Unlock()
		if timeout == nil {
			fired := make(chan struct{})
			tm := s.cfg.Clock.AfterFunc(s.cfg.MaxQueryTime, func() { close(fired) })
			defer tm.Stop()
			timeout = fired
		}
		select {
		case <-changed:
		case <-timeout:
		case <-ctx.Done():
			return errors.New("rpc call abandoned by the caller")
		}
	}
}

// GetAllocs is Alloc.GetAllocs: the requested allocs the server has, in
// request order (an unknown ID is left out: the caller checks it got what
// it asked for), with the server's log index. It answers at once: the
// simulated server is one server, whose state always holds what a
// GetClientAllocs reply listed, so MinQueryIndex is always reached. The
// reply's allocs are the server's own (never changed once stored): the
// caller must copy them before changing anything, as the transport does.
func (s *Server) GetAllocs(args *structs.AllocsGetRequest, reply *structs.AllocsGetResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	reply.Index = s.index
	reply.Allocs = make([]*structs.Allocation, 0, len(args.AllocIDs))
	for _, id := range args.AllocIDs {
		if a, ok := s.allocs[id]; ok {
			reply.Allocs = append(reply.Allocs, a)
		}
	}
	return nil
}

func timedOut(ch <-chan struct{}) bool {
	if ch == nil {
		return false
	}
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// nodeAllocIndexes returns the AllocModifyIndex of each alloc placed on
// the node, by ID, with the lock held.
func (s *Server) nodeAllocIndexes(nodeID string) map[string]uint64 {
	ids := s.byNode[nodeID]
	out := make(map[string]uint64, len(ids))
	for _, id := range ids {
		out[id] = s.allocs[id].AllocModifyIndex
	}
	return out
}

// edit replaces a stored alloc with a shallow copy and returns the copy,
// for the caller to change, with the lock held. Stored allocs are
// copy-on-write: nothing reachable from one is changed after it is
// stored (fields are replaced, never mutated through), so replies that
// share them (GetAllocs) stay valid.
func (s *Server) edit(a *structs.Allocation) *structs.Allocation {
	c := *a
	s.allocs[c.ID] = &c
	return &c
}

// Alloc returns a copy of an alloc, or nil.
func (s *Server) Alloc(id string) *structs.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allocs[id].Copy()
}

// SharedAlloc is Alloc without the copy: the stored alloc itself, to be
// read and never changed. Stored allocs are copy-on-write (edit), so it
// stays as it is when the server changes the alloc. For checks that read
// allocs at every settled instant (deep-copying the alloc and its job
// there was 4 % of a conformance check's allocations).
func (s *Server) SharedAlloc(id string) *structs.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allocs[id]
}

// AllocCount returns how many allocs the server holds: len(Allocs())
// without copying them (a cluster of 1,000 clients holds 50,000).
func (s *Server) AllocCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.allocs)
}

// Allocs returns copies of every alloc, sorted by ID.
func (s *Server) Allocs() []*structs.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*structs.Allocation, 0, len(s.allocs))
	for _, a := range s.allocs {
		out = append(out, a.Copy())
	}
	slices.SortFunc(out, func(a, b *structs.Allocation) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// AllocByName returns a copy of the newest alloc (highest CreateIndex)
// named name ("<job>.<group>[<i>]"), or nil.
func (s *Server) AllocByName(name string) *structs.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	var best *structs.Allocation
	for _, a := range s.allocs {
		if a.Name == name && (best == nil || a.CreateIndex > best.CreateIndex ||
			(a.CreateIndex == best.CreateIndex && a.ID < best.ID)) {
			best = a
		}
	}
	return best.Copy()
}

// Job returns a copy of a registered job, or nil.
func (s *Server) Job(id string) *structs.Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec, ok := s.jobs[id]; ok {
		return rec.Job.Copy()
	}
	return nil
}

// Index is the server's latest log index.
func (s *Server) Index() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.index
}

// NodeAllocIDs returns the IDs of the allocs placed on a node, sorted.
func (s *Server) NodeAllocIDs(nodeID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(slices.Values(s.byNode[nodeID]))
}
