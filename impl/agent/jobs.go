package agent

import (
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// registerResponse is API-4's success body, fields in SPEC order.
type registerResponse struct {
	EvalID          string
	EvalCreateIndex uint64
	JobModifyIndex  uint64
	Warnings        string
	Index           uint64
}

// register is PUT/POST /v1/jobs (API-4): decode, require a job and an ID
// (400), canonicalize, validate (500, multierror list), register.
func (h *Handler) register(r *http.Request) (any, uint64, error) {
	job, err := DecodeJobRegister(r.Body, r.URL.Query().Get("namespace"))
	if err != nil {
		return nil, 0, err
	}
	if err := ValidateJob(job, h.profile); err != nil {
		return nil, 0, registerFailure(err)
	}
	evalID, evalIndex, jobIndex, err := h.server.RegisterJob(job)
	if err != nil {
		return nil, 0, registerFailure(err)
	}
	index := max(evalIndex, jobIndex)
	return registerResponse{
		EvalID: evalID, EvalCreateIndex: evalIndex, JobModifyIndex: jobIndex, Index: index,
	}, index, nil
}

// DecodeJobRegister decodes a register body `{"Job":{…}}` in the official
// API's shape (DATA-1) into a canonicalized domain job (DATA-2..4). An
// empty body is a request without a job. A job without Namespace gets
// namespace (the request's `namespace` parameter), else `default`.
// Errors are 400s: `Failed to decode body: <err>`, `Job must be
// specified`, `Job must have a valid ID`.
func DecodeJobRegister(body io.Reader, namespace string) (*structs.Job, error) {
	var req api.JobRegisterRequest
	if err := decodeJSON(body, &req); err != nil {
		return nil, err
	}
	if req.Job == nil {
		return nil, badRequest(MsgJobMissing)
	}
	if req.Job.ID == nil || *req.Job.ID == "" {
		return nil, badRequest(MsgJobNoID)
	}
	job := apiconv.JobFromAPI(req.Job)
	if job.Namespace == "" {
		job.Namespace = namespace
	}
	job.Canonicalize()
	return job, nil
}

// jobAllocations is GET /v1/job/<id>/allocations[?all=] (API-5): the
// job's stubs sorted by ID, `[]` for an unknown job; the index is the
// highest ModifyIndex served.
func (h *Handler) jobAllocations(r *http.Request) (any, uint64, error) {
	all, err := queryBool(r, "all")
	if err != nil {
		return nil, 0, err
	}
	stubs, index := h.toStubs(h.server.JobAllocations(r.PathValue("id"), all))
	return stubs, index, nil
}

// toStubs converts allocs to wire stubs (apiconv.ServedStub) sorted by ID
// (DET-2), skipping nil ones, and returns the highest ModifyIndex. The
// result is never nil, so it encodes as `[]`.
func (h *Handler) toStubs(allocs []*structs.Allocation) ([]*apiconv.AllocationListStub, uint64) {
	stubs := make([]*apiconv.AllocationListStub, 0, len(allocs))
	var index uint64
	ctx := h.allocContexts()
	for _, a := range allocs {
		if a == nil {
			continue
		}
		stubs = append(stubs, apiconv.ServedStub(a, ctx(a)))
		index = max(index, a.ModifyIndex)
	}
	slices.SortStableFunc(stubs, func(a, b *apiconv.AllocationListStub) int { return strings.Compare(a.ID, b.ID) })
	return stubs, index
}

// allocContexts returns what the servers know about an alloc beyond it
// (its placing evaluation, job version and node name), reading the nodes
// once. Without a Cluster the record is zero and the node's name is
// records.DefaultNodeName of its ID.
func (h *Handler) allocContexts() func(*structs.Allocation) apiconv.AllocContext {
	c, ok := h.cluster()
	names := map[string]string{}
	if ok {
		for _, n := range c.Nodes() {
			names[n.ID] = n.Name
		}
	}
	return func(a *structs.Allocation) apiconv.AllocContext {
		out := apiconv.AllocContext{NodeName: names[a.NodeID]}
		if out.NodeName == "" {
			out.NodeName = records.DefaultNodeName(a.NodeID)
		}
		if ok {
			out.Record = c.AllocRecord(a.ID)
		}
		return out
	}
}
