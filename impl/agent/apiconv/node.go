package apiconv

import (
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/hashicorp/nomad/api"
)

// Nominal resources of a node. A simulated node (and the dev agent's,
// which does not fingerprint its host) has no hardware to report; the CLI
// divides by these, so they are fixed non-zero figures.
const (
	NominalNodeCPUShares = 4000
	NominalNodeCores     = 4
	NominalNodeMemoryMB  = 8192
	NominalNodeDiskMB    = 100000
)

// NodeContext is what the agent adds to a node record: the Nomad version
// it reports and the address of its HTTP API.
type NodeContext struct {
	Version  string
	HTTPAddr string
}

// NodeToAPI converts a node record to the node GET /v1/node/<id> serves:
// eligible, not draining, the nominal resources (also in the deprecated
// Resources the CLI still reads), nothing reserved, every
// driver detected and healthy, and empty host volume, network and CSI
// maps.
func NodeToAPI(n records.Node, c NodeContext) *api.Node {
	return &api.Node{
		ID: n.ID, Datacenter: n.Datacenter, Name: n.Name, HTTPAddr: c.HTTPAddr,
		Attributes: nodeAttributes(n, c),
		NodeResources: &api.NodeResources{
			Cpu:    api.NodeCpuResources{CpuShares: NominalNodeCPUShares, TotalCpuCores: NominalNodeCores},
			Memory: api.NodeMemoryResources{MemoryMB: NominalNodeMemoryMB},
			Disk:   api.NodeDiskResources{DiskMB: NominalNodeDiskMB},
		},
		ReservedResources: &api.NodeReservedResources{},
		Resources: &api.Resources{CPU: ptr(NominalNodeCPUShares), Cores: ptr(NominalNodeCores),
			MemoryMB: ptr(NominalNodeMemoryMB), DiskMB: ptr(NominalNodeDiskMB), IOPS: ptr(0)},
		Reserved:              &api.Resources{CPU: ptr(0), Cores: ptr(0), MemoryMB: ptr(0), DiskMB: ptr(0), IOPS: ptr(0)},
		Links:                 map[string]string{},
		Meta:                  map[string]string{},
		NodeClass:             n.NodeClass,
		NodePool:              n.NodePool,
		SchedulingEligibility: records.NodeEligible,
		Status:                n.Status,
		Events:                []*api.NodeEvent{},
		Drivers:               drivers(n),
		HostVolumes:           map[string]*api.HostVolumeInfo{},
		HostNetworks:          map[string]*api.HostNetworkInfo{},
		CSIControllerPlugins:  map[string]*api.CSIInfo{},
		CSINodePlugins:        map[string]*api.CSIInfo{},
		CreateIndex:           n.CreateIndex,
		ModifyIndex:           n.ModifyIndex,
	}
}

// NodeStubToAPI converts a node record to the stub GET /v1/nodes lists.
func NodeStubToAPI(n records.Node, c NodeContext) *api.NodeListStub {
	full := NodeToAPI(n, c)
	return &api.NodeListStub{
		Address: c.HTTPAddr, ID: full.ID, Datacenter: full.Datacenter, Name: full.Name,
		NodeClass: full.NodeClass, NodePool: full.NodePool, Version: c.Version,
		SchedulingEligibility: full.SchedulingEligibility, Status: full.Status,
		Drivers: full.Drivers, CreateIndex: full.CreateIndex, ModifyIndex: full.ModifyIndex,
	}
}

func nodeAttributes(n records.Node, c NodeContext) map[string]string {
	out := map[string]string{"nomad.version": c.Version, "unique.hostname": n.Name}
	for _, d := range n.Drivers {
		out["driver."+d] = "1"
	}
	return out
}

func drivers(n records.Node) map[string]*api.DriverInfo {
	out := map[string]*api.DriverInfo{}
	for _, d := range n.Drivers {
		out[d] = &api.DriverInfo{
			Attributes: map[string]string{}, Detected: true, Healthy: true, HealthDescription: "Healthy",
		}
	}
	return out
}
