package concurrent

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
)

// pollWait is how long the server holds a Node.GetClientAllocs call whose
// index has not moved: short, so that a client's Shutdown that waits for
// the call in flight (a plain RPCClient cannot be cancelled) waits little.
const pollWait = 3 * time.Millisecond

// server is the one server of a client check: it answers the alloc pull
// from the allocs placed on the node and accepts every update.
type server struct {
	w   *watch
	clk clock.Clock

	mu      sync.Mutex
	index   uint64
	allocs  map[string]*structs.Allocation // placed on the node, by ID
	changed chan struct{}                  // closed when index moves
	updates int                            // Node.UpdateAlloc calls
}

func newServer(w *watch, clk clock.Clock, allocs []*structs.Allocation) *server {
	s := &server{w: w, clk: clk, index: 1, allocs: map[string]*structs.Allocation{}, changed: make(chan struct{})}
	for _, a := range allocs {
		s.allocs[a.ID] = a
	}
	return s
}

// change applies f to the placed allocs under a new index.
func (s *server) change(f func(index uint64, allocs map[string]*structs.Allocation)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.index++
	f(s.index, s.allocs)
	close(s.changed)
	s.changed = make(chan struct{})
}

// RPC implements interfaces.RPCClient.
func (s *server) RPC(method string, args, reply any) error {
	defer s.w.enter("RPC " + method)()
	switch method {
	case structs.RPCNodeGetClientAllocs:
		req, ok1 := args.(*structs.NodeClientAllocsRequest)
		resp, ok2 := reply.(*structs.NodeClientAllocsIndexResponse)
		if !ok1 || !ok2 {
			return fmt.Errorf("%s: args %T, reply %T", method, args, reply)
		}
		s.pull(req.MinQueryIndex, resp)
		return nil
	case structs.RPCAllocGetAllocs:
		req, ok1 := args.(*structs.AllocsGetRequest)
		resp, ok2 := reply.(*structs.AllocsGetResponse)
		if !ok1 || !ok2 {
			return fmt.Errorf("%s: args %T, reply %T", method, args, reply)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		resp.Index = s.index
		for _, id := range req.AllocIDs {
			if a, ok := s.allocs[id]; ok {
				resp.Allocs = append(resp.Allocs, a.Copy())
			}
		}
		return nil
	case structs.RPCNodeUpdateAlloc:
		s.mu.Lock()
		defer s.mu.Unlock()
		s.updates++
		if resp, ok := reply.(*structs.GenericResponse); ok {
			resp.Index = s.index
		}
		return nil
	}
	return fmt.Errorf("unknown server method %q", method)
}

// pull answers Node.GetClientAllocs once the index passed min, or after
// pollWait.
func (s *server) pull(min uint64, resp *structs.NodeClientAllocsIndexResponse) {
	s.mu.Lock()
	ch := s.changed
	moved := s.index > min
	s.mu.Unlock()
	if !moved {
		t := s.clk.Timer(pollWait)
		select {
		case <-ch:
		case <-t.C:
		}
		t.Stop()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	resp.Index = s.index
	resp.Allocs = make(map[string]uint64, len(s.allocs))
	for _, id := range slices.Sorted(maps.Keys(s.allocs)) {
		resp.Allocs[id] = s.allocs[id].AllocModifyIndex
	}
}
