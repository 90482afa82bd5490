package agent

import (
	"errors"

	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
)

// Cluster is the optional part of a Server behind the endpoints Nomad's CLI
// reads beyond SPEC §5 (project issue 14): job records and their
// deregistration, evaluations, alloc stops and nodes. A Server without it
// serves none of those routes (404) and its allocs without their evaluation
// or job version. Like Server, implementations must be safe for concurrent
// use and must not retain or keep mutating what they are given or return.
type Cluster interface {
	// JobRecords returns the registered jobs whose ID starts with prefix,
	// sorted by ID.
	JobRecords(prefix string) []*records.Job
	// JobRecord returns one registered job, or nil.
	JobRecord(id string) *records.Job
	// DeregisterJob stops a job (desired stop for its allocs, the job
	// marked stopped) and with purge removes it; it answers the
	// `job-deregister` evaluation and the stopped job's JobModifyIndex. An
	// unknown job is an error wrapping ErrJobNotFound.
	DeregisterJob(id string, purge bool) (eval records.Eval, jobModifyIndex uint64, err error)
	// Evaluations returns every evaluation, in creation order.
	Evaluations() []records.Eval
	// EvalAllocations returns the allocs an evaluation placed or updated.
	EvalAllocations(evalID string) []*structs.Allocation
	// StopAlloc sets one alloc to desired stop and answers the `alloc-stop`
	// evaluation and the index of the stop. An unknown alloc is an error
	// wrapping ErrAllocNotFound.
	StopAlloc(id string) (eval records.Eval, index uint64, err error)
	// AllocRecord returns what the server recorded about an alloc's
	// placement (zero if nothing).
	AllocRecord(id string) records.Alloc
	// Nodes returns the registered nodes, sorted by ID.
	Nodes() []records.Node
}

// ErrAllocNotFound marks a stop of an unknown alloc.
var ErrAllocNotFound = errors.New(MsgAllocNotFound)

// cluster returns the server's Cluster part, if it has one.
func (h *Handler) cluster() (Cluster, bool) {
	c, ok := h.server.(Cluster)
	return c, ok
}
