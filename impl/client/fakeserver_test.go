package client

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
)

var (
	errServerClosed = errors.New("fake server: closed")
	errInjected     = errors.New("fake server: injected failure")
)

// updateCall is one Node.UpdateAlloc the fake server received.
type updateCall struct {
	at     time.Duration // virtual time since the rig's start
	req    structs.AllocUpdateRequest
	failed bool
}

// pullCall is one Node.GetClientAllocs the fake server received.
type pullCall struct {
	at       time.Duration
	minIndex uint64
}

// fetchCall is one Alloc.GetAllocs the fake server received.
type fetchCall struct {
	at       time.Duration
	ids      []string
	minIndex uint64
}

// fakeServer is an RPCClient that serves Node.GetClientAllocs as a
// blocking query over its alloc set (an index map) and Alloc.GetAllocs,
// and records every Node.UpdateAlloc with its virtual time. Its waits are channel operations, so goroutines
// blocked in it are durably blocked for synctest.
type fakeServer struct {
	clk   clock.Clock
	start time.Time

	mu      sync.Mutex
	index   uint64
	allocs  map[string]*structs.Allocation
	changed chan struct{} // closed and replaced on every change
	closed  chan struct{}
	// pullDown, while non-nil, holds every pull until it is closed.
	pullDown chan struct{}
	// noBlock answers pulls at once, whatever their MinQueryIndex.
	noBlock bool
	// pullErrs fails that many next pulls.
	pullErrs int
	// fetchErrs fails that many next Alloc.GetAllocs calls.
	fetchErrs int
	// failUpdates fails that many next UpdateAlloc calls.
	failUpdates int
	// hang, while non-nil, holds every UpdateAlloc until it is closed.
	hang    chan struct{}
	updates []updateCall
	pulls   []pullCall
	fetches []fetchCall
}

func newFakeServer(clk clock.Clock) *fakeServer {
	return &fakeServer{
		clk: clk, start: clk.Now(), index: 1,
		allocs:  map[string]*structs.Allocation{},
		changed: make(chan struct{}), closed: make(chan struct{}),
	}
}

// ctxServer is the fake server as a ContextRPCClient.
type ctxServer struct{ *fakeServer }

func (s ctxServer) RPCContext(ctx context.Context, method string, args, reply any) error {
	return s.call(ctx.Done(), method, args, reply)
}

func (s *fakeServer) RPC(method string, args, reply any) error {
	return s.call(nil, method, args, reply)
}

func (s *fakeServer) call(cancel <-chan struct{}, method string, args, reply any) error {
	switch method {
	case structs.RPCNodeGetClientAllocs:
		return s.getClientAllocs(cancel, args.(*structs.NodeClientAllocsRequest), reply.(*structs.NodeClientAllocsIndexResponse))
	case structs.RPCAllocGetAllocs:
		return s.getAllocs(args.(*structs.AllocsGetRequest), reply.(*structs.AllocsGetResponse))
	case structs.RPCNodeUpdateAlloc:
		return s.updateAlloc(cancel, args.(*structs.AllocUpdateRequest), reply.(*structs.GenericResponse))
	}
	return errors.New("fake server: unknown method " + method)
}

func (s *fakeServer) now() time.Duration { return s.clk.Now().Sub(s.start) }

func (s *fakeServer) getClientAllocs(cancel <-chan struct{}, req *structs.NodeClientAllocsRequest, resp *structs.NodeClientAllocsIndexResponse) error {
	s.mu.Lock()
	s.pulls = append(s.pulls, pullCall{at: s.now(), minIndex: req.MinQueryIndex})
	for {
		if down := s.pullDown; down != nil {
			s.mu.Unlock()
			select {
			case <-down:
			case <-s.closed:
				return errServerClosed
			case <-cancel:
				return context.Canceled
			}
			s.mu.Lock()
			continue
		}
		if s.pullErrs > 0 {
			s.pullErrs--
			s.mu.Unlock()
			return errInjected
		}
		if s.noBlock || s.index > req.MinQueryIndex {
			break
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-s.closed:
			return errServerClosed
		case <-cancel:
			return context.Canceled
		}
		s.mu.Lock()
	}
	defer s.mu.Unlock()
	resp.Index = s.index
	resp.Allocs = map[string]uint64{}
	for id, a := range s.allocs {
		resp.Allocs[id] = a.AllocModifyIndex
	}
	return nil
}

// getAllocs answers at once with copies of the requested allocs it has,
// in request order.
func (s *fakeServer) getAllocs(req *structs.AllocsGetRequest, resp *structs.AllocsGetResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fetches = append(s.fetches, fetchCall{at: s.now(), ids: slices.Clone(req.AllocIDs), minIndex: req.MinQueryIndex})
	if s.fetchErrs > 0 {
		s.fetchErrs--
		return errInjected
	}
	resp.Index = s.index
	for _, id := range req.AllocIDs {
		if a, ok := s.allocs[id]; ok {
			resp.Allocs = append(resp.Allocs, a.Copy())
		}
	}
	return nil
}

func (s *fakeServer) updateAlloc(cancel <-chan struct{}, req *structs.AllocUpdateRequest, resp *structs.GenericResponse) error {
	s.mu.Lock()
	call := updateCall{at: s.now(), req: *req}
	call.req.Alloc = make([]*structs.Allocation, len(req.Alloc))
	for i, a := range req.Alloc {
		call.req.Alloc[i] = a.Copy()
	}
	hang := s.hang
	s.mu.Unlock()
	if hang != nil {
		select {
		case <-hang:
		case <-s.closed:
			return errServerClosed
		case <-cancel:
			return context.Canceled
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failUpdates > 0 {
		s.failUpdates--
		call.failed = true
		s.updates = append(s.updates, call)
		return errInjected
	}
	s.updates = append(s.updates, call)
	s.index++
	resp.Index = s.index
	return nil
}

// put adds or replaces allocs and wakes blocked pulls.
func (s *fakeServer) put(allocs ...*structs.Allocation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range allocs {
		s.allocs[a.ID] = a.Copy()
	}
	s.bumpLocked()
}

// remove deletes allocs and wakes blocked pulls.
func (s *fakeServer) remove(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		delete(s.allocs, id)
	}
	s.bumpLocked()
}

func (s *fakeServer) bumpLocked() {
	s.index++
	close(s.changed)
	s.changed = make(chan struct{})
}

// closeOnce fails every waiting and later call with errServerClosed.
func (s *fakeServer) closeOnce() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.closed:
	default:
		close(s.closed)
	}
}

func (s *fakeServer) with(fn func(s *fakeServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s)
}

// sent returns the successful UpdateAlloc calls.
func (s *fakeServer) sent() []updateCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []updateCall
	for _, u := range s.updates {
		if !u.failed {
			out = append(out, u)
		}
	}
	return out
}

func (s *fakeServer) allUpdates() []updateCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.updates)
}

func (s *fakeServer) pullCalls() []pullCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.pulls)
}

func (s *fakeServer) fetchCalls() []fetchCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.fetches)
}
