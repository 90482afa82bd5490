package agent

import (
	"net/http"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
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
