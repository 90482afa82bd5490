package agent

import (
	"net/http"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/hashicorp/nomad/api"
)

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
