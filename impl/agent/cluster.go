package agent

import (
	"cmp"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
	"github.com/hashicorp/nomad/api/contexts"
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

// ErrJobNotFound marks a deregistration or dispatch of an unknown job.
var ErrJobNotFound = errors.New("job not found")

// cluster returns the server's Cluster part, if it has one.
func (h *Handler) cluster() (Cluster, bool) {
	c, ok := h.server.(Cluster)
	return c, ok
}

// evalsToAPI converts the evaluations keep holds, newest first (highest
// CreateIndex, then ID: the order the official client sorts into), and
// returns the highest ModifyIndex. The result is never nil.
func evalsToAPI(evals []records.Eval, keep func(records.Eval) bool) ([]*api.Evaluation, uint64, error) {
	out := []*api.Evaluation{}
	var index uint64
	for _, e := range evals {
		if keep(e) {
			out = append(out, apiconv.EvalToAPI(e))
			index = max(index, e.ModifyIndex)
		}
	}
	slices.SortStableFunc(out, func(a, b *api.Evaluation) int {
		return cmp.Or(cmp.Compare(b.CreateIndex, a.CreateIndex), strings.Compare(a.ID, b.ID))
	})
	return out, index, nil
}

// evalList is GET /v1/evaluations[?prefix=&job=&status=]: the
// evaluations whose ID starts with prefix, of that job and status when
// given, newest first.
func (h *Handler) evalList(r *http.Request) (any, uint64, error) {
	c, _ := h.cluster()
	q := r.URL.Query()
	prefix, job, status := q.Get("prefix"), q.Get("job"), q.Get("status")
	return evalsToAPI(c.Evaluations(), func(e records.Eval) bool {
		return strings.HasPrefix(e.ID, prefix) && (job == "" || e.JobID == job) && (status == "" || e.Status == status)
	})
}

// evaluation finds one evaluation, or a 404 `eval not found`.
func (h *Handler) evaluation(id string) (records.Eval, error) {
	c, _ := h.cluster()
	for _, e := range c.Evaluations() {
		if e.ID == id && id != "" {
			return e, nil
		}
	}
	return records.Eval{}, notFound("eval not found")
}

// evalInfo is GET /v1/evaluation/<id>[?related=]: one evaluation (no
// related evaluations: none is ever chained); 404 `eval not found`.
func (h *Handler) evalInfo(r *http.Request) (any, uint64, error) {
	e, err := h.evaluation(r.PathValue("id"))
	if err != nil {
		return nil, 0, err
	}
	return apiconv.EvalToAPI(e), e.ModifyIndex, nil
}

// evalAllocations is GET /v1/evaluation/<id>/allocations: the stubs of
// the allocs the evaluation placed or updated in place; 404 `eval not
// found`.
func (h *Handler) evalAllocations(r *http.Request) (any, uint64, error) {
	e, err := h.evaluation(r.PathValue("id"))
	if err != nil {
		return nil, 0, err
	}
	c, _ := h.cluster()
	stubs, index := h.toStubs(c.EvalAllocations(e.ID))
	return stubs, max(index, e.ModifyIndex), nil
}

// nodeContext is what the agent adds to a node record: its version and,
// as the node's HTTP address, the address the request reached.
func nodeContext(r *http.Request) apiconv.NodeContext {
	addr := defaultHTTPAddr
	if r != nil && strings.Contains(r.Host, ":") {
		addr = r.Host
	}
	return apiconv.NodeContext{Version: NomadVersion, HTTPAddr: addr}
}

// node finds a node by ID, or a 404 `node not found`.
func (h *Handler) node(id string) (records.Node, error) {
	c, _ := h.cluster()
	for _, n := range c.Nodes() {
		if n.ID == id && id != "" {
			return n, nil
		}
	}
	return records.Node{}, notFound("node not found")
}

// nodeList is GET /v1/nodes[?prefix=]: the stubs of the nodes whose ID
// starts with prefix, sorted by ID.
func (h *Handler) nodeList(r *http.Request) (any, uint64, error) {
	c, _ := h.cluster()
	prefix := r.URL.Query().Get("prefix")
	out := []*api.NodeListStub{}
	var index uint64
	for _, n := range c.Nodes() {
		if strings.HasPrefix(n.ID, prefix) {
			out = append(out, apiconv.NodeStubToAPI(n, nodeContext(r)))
			index = max(index, n.ModifyIndex)
		}
	}
	return out, index, nil
}

// nodeInfo is GET /v1/node/<id>: the node (apiconv.NodeToAPI); 404 `node
// not found`.
func (h *Handler) nodeInfo(r *http.Request) (any, uint64, error) {
	n, err := h.node(r.PathValue("id"))
	if err != nil {
		return nil, 0, err
	}
	return apiconv.NodeToAPI(n, nodeContext(r)), n.ModifyIndex, nil
}

// nodeAllocations is GET /v1/node/<id>/allocations: the node's full
// allocs (as GET /v1/allocation/<id> serves them), sorted by ID; 404
// `node not found`.
func (h *Handler) nodeAllocations(r *http.Request) (any, uint64, error) {
	n, err := h.node(r.PathValue("id"))
	if err != nil {
		return nil, 0, err
	}
	ctx := h.allocContexts()
	out := []*apiconv.Allocation{}
	index := n.ModifyIndex
	for _, a := range h.server.AllocsByPrefix("") {
		if a != nil && a.NodeID == n.ID {
			out = append(out, apiconv.ServedAlloc(a, ctx(a)))
			index = max(index, a.ModifyIndex)
		}
	}
	slices.SortStableFunc(out, func(a, b *apiconv.Allocation) int { return strings.Compare(a.ID, b.ID) })
	return out, index, nil
}

// searchLimit is how many matches a context returns at most; more are
// reported as truncated (Nomad's limit).
const searchLimit = 20

// searchContexts are the contexts a prefix search of context `all`
// answers, each with its (possibly empty) matches.
var searchContexts = []contexts.Context{contexts.Allocs, contexts.Deployments, contexts.Evals, contexts.Jobs, contexts.Nodes}

// search is PUT/POST /v1/search, body `{"Prefix":"<p>","Context":"<c>"}`
// (what `nomad status <prefix>` asks first): the IDs of the allocs,
// evaluations, jobs and nodes starting with the prefix (no deployment
// ever), sorted, at most 20 per context, for context `all` or the one
// named; an unknown context answers no match.
func (h *Handler) search(r *http.Request) (any, uint64, error) {
	var req api.SearchRequest
	if err := decodeBody(r, &req); err != nil {
		return nil, 0, err
	}
	c, _ := h.cluster()
	ids := map[contexts.Context][]string{contexts.Deployments: nil}
	for _, a := range h.server.AllocsByPrefix(req.Prefix) {
		if a != nil {
			ids[contexts.Allocs] = append(ids[contexts.Allocs], a.ID)
		}
	}
	for _, e := range c.Evaluations() {
		if strings.HasPrefix(e.ID, req.Prefix) {
			ids[contexts.Evals] = append(ids[contexts.Evals], e.ID)
		}
	}
	for _, rec := range c.JobRecords(req.Prefix) {
		if rec != nil && rec.Job != nil {
			ids[contexts.Jobs] = append(ids[contexts.Jobs], rec.Job.ID)
		}
	}
	for _, n := range c.Nodes() {
		if strings.HasPrefix(n.ID, req.Prefix) {
			ids[contexts.Nodes] = append(ids[contexts.Nodes], n.ID)
		}
	}
	resp := api.SearchResponse{Matches: map[contexts.Context][]string{}, Truncations: map[contexts.Context]bool{}}
	for _, ctx := range searchContexts {
		if req.Context != contexts.All && req.Context != ctx {
			continue
		}
		m := slices.Sorted(slices.Values(ids[ctx]))
		resp.Truncations[ctx] = len(m) > searchLimit
		if len(m) > searchLimit {
			m = m[:searchLimit]
		}
		if m == nil {
			m = []string{}
		}
		resp.Matches[ctx] = m
	}
	return resp, 0, nil
}
