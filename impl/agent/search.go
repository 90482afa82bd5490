package agent

import (
	"net/http"
	"slices"
	"strings"

	"github.com/hashicorp/nomad/api"
	"github.com/hashicorp/nomad/api/contexts"
)

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
