package apiserver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
)

// EvalStream is the name of the seeds stream a World's adapter draws its
// evaluation IDs from: seeds.Stream(seed, EvalStream).
const EvalStream = "evals"

// Simulated is what the adapter needs from the simulated server;
// *server.Server implements it.
type Simulated interface {
	// RegisterJob admits and places a job, returning the allocs it placed
	// or updated in place.
	RegisterJob(job *structs.Job) ([]*structs.Allocation, error)
	// Alloc returns a copy of one alloc (with its Job), or nil.
	Alloc(id string) *structs.Allocation
	// Allocs returns copies of every alloc, sorted by ID.
	Allocs() []*structs.Allocation
	// Index is the server's latest log index.
	Index() uint64
	// Call is the server's RPC entry point.
	Call(ctx context.Context, method string, args, reply any) error
}

var _ Simulated = (*server.Server)(nil)

// Server is the simulated server as the agent's agent.Server. Build it
// with New; it is safe for concurrent use.
type Server struct {
	srv Simulated

	mu    sync.Mutex
	evals *rand.Rand // draws evaluation IDs; guarded by mu
}

var _ agent.Server = (*Server)(nil)

// New adapts srv. evals draws the evaluation IDs; nil means
// seeds.Stream(0, EvalStream), so the IDs are still deterministic.
func New(srv Simulated, evals *rand.Rand) *Server {
	if evals == nil {
		evals = seeds.Stream(0, EvalStream)
	}
	return &Server{srv: srv, evals: evals}
}

// RegisterJob registers and places the job (API-4). The simulated server
// creates no evaluation, so the eval ID is drawn here; both indexes are
// the log index of the registration: the highest AllocModifyIndex of the
// allocs it placed or updated in place, or the server's index when it
// touched none (a group count of 0). The server's error, already wrapping
// its joined validation failures, is returned as is (the agent serves
// each joined failure as one multierror item).
func (s *Server) RegisterJob(job *structs.Job) (evalID string, evalIndex, jobModifyIndex uint64, err error) {
	allocs, err := s.srv.RegisterJob(job)
	if err != nil {
		return "", 0, 0, err
	}
	index := s.placementIndex(allocs)
	s.mu.Lock()
	evalID = seeds.ID(s.evals)
	s.mu.Unlock()
	return evalID, index, index, nil
}

// placementIndex is a registration's log index: the highest
// AllocModifyIndex of allocs, or the server's index when there are none.
func (s *Server) placementIndex(allocs []*structs.Allocation) uint64 {
	var index uint64
	for _, a := range allocs {
		if a != nil {
			index = max(index, a.AllocModifyIndex)
		}
	}
	if index == 0 {
		index = s.srv.Index()
	}
	return index
}

// JobAllocations returns the job's allocs, sorted by ID (API-5). The
// simulated server never deregisters a job, so no alloc belongs to an
// earlier job of the same ID and all makes no difference: allocs the
// job's destructive updates stopped are listed either way, as Nomad lists
// them.
func (s *Server) JobAllocations(jobID string, _ bool) []*structs.Allocation {
	return s.filter(func(a *structs.Allocation) bool { return a.JobID == jobID })
}

// Alloc returns one alloc, full (with its Job).
func (s *Server) Alloc(id string) (*structs.Allocation, bool) {
	a := s.srv.Alloc(id)
	return a, a != nil
}

// AllocsByPrefix returns the allocs whose ID starts with prefix, sorted
// by ID (API-5); the empty prefix lists every alloc.
func (s *Server) AllocsByPrefix(prefix string) []*structs.Allocation {
	return s.filter(func(a *structs.Allocation) bool { return strings.HasPrefix(a.ID, prefix) })
}

// RPC calls a server RPC (API-7: ClientAllocations.*), with no deadline:
// the simulated server answers forwarded calls without waiting on the
// clock.
func (s *Server) RPC(method string, args, reply any) error {
	return s.srv.Call(context.Background(), method, args, reply)
}

// filter returns the server's allocs that keep holds, sorted by ID.
func (s *Server) filter(keep func(*structs.Allocation) bool) []*structs.Allocation {
	all := s.srv.Allocs() // copies
	all = slices.DeleteFunc(all, func(a *structs.Allocation) bool { return a == nil || !keep(a) })
	slices.SortFunc(all, func(a, b *structs.Allocation) int { return strings.Compare(a.ID, b.ID) })
	return all
}

// Dispatcher is the part of the simulated server that dispatches
// parameterized jobs; *server.Server implements it.
type Dispatcher interface {
	DispatchJob(parentID string, meta map[string]string, payload []byte) (*structs.Job, []*structs.Allocation, error)
}

var (
	_ Dispatcher       = (*server.Server)(nil)
	_ agent.Dispatcher = (*Server)(nil)
)

// DispatchJob dispatches a parameterized job (agent.Dispatcher): the
// simulated server validates the dispatch and registers the child; the
// eval ID is drawn here and the indexes are those of the child's
// registration (RegisterJob). An unknown job is agent.ErrJobNotFound; a
// server without dispatch says so.
func (s *Server) DispatchJob(parentID string, meta map[string]string, payload []byte) (agent.DispatchResult, error) {
	d, ok := s.srv.(Dispatcher)
	if !ok {
		return agent.DispatchResult{}, errors.New("dispatch: this server does not dispatch parameterized jobs")
	}
	child, allocs, err := d.DispatchJob(parentID, meta, payload)
	if errors.Is(err, server.ErrJobNotFound) {
		return agent.DispatchResult{}, fmt.Errorf("%w: %q", agent.ErrJobNotFound, parentID)
	}
	if err != nil {
		return agent.DispatchResult{}, err
	}
	index := s.placementIndex(allocs)
	s.mu.Lock()
	evalID := seeds.ID(s.evals)
	s.mu.Unlock()
	return agent.DispatchResult{DispatchedJobID: child.ID, EvalID: evalID,
		EvalCreateIndex: index, JobCreateIndex: index, Index: index}, nil
}
