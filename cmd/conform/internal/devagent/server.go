package devagent

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
)

// simServer is what the adapter needs from *server.Server.
type simServer interface {
	RegisterJob(job *structs.Job) ([]*structs.Allocation, error)
	Alloc(id string) *structs.Allocation
	Allocs() []*structs.Allocation
	Index() uint64
	Call(ctx context.Context, method string, args, reply any) error
}

var _ simServer = (*server.Server)(nil)

// serverAdapter makes the simulated server the agent's agent.Server.
type serverAdapter struct {
	srv simServer

	mu    sync.Mutex
	evals *rand.Rand // draws evaluation IDs; guarded by mu
}

var _ agent.Server = (*serverAdapter)(nil)

func newServerAdapter(srv simServer, evals *rand.Rand) *serverAdapter {
	return &serverAdapter{srv: srv, evals: evals}
}

// RegisterJob registers and places the job (API-4). The simulated server
// creates no evaluation, so the eval ID is drawn here; both indexes are
// the log index of the registration: the highest AllocModifyIndex of the
// allocs it placed or updated in place, or the server's index when it
// touched none (a group count of 0). The server's error, already wrapping
// its joined validation failures, is returned as is.
func (s *serverAdapter) RegisterJob(job *structs.Job) (string, uint64, uint64, error) {
	allocs, err := s.srv.RegisterJob(job)
	if err != nil {
		return "", 0, 0, err
	}
	var index uint64
	for _, a := range allocs {
		index = max(index, a.AllocModifyIndex)
	}
	if index == 0 {
		index = s.srv.Index()
	}
	s.mu.Lock()
	id := seeds.ID(s.evals)
	s.mu.Unlock()
	return id, index, index, nil
}

// JobAllocations returns the job's allocs, sorted by ID. The dev server
// never deregisters a job, so there are no allocs of an earlier job with
// the same ID and all makes no difference.
func (s *serverAdapter) JobAllocations(jobID string, _ bool) []*structs.Allocation {
	return s.filter(func(a *structs.Allocation) bool { return a.JobID == jobID })
}

// Alloc returns one alloc, with its Job.
func (s *serverAdapter) Alloc(id string) (*structs.Allocation, bool) {
	a := s.srv.Alloc(id)
	return a, a != nil
}

// AllocsByPrefix returns the allocs whose ID starts with prefix, sorted
// by ID (API-5).
func (s *serverAdapter) AllocsByPrefix(prefix string) []*structs.Allocation {
	return s.filter(func(a *structs.Allocation) bool { return strings.HasPrefix(a.ID, prefix) })
}

// RPC calls a server RPC (API-7: ClientAllocations.*).
func (s *serverAdapter) RPC(method string, args, reply any) error {
	return s.srv.Call(context.Background(), method, args, reply)
}

func (s *serverAdapter) filter(keep func(*structs.Allocation) bool) []*structs.Allocation {
	all := s.srv.Allocs() // copies, sorted by ID
	return slices.DeleteFunc(all, func(a *structs.Allocation) bool { return a == nil || !keep(a) })
}
