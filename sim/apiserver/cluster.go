package apiserver

import (
	"errors"
	"fmt"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/server"
)

// The agent.Cluster part (issue 14): the simulated server's records,
// passed through, with the evaluation IDs of deregistrations and alloc
// stops drawn from the adapter's source like those of registrations.

// JobRecords returns the registered jobs whose ID starts with prefix,
// sorted by ID.
func (s *Server) JobRecords(prefix string) []*records.Job { return s.srv.JobRecords(prefix) }

// JobRecord returns one registered job, or nil.
func (s *Server) JobRecord(id string) *records.Job { return s.srv.JobRecord(id) }

// DeregisterJob stops (with purge: removes) a job; an unknown one is
// agent.ErrJobNotFound.
func (s *Server) DeregisterJob(id string, purge bool) (records.Eval, uint64, error) {
	d, err := s.srv.DeregisterJob(id, purge, s.drawEvalID)
	if errors.Is(err, server.ErrJobNotFound) {
		return records.Eval{}, 0, fmt.Errorf("%w: %q", agent.ErrJobNotFound, id)
	}
	if err != nil {
		return records.Eval{}, 0, err
	}
	return d.Eval, d.JobModifyIndex, nil
}

// StopAlloc sets one alloc to desired stop; an unknown one is
// agent.ErrAllocNotFound.
func (s *Server) StopAlloc(id string) (records.Eval, uint64, error) {
	ev, index, err := s.srv.StopAlloc(id, s.drawEvalID)
	if errors.Is(err, server.ErrAllocNotFound) {
		return records.Eval{}, 0, fmt.Errorf("%w: %q", agent.ErrAllocNotFound, id)
	}
	return ev, index, err
}

// Evaluations returns every evaluation, in creation order.
func (s *Server) Evaluations() []records.Eval { return s.srv.EvalRecords() }

// EvalAllocations returns the allocs an evaluation placed or updated.
func (s *Server) EvalAllocations(evalID string) []*structs.Allocation {
	return s.srv.EvalAllocs(evalID)
}

// AllocRecord returns what the server recorded about an alloc's placement.
func (s *Server) AllocRecord(id string) records.Alloc { return s.srv.AllocRecord(id) }

// Nodes returns the registered nodes, sorted by ID.
func (s *Server) Nodes() []records.Node { return s.srv.NodeRecords() }
