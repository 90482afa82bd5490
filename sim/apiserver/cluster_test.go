package apiserver_test

import (
	"slices"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/apiserver"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/hashicorp/nomad/api"
	"github.com/hashicorp/nomad/api/contexts"
	"github.com/shoenig/test/must"
)

// The endpoints the real `nomad` CLI reads beyond SPEC §5 (issue 14),
// through the official Go client, on the simulated server.

// clusterStart is the simulated server's clock.
var clusterStart = time.Date(2024, 6, 14, 9, 0, 0, 0, time.UTC)

// localClient is the agent's own client as far as the agent sees it: a
// node ID, and no runner (every alloc call is forwarded, API-7).
type localClient struct{ interfaces.Client }

func (localClient) NodeID() string                                    { return nodeID }
func (localClient) AllocRunner(string) (interfaces.AllocRunner, bool) { return nil, false }

// restartNode records the restarts forwarded to it.
type restartNode struct{ restarts []structs.AllocRestartRequest }

func (n *restartNode) ClientRPC(method string, args, _ any) error {
	if method == structs.RPCClientRestart {
		n.restarts = append(n.restarts, *args.(*structs.AllocRestartRequest))
	}
	return nil
}

// clusterOn is agentOn with the node described (name sim-1, two drivers),
// connected to a recording node, and the agent given a local client.
func clusterOn(t *testing.T) (*server.Server, *restartNode, *api.Client) {
	t.Helper()
	srv, err := server.New(server.Config{Clock: vclock.New(clusterStart), Rand: seeds.Stream(3, "server")})
	must.NoError(t, err)
	must.NoError(t, srv.RegisterNode(nodeID, syncpolicy.NodeStatusReady))
	must.NoError(t, srv.DescribeNode(nodeID, records.Node{Name: "sim-1", Drivers: []string{"raw_exec", "mock_driver"}}))
	node := &restartNode{}
	srv.Connect(nodeID, node)
	h, err := agent.New(agent.Config{Server: apiserver.New(srv, seeds.Stream(3, apiserver.EvalStream)), Client: localClient{}})
	must.NoError(t, err)
	c, err := agent.NewAPIClient(h)
	must.NoError(t, err)
	return srv, node, c
}

// mustCLIAlloc checks the fields of a full alloc that the CLI's `alloc
// status` dereferences or prints: a nil Job.Version was the panic of
// issue 14.
func mustCLIAlloc(t *testing.T, a *api.Allocation, evalID string, version uint64) {
	t.Helper()
	must.NotNil(t, a.Job)
	must.NotNil(t, a.Job.Version)
	must.EqOp(t, version, *a.Job.Version)
	for _, p := range []*string{a.Job.ID, a.Job.Name, a.Job.Type, a.Job.Namespace, a.Job.Region, a.Job.NodePool, a.Job.Status} {
		must.NotNil(t, p)
	}
	must.NotNil(t, a.Job.Priority)
	must.NotNil(t, a.Job.Stop)
	must.NotNil(t, a.Job.SubmitTime)
	must.EqOp(t, evalID, a.EvalID)
	must.EqOp(t, "sim-1", a.NodeName)
	must.EqOp(t, clusterStart.UnixNano(), a.CreateTime)
	must.NotNil(t, a.Metrics)
	must.NotNil(t, a.AllocatedResources)
	res := a.AllocatedResources.Tasks["t"]
	must.NotNil(t, res)
	must.Positive(t, res.Cpu.CpuShares)
	must.Positive(t, res.Memory.MemoryMB)
	tg := a.Job.LookupTaskGroup(a.TaskGroup)
	must.NotNil(t, tg)
	must.NotNil(t, tg.Tasks[0].Resources)
}

// TestJobRunMonitor is what `nomad job run` reads after registering: the
// evaluation (complete, job-register, the job's type and priority, the
// registration's index and the server's time) and the allocs it placed,
// each a full alloc the CLI can print.
func TestJobRunMonitor(t *testing.T) {
	_, _, c := clusterOn(t)
	resp, _, err := c.Jobs().Register(apiJob("web", 2), nil)
	must.NoError(t, err)

	ev, qm, err := c.Evaluations().Info(resp.EvalID, nil)
	must.NoError(t, err)
	must.EqOp(t, resp.EvalID, ev.ID)
	must.EqOp(t, api.EvalStatusComplete, ev.Status)
	must.EqOp(t, "job-register", ev.TriggeredBy)
	must.EqOp(t, "web", ev.JobID)
	must.EqOp(t, "service", ev.Type)
	must.EqOp(t, "default", ev.Namespace)
	must.EqOp(t, 50, ev.Priority)
	must.EqOp(t, resp.EvalCreateIndex, ev.CreateIndex)
	must.EqOp(t, resp.EvalCreateIndex, ev.ModifyIndex)
	must.EqOp(t, resp.JobModifyIndex, ev.JobModifyIndex)
	must.EqOp(t, resp.EvalCreateIndex, qm.LastIndex)
	must.EqOp(t, clusterStart.UnixNano(), ev.CreateTime)
	must.EqOp(t, clusterStart.UnixNano(), ev.ModifyTime)
	must.MapEmpty(t, ev.FailedTGAllocs)

	stubs, _, err := c.Evaluations().Allocations(resp.EvalID, nil)
	must.NoError(t, err)
	must.SliceLen(t, 2, stubs)
	for _, s := range stubs {
		must.EqOp(t, resp.EvalID, s.EvalID)
		must.EqOp(t, "sim-1", s.NodeName)
		must.EqOp(t, uint64(0), s.JobVersion)
		must.EqOp(t, "g", s.TaskGroup)
		a, _, err := c.Allocations().Info(s.ID, nil)
		must.NoError(t, err)
		mustCLIAlloc(t, a, resp.EvalID, 0)
	}

	_, _, err = c.Evaluations().Info("nope", nil)
	must.EqError(t, err, "Unexpected response code: 404 (eval not found)")
	_, _, err = c.Evaluations().Allocations("nope", nil)
	must.EqError(t, err, "Unexpected response code: 404 (eval not found)")
}

// TestJobReads is what `nomad status`, `job status` and `job inspect`
// read: the job list with summaries, the job with its server fields, its
// summary, evaluations (newest first) and no deployment; a second
// version after a changed registration, whose allocs carry it.
func TestJobReads(t *testing.T) {
	srv, _, c := clusterOn(t)
	first, _, err := c.Jobs().Register(apiJob("web", 2), nil)
	must.NoError(t, err)
	_, _, err = c.Jobs().Register(apiJob("worker", 1), nil)
	must.NoError(t, err)

	list, qm, err := c.Jobs().List(nil)
	must.NoError(t, err)
	must.EqOp(t, srv.Index(), qm.LastIndex)
	must.Eq(t, []string{"web", "worker"}, []string{list[0].ID, list[1].ID})
	web := list[0]
	must.EqOp(t, "running", web.Status, must.Sprint("allocs to run"))
	must.EqOp(t, "service", web.Type)
	must.EqOp(t, 50, web.Priority)
	must.EqOp(t, clusterStart.UnixNano(), web.SubmitTime)
	must.NotNil(t, web.JobSummary)
	must.EqOp(t, 2, web.JobSummary.Summary["g"].Starting)
	prefixed, _, err := c.Jobs().PrefixList("wo")
	must.NoError(t, err)
	must.SliceLen(t, 1, prefixed)
	all, _, err := c.Jobs().List(&api.QueryOptions{Namespace: "*"})
	must.NoError(t, err)
	must.SliceLen(t, 2, all)
	none, _, err := c.Jobs().List(&api.QueryOptions{Namespace: "other"})
	must.NoError(t, err)
	must.SliceEmpty(t, none)

	job, _, err := c.Jobs().Info("web", nil)
	must.NoError(t, err)
	must.EqOp(t, uint64(0), *job.Version)
	must.EqOp(t, "running", *job.Status)
	must.False(t, *job.Stop)
	must.EqOp(t, first.JobModifyIndex, *job.JobModifyIndex)
	must.EqOp(t, first.JobModifyIndex, *job.CreateIndex)
	must.EqOp(t, "default", *job.NodePool)
	must.Eq(t, []string{"*"}, job.Datacenters)
	must.EqOp(t, "global", *job.Region)

	summary, _, err := c.Jobs().Summary("web", nil)
	must.NoError(t, err)
	must.EqOp(t, "web", summary.JobID)
	must.Eq(t, api.TaskGroupSummary{Starting: 2}, summary.Summary["g"])
	must.NotNil(t, summary.Children)

	d, _, err := c.Jobs().LatestDeployment("web", nil)
	must.NoError(t, err)
	must.Nil(t, d)
	ds, _, err := c.Jobs().Deployments("web", false, nil)
	must.NoError(t, err)
	must.SliceEmpty(t, ds)

	changed := apiJob("web", 1)
	changed.TaskGroups[0].Tasks[0].Config = map[string]any{"run_for": "1h"}
	second, _, err := c.Jobs().Register(changed, nil)
	must.NoError(t, err)
	job, _, err = c.Jobs().Info("web", nil)
	must.NoError(t, err)
	must.EqOp(t, uint64(1), *job.Version)
	must.EqOp(t, second.JobModifyIndex, *job.JobModifyIndex)
	must.EqOp(t, first.JobModifyIndex, *job.CreateIndex)
	stubs, _, err := c.Jobs().Allocations("web", false, nil)
	must.NoError(t, err)
	must.SliceLen(t, 3, stubs)
	versions := map[uint64]int{}
	for _, s := range stubs {
		versions[s.JobVersion]++
		if s.JobVersion == 1 {
			must.EqOp(t, second.EvalID, s.EvalID)
			a, _, err := c.Allocations().Info(s.ID, nil)
			must.NoError(t, err)
			mustCLIAlloc(t, a, second.EvalID, 1)
		}
	}
	must.Eq(t, map[uint64]int{0: 2, 1: 1}, versions)

	// Registering the same job again is no new version.
	_, _, err = c.Jobs().Register(changed, nil)
	must.NoError(t, err)
	job, _, err = c.Jobs().Info("web", nil)
	must.NoError(t, err)
	must.EqOp(t, uint64(1), *job.Version)

	evals, _, err := c.Jobs().Evaluations("web", nil)
	must.NoError(t, err)
	must.SliceLen(t, 3, evals)
	must.EqOp(t, first.EvalID, evals[2].ID)
	must.True(t, evals[0].CreateIndex > evals[1].CreateIndex)
	noEvals, _, err := c.Jobs().Evaluations("nope", nil)
	must.NoError(t, err)
	must.SliceEmpty(t, noEvals)

	_, _, err = c.Jobs().Info("nope", nil)
	must.EqError(t, err, "Unexpected response code: 404 (job not found)")
	_, _, err = c.Jobs().Summary("nope", nil)
	must.EqError(t, err, "Unexpected response code: 404 (job not found)")
}

// TestJobVersions is `nomad job history`: the versions the server keeps,
// which is the current one only, served as GET /v1/job/<id> serves it;
// no diffs, even when asked for; an unknown job is a 404.
func TestJobVersions(t *testing.T) {
	_, _, c := clusterOn(t)
	_, _, err := c.Jobs().Register(apiJob("web", 1), nil)
	must.NoError(t, err)
	changed := apiJob("web", 1)
	changed.TaskGroups[0].Tasks[0].Config = map[string]any{"run_for": "1h"}
	_, _, err = c.Jobs().Register(changed, nil)
	must.NoError(t, err)

	job, _, err := c.Jobs().Info("web", nil)
	must.NoError(t, err)
	versions, diffs, qm, err := c.Jobs().Versions("web", true, nil)
	must.NoError(t, err)
	must.Eq(t, []*api.Job{job}, versions)
	must.EqOp(t, uint64(1), *versions[0].Version)
	must.SliceEmpty(t, diffs)
	must.EqOp(t, *job.ModifyIndex, qm.LastIndex)

	_, _, _, err = c.Jobs().Versions("nope", false, nil)
	must.EqError(t, err, "Unexpected response code: 404 (job not found)")
}

// TestJobStopAndPurge is `nomad job stop [-purge]`: a job-deregister
// evaluation, every alloc to desired stop, the job stopped and dead (a
// new version); purged, it is gone and a registration under its ID is a
// new incarnation whose allocs alone are listed without all.
func TestJobStopAndPurge(t *testing.T) {
	srv, _, c := clusterOn(t)
	reg, _, err := c.Jobs().Register(apiJob("web", 2), nil)
	must.NoError(t, err)
	evalID, wm, err := c.Jobs().Deregister("web", false, nil)
	must.NoError(t, err)
	must.EqOp(t, srv.Index(), wm.LastIndex)
	must.NotEq(t, reg.EvalID, evalID)
	ev, _, err := c.Evaluations().Info(evalID, nil)
	must.NoError(t, err)
	must.EqOp(t, "job-deregister", ev.TriggeredBy)
	must.EqOp(t, api.EvalStatusComplete, ev.Status)
	old, _, err := c.Jobs().Allocations("web", false, nil)
	must.NoError(t, err)
	must.SliceLen(t, 2, old)
	for _, s := range old {
		must.EqOp(t, "stop", s.DesiredStatus)
	}
	job, _, err := c.Jobs().Info("web", nil)
	must.NoError(t, err)
	must.True(t, *job.Stop)
	must.EqOp(t, "dead", *job.Status)
	must.EqOp(t, uint64(1), *job.Version)
	list, _, err := c.Jobs().List(nil)
	must.NoError(t, err)
	must.True(t, list[0].Stop)

	_, _, err = c.Jobs().Deregister("web", true, nil)
	must.NoError(t, err)
	_, _, err = c.Jobs().Info("web", nil)
	must.EqError(t, err, "Unexpected response code: 404 (job not found)")
	list, _, err = c.Jobs().List(nil)
	must.NoError(t, err)
	must.SliceEmpty(t, list)
	_, _, err = c.Jobs().Deregister("web", true, nil)
	must.EqError(t, err, "Unexpected response code: 404 (job not found)")

	_, _, err = c.Jobs().Register(apiJob("web", 1), nil)
	must.NoError(t, err)
	job, _, err = c.Jobs().Info("web", nil)
	must.NoError(t, err)
	must.EqOp(t, uint64(0), *job.Version, must.Sprint("a new incarnation"))
	current, _, err := c.Jobs().Allocations("web", false, nil)
	must.NoError(t, err)
	must.SliceLen(t, 1, current)
	every, _, err := c.Jobs().Allocations("web", true, nil)
	must.NoError(t, err)
	must.SliceLen(t, 3, every)
}

// TestAllocStopAndRestart is `nomad alloc stop` (desired stop under an
// alloc-stop evaluation) and `nomad alloc restart` (forwarded to the node
// as Allocations.Restart with the task, all tasks, or neither).
func TestAllocStopAndRestart(t *testing.T) {
	_, node, c := clusterOn(t)
	_, _, err := c.Jobs().Register(apiJob("web", 1), nil)
	must.NoError(t, err)
	stubs, _, err := c.Jobs().Allocations("web", false, nil)
	must.NoError(t, err)
	alloc := &api.Allocation{ID: stubs[0].ID}

	must.NoError(t, c.Allocations().Restart(alloc, "t", nil))
	must.NoError(t, c.Allocations().Restart(alloc, "", nil))
	must.NoError(t, c.Allocations().RestartAllTasks(alloc, nil))
	must.Eq(t, []structs.AllocRestartRequest{
		{AllocID: alloc.ID, TaskName: "t"}, {AllocID: alloc.ID}, {AllocID: alloc.ID, AllTasks: true},
	}, node.restarts)
	err = c.Allocations().Restart(&api.Allocation{ID: "nope"}, "t", nil)
	must.EqError(t, err, `Unexpected response code: 404 (Unknown allocation "nope")`)

	resp, err := c.Allocations().Stop(alloc, nil)
	must.NoError(t, err)
	must.NotEq(t, "", resp.EvalID)
	ev, _, err := c.Evaluations().Info(resp.EvalID, nil)
	must.NoError(t, err)
	must.EqOp(t, "alloc-stop", ev.TriggeredBy)
	must.EqOp(t, "web", ev.JobID)
	must.EqOp(t, resp.LastIndex, ev.CreateIndex)
	got, _, err := c.Allocations().Info(alloc.ID, nil)
	must.NoError(t, err)
	must.EqOp(t, "stop", got.DesiredStatus)
	must.EqOp(t, resp.LastIndex, got.AllocModifyIndex)

	_, err = c.Allocations().Stop(&api.Allocation{ID: "nope"}, nil)
	must.EqError(t, err, "Unexpected response code: 404 (alloc not found)")

	evals, _, err := c.Evaluations().List(nil)
	must.NoError(t, err)
	must.SliceLen(t, 2, evals)
	must.EqOp(t, resp.EvalID, evals[0].ID, must.Sprint("newest first"))
	byPrefix, _, err := c.Evaluations().PrefixList(resp.EvalID[:4])
	must.NoError(t, err)
	must.True(t, slices.ContainsFunc(byPrefix, func(e *api.Evaluation) bool { return e.ID == resp.EvalID }))
}

// TestNodesAndSelf is `nomad node status [-self] [<node>]`: the node list
// and the node (described: name, drivers; nominal resources), its allocs,
// and /v1/agent/self naming the client's node as the simulated server
// records it.
func TestNodesAndSelf(t *testing.T) {
	_, _, c := clusterOn(t)
	_, _, err := c.Jobs().Register(apiJob("web", 1), nil)
	must.NoError(t, err)

	nodes, _, err := c.Nodes().List(nil)
	must.NoError(t, err)
	must.SliceLen(t, 1, nodes)
	stub := nodes[0]
	must.EqOp(t, nodeID, stub.ID)
	must.EqOp(t, "sim-1", stub.Name)
	must.EqOp(t, "ready", stub.Status)
	must.EqOp(t, "eligible", stub.SchedulingEligibility)
	must.EqOp(t, "dc1", stub.Datacenter)
	must.EqOp(t, "default", stub.NodePool)
	must.EqOp(t, agent.NomadVersion, stub.Version)
	must.MapContainsKeys(t, stub.Drivers, []string{"mock_driver", "raw_exec"})
	prefixed, _, err := c.Nodes().PrefixList("zz")
	must.NoError(t, err)
	must.SliceEmpty(t, prefixed)

	node, _, err := c.Nodes().Info(nodeID, nil)
	must.NoError(t, err)
	must.EqOp(t, "sim-1", node.Name)
	must.NotNil(t, node.NodeResources)
	must.Positive(t, node.NodeResources.Cpu.CpuShares)
	must.Positive(t, node.NodeResources.Memory.MemoryMB)
	must.NotNil(t, node.ReservedResources)
	must.True(t, node.Drivers["raw_exec"].Healthy)
	allocs, _, err := c.Nodes().Allocations(nodeID, nil)
	must.NoError(t, err)
	must.SliceLen(t, 1, allocs)
	must.EqOp(t, "sim-1", allocs[0].NodeName)
	must.NotNil(t, allocs[0].Job.Version)

	_, _, err = c.Nodes().Info("nope", nil)
	must.EqError(t, err, "Unexpected response code: 404 (node not found)")
	_, _, err = c.Nodes().Allocations("nope", nil)
	must.EqError(t, err, "Unexpected response code: 404 (node not found)")

	self, err := c.Agent().Self()
	must.NoError(t, err)
	must.EqOp(t, nodeID, self.Stats["client"]["node_id"])
	must.EqOp(t, "1", self.Stats["client"]["num_allocations"])
	must.EqOp(t, "sim-1.global", self.Member.Name)
	must.EqOp(t, "sim-1", self.Config["NodeName"])
}

// TestSearch is the prefix search `nomad status <prefix>` starts with:
// every context for `all`, the IDs sorted, one context when named.
func TestSearch(t *testing.T) {
	_, _, c := clusterOn(t)
	reg, _, err := c.Jobs().Register(apiJob("web", 1), nil)
	must.NoError(t, err)
	stubs, _, err := c.Jobs().Allocations("web", false, nil)
	must.NoError(t, err)

	resp, _, err := c.Search().PrefixSearch("web", contexts.All, nil)
	must.NoError(t, err)
	must.Eq(t, []string{"web"}, resp.Matches[contexts.Jobs])
	must.SliceEmpty(t, resp.Matches[contexts.Allocs])
	must.MapContainsKeys(t, resp.Matches, []contexts.Context{contexts.Allocs, contexts.Deployments, contexts.Evals, contexts.Jobs, contexts.Nodes})
	must.False(t, resp.Truncations[contexts.Jobs])

	resp, _, err = c.Search().PrefixSearch(stubs[0].ID[:6], contexts.All, nil)
	must.NoError(t, err)
	must.Eq(t, []string{stubs[0].ID}, resp.Matches[contexts.Allocs])
	resp, _, err = c.Search().PrefixSearch(reg.EvalID[:8], contexts.Evals, nil)
	must.NoError(t, err)
	must.Eq(t, map[contexts.Context][]string{contexts.Evals: {reg.EvalID}}, resp.Matches)
	resp, _, err = c.Search().PrefixSearch("node", contexts.Nodes, nil)
	must.NoError(t, err)
	must.Eq(t, []string{nodeID}, resp.Matches[contexts.Nodes])
}
