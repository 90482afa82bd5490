package agent

import (
	"net/http"
	"strconv"

	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/hashicorp/nomad/api"
)

// What the agent reports about itself (/v1/agent/self, members, status):
// the Nomad version whose API it serves, and the addresses of a one-server
// cluster whose RPC and gossip ports are Nomad's defaults (nothing listens
// there: the simulated server is in process).
const (
	NomadVersion    = "1.10.5"
	VersionMetadata = "allocsim"
	DefaultRegion   = "global"
	serverAddr      = "127.0.0.1"
	serverRPCPort   = "4647"
	serverSerfPort  = 4648
	serverRPCAddr   = serverAddr + ":" + serverRPCPort
	defaultHTTPAddr = "127.0.0.1:4646"
)

// identity is who the agent says it is: its node's name and datacenter
// (the Cluster's record of the client's node, else the defaults of a node
// registered without a description) and its region.
type identity struct {
	nodeID, nodeName, datacenter, nodePool, region string
}

func (h *Handler) identity() identity {
	id := identity{nodeName: "server", datacenter: records.DefaultNodeDatacenter,
		nodePool: records.DefaultNodePool, region: h.region}
	if h.client == nil {
		return id
	}
	id.nodeID = h.client.NodeID()
	id.nodeName = records.DefaultNodeName(id.nodeID)
	if c, ok := h.cluster(); ok {
		for _, n := range c.Nodes() {
			if n.ID == id.nodeID {
				id.nodeName, id.datacenter, id.nodePool = n.Name, n.Datacenter, n.NodePool
			}
		}
	}
	return id
}

// member is the agent as the one server of its cluster (a gossip member
// `<node name>.<region>`, alive, at Nomad's default ports).
func (id identity) member() api.AgentMember {
	return api.AgentMember{
		Name: id.nodeName + "." + id.region, Addr: serverAddr, Port: serverSerfPort, Status: "alive",
		Tags: map[string]string{
			"role": "nomad", "region": id.region, "dc": id.datacenter, "build": NomadVersion,
			"port": serverRPCPort, "rpc_addr": serverAddr, "bootstrap": "1", "expect": "1",
			"vsn": "1", "mvn": "1", "raft_vsn": "3",
		},
		ProtocolMin: 1, ProtocolMax: 5, ProtocolCur: 2, DelegateMin: 2, DelegateMax: 5, DelegateCur: 4,
	}
}

// agentSelf is GET /v1/agent/self: the agent's configuration (the parts
// the CLI reads: Region, Datacenter, NodeName, Version, Client.Enabled,
// Server.Enabled), its member, and its stats (client.node_id for
// `node status -self`).
func (h *Handler) agentSelf(*http.Request) (any, uint64, error) {
	id := h.identity()
	config := map[string]any{
		"Region": id.region, "Datacenter": id.datacenter, "NodeName": id.nodeName,
		"Version": map[string]any{"Version": NomadVersion, "VersionPrerelease": "", "VersionMetadata": VersionMetadata},
		"Client":  map[string]any{"Enabled": h.client != nil, "NodeClass": "", "NodePool": id.nodePool, "Servers": []string{serverRPCAddr}},
		"Server":  map[string]any{"Enabled": true, "BootstrapExpect": 1},
		"ACL":     map[string]any{"Enabled": false},
	}
	stats := map[string]map[string]string{
		"nomad": {
			"server": "true", "leader": "true", "leader_addr": serverRPCAddr, "bootstrap": "true",
			"known_regions": "1",
		},
	}
	if h.client != nil {
		allocs := 0
		for _, a := range h.server.AllocsByPrefix("") {
			if a != nil && a.NodeID == id.nodeID {
				allocs++
			}
		}
		stats["client"] = map[string]string{
			"node_id": id.nodeID, "known_servers": serverRPCAddr, "num_allocations": strconv.Itoa(allocs),
		}
	}
	return api.AgentSelf{Config: config, Member: id.member(), Stats: stats}, 0, nil
}

// agentMembers is GET /v1/agent/members: the agent, the only server.
func (h *Handler) agentMembers(*http.Request) (any, uint64, error) {
	id := h.identity()
	m := id.member()
	return api.ServerMembers{ServerName: m.Name, ServerRegion: id.region, ServerDC: id.datacenter,
		Members: []*api.AgentMember{&m}}, 0, nil
}

// statusLeader is GET /v1/status/leader: the agent's server address.
func (h *Handler) statusLeader(*http.Request) (any, uint64, error) {
	return serverRPCAddr, 0, nil
}

// statusPeers is GET /v1/status/peers: the agent's server, alone.
func (h *Handler) statusPeers(*http.Request) (any, uint64, error) {
	return []string{serverRPCAddr}, 0, nil
}

// regions is GET /v1/regions: the agent's region.
func (h *Handler) regions(*http.Request) (any, uint64, error) {
	return []string{h.region}, 0, nil
}
