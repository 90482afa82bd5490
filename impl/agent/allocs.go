package agent

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
)

// allocInfo is GET /v1/allocation/<id> (API-5): the full alloc with its
// Job and task states (Paused included), and what the CLI reads beyond
// SPEC (apiconv.ServedAlloc: EvalID, NodeName, the job's Version, ...),
// 404 `alloc not found`; the index is the alloc's ModifyIndex.
func (h *Handler) allocInfo(r *http.Request) (any, uint64, error) {
	a, ok := h.server.Alloc(r.PathValue("id"))
	if !ok || a == nil {
		return nil, 0, notFound(MsgAllocNotFound)
	}
	return apiconv.ServedAlloc(a, h.allocContexts()(a)), a.ModifyIndex, nil
}

// allocList is GET /v1/allocations?prefix=<p> (API-5): the stubs of the
// allocs whose ID starts with p, sorted by ID.
func (h *Handler) allocList(r *http.Request) (any, uint64, error) {
	stubs, index := h.toStubs(h.server.AllocsByPrefix(r.URL.Query().Get("prefix")))
	return stubs, index, nil
}

// allocStopResponse is the body of an alloc stop, fields in the order of
// Nomad's API documentation.
type allocStopResponse struct {
	EvalID string
	Index  uint64
}

// allocStop is PUT/POST /v1/allocation/<id>/stop: the alloc goes to
// desired stop (as a job stop does; no replacement is placed) under an
// `alloc-stop` evaluation; 404 `alloc not found`.
func (h *Handler) allocStop(r *http.Request) (any, uint64, error) {
	c, _ := h.cluster()
	ev, index, err := c.StopAlloc(r.PathValue("id"))
	if errors.Is(err, ErrAllocNotFound) {
		return nil, 0, notFound(MsgAllocNotFound)
	}
	if err != nil {
		return nil, 0, err
	}
	return allocStopResponse{EvalID: ev.ID, Index: index}, index, nil
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
