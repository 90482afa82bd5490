package apiconv

import (
	"slices"

	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// What a Nomad server serves about a job beyond its spec, for a job whose
// spec does not say (the domain job has neither).
var defaultDatacenters = []string{"*"}

// ServedJob is the job GET /v1/job/<id> serves (issue 14): the API job,
// canonicalized as the official client canonicalizes a job it submits
// (every pointer field the CLI dereferences is set: Priority, Region,
// Stop, Version, task resources, ...), with the record's stamp, Stop and
// the status given, Datacenters ["*"] and NodePool "default" when the job
// names none. A nil record or job gives nil.
func ServedJob(rec *records.Job, status string) *api.Job {
	if rec == nil || rec.Job == nil {
		return nil
	}
	out := JobToAPI(rec.Job)
	out.Canonicalize()
	if len(out.Datacenters) == 0 {
		out.Datacenters = slices.Clone(defaultDatacenters)
	}
	if out.NodePool == nil || *out.NodePool == "" {
		out.NodePool = ptr(records.DefaultNodePool)
	}
	out.Stop = ptr(rec.Stop)
	out.Status = ptr(status)
	out.Version = ptr(rec.Version)
	out.SubmitTime = ptr(rec.SubmitTime)
	out.CreateIndex = ptr(rec.CreateIndex)
	out.ModifyIndex = ptr(rec.ModifyIndex)
	out.JobModifyIndex = ptr(rec.JobModifyIndex)
	return out
}

// JobStubToAPI is the stub of a job GET /v1/jobs lists.
func JobStubToAPI(rec *records.Job, status string, summary *api.JobSummary) *api.JobListStub {
	j := ServedJob(rec, status)
	if j == nil {
		return nil
	}
	return &api.JobListStub{
		ID: *j.ID, ParentID: *j.ParentID, Name: *j.Name, Namespace: *j.Namespace,
		Datacenters: slices.Clone(j.Datacenters), Type: *j.Type, Priority: *j.Priority,
		Periodic: j.IsPeriodic(), ParameterizedJob: j.IsParameterized(),
		Stop: *j.Stop, Status: *j.Status, StatusDescription: *j.StatusDescription,
		JobSummary: summary, CreateIndex: *j.CreateIndex, ModifyIndex: *j.ModifyIndex,
		JobModifyIndex: *j.JobModifyIndex, SubmitTime: *j.SubmitTime,
	}
}

// JobSummaryToAPI is GET /v1/job/<id>/summary: counts per task group and
// the children of a parameterized job by status (zero for other jobs).
func JobSummaryToAPI(rec *records.Job, counts map[string]records.TaskGroupCounts, children api.JobChildrenSummary) *api.JobSummary {
	if rec == nil || rec.Job == nil {
		return nil
	}
	out := &api.JobSummary{
		JobID: rec.Job.ID, Namespace: rec.Job.Namespace, Summary: map[string]api.TaskGroupSummary{},
		Children: &children, CreateIndex: rec.CreateIndex, ModifyIndex: rec.ModifyIndex,
	}
	for name, c := range counts {
		out.Summary[name] = api.TaskGroupSummary{
			Queued: c.Queued, Complete: c.Complete, Failed: c.Failed, Running: c.Running,
			Starting: c.Starting, Lost: c.Lost, Unknown: c.Unknown,
		}
	}
	return out
}

// EvalToAPI converts an evaluation record; it has no placement failures,
// so FailedTGAllocs is empty and QueuedAllocations nil.
func EvalToAPI(e records.Eval) *api.Evaluation {
	return &api.Evaluation{
		ID: e.ID, Priority: e.Priority, Type: e.Type, TriggeredBy: e.TriggeredBy,
		Namespace: e.Namespace, JobID: e.JobID, JobModifyIndex: e.JobModifyIndex, NodeID: e.NodeID,
		Status: e.Status, FailedTGAllocs: map[string]*api.AllocationMetric{},
		CreateIndex: e.CreateIndex, ModifyIndex: e.ModifyIndex, CreateTime: e.CreateTime, ModifyTime: e.ModifyTime,
	}
}

// AllocContext is what the server knows about an alloc beyond the alloc:
// its placement record and its node's name.
type AllocContext struct {
	Record   records.Alloc
	NodeName string
}

// ServedAlloc is the full alloc the agent serves (API-5 and issue 14):
// AllocToAPI plus the placing EvalID, the NodeName, the job served as
// ServedJob with the stamp of the version the alloc runs, the resources
// allocated to each task (the canonicalized tasks' resources) and its
// placement metrics (one node evaluated, in the node's pool).
func ServedAlloc(a *structs.Allocation, c AllocContext) *Allocation {
	out := AllocToAPI(a)
	if out == nil {
		return nil
	}
	out.EvalID, out.NodeName = c.Record.EvalID, c.NodeName
	if a.Job != nil {
		out.Job = ServedJob(&records.Job{Job: a.Job, JobStamp: c.Record.Job}, "")
		out.AllocatedResources = allocatedResources(out.Job, a.TaskGroup)
		//lint:ignore SA1019 the CLI's node status still sums them (a nil one panics it)
		out.Resources, out.TaskResources = legacyResources(out.AllocatedResources)
	}
	out.Metrics = &api.AllocationMetric{
		NodesEvaluated: 1, NodesInPool: 1, NodePool: records.DefaultNodePool,
		NodesAvailable: map[string]int{}, ClassFiltered: map[string]int{},
		ConstraintFiltered: map[string]int{}, ClassExhausted: map[string]int{},
		DimensionExhausted: map[string]int{}, Scores: map[string]float64{},
	}
	if out.Job != nil && out.Job.NodePool != nil {
		out.Metrics.NodePool = *out.Job.NodePool
	}
	return out
}

// ServedStub is the stub the agent lists (API-5 and issue 14): StubToAPI
// plus the placing EvalID, the NodeName and the JobVersion.
func ServedStub(a *structs.Allocation, c AllocContext) *AllocationListStub {
	out := StubToAPI(a)
	if out == nil {
		return nil
	}
	out.EvalID, out.NodeName, out.JobVersion = c.Record.EvalID, c.NodeName, c.Record.Job.Version
	return out
}

// allocatedResources reads the resources of group's tasks from a
// canonicalized job (every task has CPU and MemoryMB then).
func allocatedResources(job *api.Job, group string) *api.AllocatedResources {
	out := &api.AllocatedResources{Tasks: map[string]*api.AllocatedTaskResources{}}
	tg := job.LookupTaskGroup(group)
	if tg == nil {
		return out
	}
	if tg.EphemeralDisk != nil && tg.EphemeralDisk.SizeMB != nil {
		out.Shared.DiskMB = int64(*tg.EphemeralDisk.SizeMB)
	}
	for _, t := range tg.Tasks {
		if t == nil {
			continue
		}
		r := &api.AllocatedTaskResources{}
		if t.Resources != nil {
			r.Cpu.CpuShares = int64(deref(t.Resources.CPU))
			r.Memory.MemoryMB = int64(deref(t.Resources.MemoryMB))
			r.Memory.MemoryMaxMB = int64(deref(t.Resources.MemoryMaxMB))
		}
		out.Tasks[t.Name] = r
	}
	return out
}

// legacyResources are the deprecated Resources (the alloc's total) and
// TaskResources (per task) a Nomad server still serves beside
// AllocatedResources, and which the CLI's `node status` still sums.
func legacyResources(r *api.AllocatedResources) (*api.Resources, map[string]*api.Resources) {
	total := &api.Resources{CPU: ptr(0), Cores: ptr(0), MemoryMB: ptr(0), MemoryMaxMB: ptr(0),
		DiskMB: ptr(int(r.Shared.DiskMB)), IOPS: ptr(0)}
	tasks := map[string]*api.Resources{}
	for name, t := range r.Tasks {
		tasks[name] = &api.Resources{CPU: ptr(int(t.Cpu.CpuShares)), Cores: ptr(0), MemoryMB: ptr(int(t.Memory.MemoryMB)),
			MemoryMaxMB: ptr(int(t.Memory.MemoryMaxMB)), DiskMB: ptr(0), IOPS: ptr(0)}
		*total.CPU += int(t.Cpu.CpuShares)
		*total.MemoryMB += int(t.Memory.MemoryMB)
		*total.MemoryMaxMB += int(t.Memory.MemoryMaxMB)
	}
	return total, tasks
}

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
