package agent

import (
	"errors"
	"net/http"

	"github.com/allocsim/allocsim/model/structs"
)

// Cluster is the optional part of a Server behind the endpoints Nomad's CLI
// reads beyond SPEC §5 (project issue 14): job records and their
// deregistration, evaluations, alloc stops and nodes. A Server without it
// serves none of those paths (404) and its allocs without their evaluation
// or job version. Like Server, implementations must be safe for concurrent
// use and must not retain or keep mutating what they are given or return.
type Cluster interface {
	// JobRecords returns the registered jobs whose ID starts with prefix,
	// sorted by ID.
	JobRecords(prefix string) []*structs.JobRecord
	// JobRecord returns one registered job, or nil.
	JobRecord(id string) *structs.JobRecord
	// DeregisterJob stops a job (desired stop for its allocs, the job
	// marked stopped) and with purge removes it; it answers the
	// `job-deregister` evaluation and the stopped job's JobModifyIndex. An
	// unknown job is an error wrapping ErrJobNotFound.
	DeregisterJob(id string, purge bool) (eval structs.EvalRecord, jobModifyIndex uint64, err error)
	// Evaluations returns every evaluation, in creation order.
	Evaluations() []structs.EvalRecord
	// EvalAllocations returns the allocs an evaluation placed or updated.
	EvalAllocations(evalID string) []*structs.Allocation
	// StopAlloc sets one alloc to desired stop and answers the `alloc-stop`
	// evaluation and the index of the stop. An unknown alloc is an error
	// wrapping ErrAllocNotFound.
	StopAlloc(id string) (eval structs.EvalRecord, index uint64, err error)
	// AllocRecord returns what the server recorded about an alloc's
	// placement (zero if nothing).
	AllocRecord(id string) structs.AllocRecord
	// Nodes returns the registered nodes, sorted by ID.
	Nodes() []structs.NodeRecord
}

// ErrAllocNotFound marks a stop of an unknown alloc.
var ErrAllocNotFound = errors.New(MsgAllocNotFound)

// cluster returns the server's Cluster part, if it has one.
func (h *Handler) cluster() (Cluster, bool) {
	c, ok := h.server.(Cluster)
	return c, ok
}

// routeNomad routes the endpoints of issue 14 (the route table in
// ServeHTTP); false leaves the request to the SPEC §5 table.
func (h *Handler) routeNomad(r *http.Request, segs []string) (endpoint, bool) {
	get := func(ep endpoint) endpoint { return methods(r, ep, http.MethodGet) }
	write := func(ep endpoint) endpoint { return methods(r, ep, http.MethodPut, http.MethodPost) }
	n := len(segs)
	switch {
	case n == 3 && segs[1] == "agent" && segs[2] == "self":
		return get(h.agentSelf), true
	case n == 3 && segs[1] == "agent" && segs[2] == "members":
		return get(h.agentMembers), true
	case n == 3 && segs[1] == "status" && segs[2] == "leader":
		return get(h.statusLeader), true
	case n == 3 && segs[1] == "status" && segs[2] == "peers":
		return get(h.statusPeers), true
	case n == 2 && segs[1] == "regions":
		return get(h.regions), true
	case n == 3 && segs[1] == "validate" && segs[2] == "job":
		return write(h.validateJob), true
	case n == 4 && segs[1] == "job" && segs[3] == "plan":
		return write(bind(h.planJob, segs[2])), true
	case n == 5 && segs[1] == "client" && segs[2] == "allocation" && segs[4] == "restart":
		return write(bind(h.restart, segs[3])), true
	}
	if _, ok := h.cluster(); !ok {
		return nil, false
	}
	switch {
	case n == 2 && segs[1] == "jobs" && r.Method == http.MethodGet:
		return h.jobList, true
	case n == 3 && segs[1] == "job":
		if r.Method == http.MethodDelete {
			return bind(h.jobDeregister, segs[2]), true
		}
		return get(bind(h.jobInfo, segs[2])), true
	case n == 4 && segs[1] == "job":
		switch segs[3] {
		case "summary":
			return get(bind(h.jobSummary, segs[2])), true
		case "evaluations":
			return get(bind(h.jobEvaluations, segs[2])), true
		case "deployment":
			return get(bind(h.jobDeployment, segs[2])), true
		case "deployments":
			return get(bind(h.jobDeployments, segs[2])), true
		}
	case n == 2 && segs[1] == "evaluations":
		return get(h.evalList), true
	case n == 3 && segs[1] == "evaluation":
		return get(bind(h.evalInfo, segs[2])), true
	case n == 4 && segs[1] == "evaluation" && segs[3] == "allocations":
		return get(bind(h.evalAllocations, segs[2])), true
	case n == 4 && segs[1] == "allocation" && segs[3] == "stop":
		return write(bind(h.allocStop, segs[2])), true
	case n == 2 && segs[1] == "search":
		return write(h.search), true
	case n == 2 && segs[1] == "nodes":
		return get(h.nodeList), true
	case n == 3 && segs[1] == "node":
		return get(bind(h.nodeInfo, segs[2])), true
	case n == 4 && segs[1] == "node" && segs[3] == "allocations":
		return get(bind(h.nodeAllocations, segs[2])), true
	}
	return nil, false
}
