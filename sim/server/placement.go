package server

import (
	"fmt"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// RegisterJobsOn is RegisterJob for several jobs at once, each placed on
// the node nodeID instead of the placement node: a simulation of many
// clients (sim/cluster) places each job on the node it names. The jobs
// are registered in order under one hold of the server's lock (one
// scheduler pass), so a blocking query of the node wakes once for all of
// them. Everything else is RegisterJob's: admission, in-place updates of
// schedule-only changes, destructive updates (the old allocs stopped, new
// ones placed on nodeID), the job records and the trace records; no
// evaluation is recorded. A job that fails admission, an unknown node or
// one that may not run allocs registers none of them. It returns the
// allocs placed or updated in place, job by job, each job's by ID.
func (s *Server) RegisterJobsOn(nodeID string, jobs ...*structs.Job) ([]*structs.Allocation, error) {
	admitted := make([]*structs.Job, len(jobs))
	for i, job := range jobs {
		a, err := s.admit(job)
		if err != nil {
			return nil, err
		}
		admitted[i] = a
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.nodes[nodeID]
	if !ok {
		return nil, fmt.Errorf("register jobs: "+syncpolicy.MsgNodeNotFound, nodeID)
	}
	if !syncpolicy.NodeMayUpdateAllocs(n.status) {
		return nil, fmt.Errorf("register jobs: node %s is %s", nodeID, n.status)
	}
	var out []*structs.Allocation
	for _, job := range admitted {
		out = append(out, s.registerOn(job, n, nil).Allocs...)
	}
	return out, nil
}
