package syncpolicy

import (
	"testing"

	"github.com/shoenig/test/must"
)

// TestSYNC4_ValidateUpdateAlloc checks each message and the check order.
func TestSYNC4_ValidateUpdateAlloc(t *testing.T) {
	ok := UpdateAllocRequest{Allocs: 2, NodeID: "n1", NodeFound: true, NodeStatus: NodeStatusReady}
	cases := []struct {
		name string
		req  UpdateAllocRequest
		want string // "" = valid
	}{
		{name: "valid ready node", req: ok},
		{name: "valid initializing node", req: with(ok, func(r *UpdateAllocRequest) { r.NodeStatus = NodeStatusInitializing })},
		{name: "no allocs", req: with(ok, func(r *UpdateAllocRequest) { r.Allocs = 0 }),
			want: "must update at least one allocation"},
		{name: "no allocs wins over everything",
			req:  UpdateAllocRequest{EvalsSet: true, NodeStatus: NodeStatusDown},
			want: "must update at least one allocation"},
		{name: "missing node ID", req: with(ok, func(r *UpdateAllocRequest) { r.NodeID = ""; r.EvalsSet = true }),
			want: "missing node ID"},
		{name: "node not found", req: with(ok, func(r *UpdateAllocRequest) { r.NodeFound = false; r.EvalsSet = true }),
			want: "node n1 not found"},
		{name: "node down", req: with(ok, func(r *UpdateAllocRequest) { r.NodeStatus = NodeStatusDown; r.EvalsSet = true }),
			want: "node n1 is not allowed to update allocs while in status down"},
		{name: "node disconnected", req: with(ok, func(r *UpdateAllocRequest) { r.NodeStatus = NodeStatusDisconnected }),
			want: "node n1 is not allowed to update allocs while in status disconnected"},
		{name: "evals set", req: with(ok, func(r *UpdateAllocRequest) { r.EvalsSet = true }),
			want: "evals field must not be set"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateUpdateAlloc(tc.req)
			if tc.want == "" {
				must.NoError(t, err)
				return
			}
			must.EqError(t, err, tc.want)
		})
	}
}

func with(r UpdateAllocRequest, f func(*UpdateAllocRequest)) UpdateAllocRequest {
	f(&r)
	return r
}

func TestSYNC4_NodeMayUpdateAllocs(t *testing.T) {
	for status, want := range map[string]bool{
		NodeStatusInitializing: true, NodeStatusReady: true,
		NodeStatusDown: false, NodeStatusDisconnected: false,
	} {
		must.Eq(t, want, NodeMayUpdateAllocs(status), must.Sprintf("status %q", status))
	}
}
