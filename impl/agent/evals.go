package agent

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/hashicorp/nomad/api"
)

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
