package apiconv_test

import (
	"testing"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestServedJob: the served job has every pointer field the CLI
// dereferences, the record's stamp and the given status; nil in, nil out.
func TestServedJob(t *testing.T) {
	must.Nil(t, apiconv.ServedJob(nil, ""))
	must.Nil(t, apiconv.ServedJob(&records.Job{}, ""))
	rec := &records.Job{
		Job: &structs.Job{ID: "web", Namespace: "default", Type: "batch", TaskGroups: []*structs.TaskGroup{{
			Name: "g", Count: 1, Tasks: []*structs.Task{{Name: "t", Driver: "mock_driver"}},
		}}},
		JobStamp: records.JobStamp{Version: 3, SubmitTime: 42, CreateIndex: 2, JobModifyIndex: 7},
		Stop:     true, ModifyIndex: 9,
	}
	j := apiconv.ServedJob(rec, "dead")
	must.EqOp(t, "web", *j.Name)
	must.EqOp(t, uint64(3), *j.Version)
	must.EqOp(t, int64(42), *j.SubmitTime)
	must.EqOp(t, uint64(2), *j.CreateIndex)
	must.EqOp(t, uint64(9), *j.ModifyIndex)
	must.EqOp(t, uint64(7), *j.JobModifyIndex)
	must.True(t, *j.Stop)
	must.EqOp(t, "dead", *j.Status)
	must.EqOp(t, 50, *j.Priority)
	must.EqOp(t, "global", *j.Region)
	must.EqOp(t, "default", *j.NodePool)
	must.Eq(t, []string{"*"}, j.Datacenters)
	task := j.TaskGroups[0].Tasks[0]
	must.NotNil(t, task.Resources.CPU)
	must.NotNil(t, task.Resources.MemoryMB)

	stub := apiconv.JobStubToAPI(rec, "dead", nil)
	must.EqOp(t, "web", stub.ID)
	must.EqOp(t, uint64(7), stub.JobModifyIndex)
	must.True(t, stub.Stop)
	must.Nil(t, apiconv.JobStubToAPI(nil, "", nil))
}

// TestServedAlloc: the placing eval, the node name, the job at the
// alloc's version, the allocated resources (and the deprecated totals)
// and metrics; an alloc without a job has none of the job's parts.
func TestServedAlloc(t *testing.T) {
	must.Nil(t, apiconv.ServedAlloc(nil, apiconv.AllocContext{}))
	a := &structs.Allocation{ID: "a1", NodeID: "n1", JobID: "web", TaskGroup: "g", Job: &structs.Job{
		ID: "web", TaskGroups: []*structs.TaskGroup{{Name: "g", Count: 1, Tasks: []*structs.Task{
			{Name: "t1", Driver: "mock_driver"}, {Name: "t2", Driver: "mock_driver"},
		}}},
	}}
	ctx := apiconv.AllocContext{Record: records.Alloc{EvalID: "e1", Job: records.JobStamp{Version: 2}}, NodeName: "sim-1"}
	got := apiconv.ServedAlloc(a, ctx)
	must.EqOp(t, "e1", got.EvalID)
	must.EqOp(t, "sim-1", got.NodeName)
	must.EqOp(t, uint64(2), *got.Job.Version)
	must.MapLen(t, 2, got.AllocatedResources.Tasks)
	must.NotNil(t, got.Metrics)
	cpu := got.AllocatedResources.Tasks["t1"].Cpu.CpuShares + got.AllocatedResources.Tasks["t2"].Cpu.CpuShares
	//lint:ignore SA1019 the deprecated total the CLI reads
	must.EqOp(t, int(cpu), *got.Resources.CPU)

	stub := apiconv.ServedStub(a, ctx)
	must.EqOp(t, uint64(2), stub.JobVersion)
	must.EqOp(t, "e1", stub.EvalID)
	must.EqOp(t, "sim-1", stub.NodeName)

	a.Job = nil
	got = apiconv.ServedAlloc(a, ctx)
	must.Nil(t, got.Job)
	must.Nil(t, got.AllocatedResources)
}

// TestNodeToAPI: the node's record with the nominal resources and its
// drivers healthy.
func TestNodeToAPI(t *testing.T) {
	n := records.Node{ID: "n1", Name: "sim-1", Datacenter: "dc1", NodePool: "default", Status: "ready",
		Drivers: []string{"raw_exec"}, CreateIndex: 1, ModifyIndex: 5}
	c := apiconv.NodeContext{Version: "1.10.5", HTTPAddr: "127.0.0.1:4646"}
	got := apiconv.NodeToAPI(n, c)
	must.EqOp(t, "sim-1", got.Name)
	must.EqOp(t, "eligible", got.SchedulingEligibility)
	must.EqOp(t, int64(apiconv.NominalNodeCPUShares), got.NodeResources.Cpu.CpuShares)
	must.True(t, got.Drivers["raw_exec"].Healthy)
	must.EqOp(t, "1", got.Attributes["driver.raw_exec"])
	stub := apiconv.NodeStubToAPI(n, c)
	must.EqOp(t, "1.10.5", stub.Version)
	must.EqOp(t, "127.0.0.1:4646", stub.Address)
	must.EqOp(t, uint64(5), stub.ModifyIndex)
}
