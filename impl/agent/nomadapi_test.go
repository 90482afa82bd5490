package agent_test

import (
	"net/http"
	"testing"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// The endpoints of issue 14 that need no Cluster, on the fake server:
// the agent's identity, validation, plan, restart, and allocs served with
// what the CLI dereferences. The Cluster endpoints are tested on the
// simulated server (sim/apiserver).

// TestAgentIdentity: /v1/agent/self as `node status -self`, `agent-info`
// and the client's cache read it, /v1/agent/members as `server members`
// reads it, and the status and region endpoints.
func TestAgentIdentity(t *testing.T) {
	r := newRig(t, agent.Config{})
	self, err := r.api.Agent().Self()
	must.NoError(t, err)
	must.EqOp(t, "node-local.global", self.Member.Name)
	must.EqOp(t, "alive", self.Member.Status)
	must.EqOp(t, "local", self.Stats["client"]["node_id"], must.Sprint("node status -self"))
	must.EqOp(t, "true", self.Stats["nomad"]["leader"])
	must.EqOp(t, "global", self.Config["Region"])
	must.EqOp(t, "dc1", self.Config["Datacenter"])
	must.EqOp(t, true, self.Config["Client"].(map[string]any)["Enabled"])
	must.EqOp(t, true, self.Config["Server"].(map[string]any)["Enabled"])
	must.EqOp(t, agent.NomadVersion, self.Config["Version"].(map[string]any)["Version"])
	name, err := r.api.Agent().NodeName()
	must.NoError(t, err)
	must.EqOp(t, self.Member.Name, name)

	members, err := r.api.Agent().Members()
	must.NoError(t, err)
	must.EqOp(t, "global", members.ServerRegion)
	must.EqOp(t, "dc1", members.ServerDC)
	must.SliceLen(t, 1, members.Members)
	m := members.Members[0]
	must.EqOp(t, "global", m.Tags["region"])
	must.EqOp(t, agent.NomadVersion, m.Tags["build"])

	leader, err := r.api.Status().Leader()
	must.NoError(t, err)
	must.EqOp(t, m.Addr+":"+m.Tags["port"], leader, must.Sprint("server members marks the leader by its address"))
	peers, err := r.api.Status().Peers()
	must.NoError(t, err)
	must.Eq(t, []string{leader}, peers)
	regions, err := r.api.Regions().List()
	must.NoError(t, err)
	must.Eq(t, []string{"global"}, regions)

	// A server-only agent in another region: no client stats.
	h, err := agent.New(agent.Config{Server: newFakeServer(), Region: "eu"})
	must.NoError(t, err)
	c, err := agent.NewAPIClient(h)
	must.NoError(t, err)
	self, err = c.Agent().Self()
	must.NoError(t, err)
	must.EqOp(t, "server.eu", self.Member.Name)
	must.MapNotContainsKey(t, self.Stats, "client")
	must.EqOp(t, false, self.Config["Client"].(map[string]any)["Enabled"])
	regions, err = c.Regions().List()
	must.NoError(t, err)
	must.Eq(t, []string{"eu"}, regions)
}

func validJob(id string) *api.Job {
	j := api.NewServiceJob(id, id, "global", 50)
	tg := api.NewTaskGroup("g", 1)
	tg.AddTask(api.NewTask("t", "mock_driver"))
	j.AddTaskGroup(tg)
	return j
}

// TestValidateEndpoint: PUT /v1/validate/job answers the admission of
// API-4 (schedules per the profile) as a validation response, a job
// without ID included; no job and a malformed body are 400s.
func TestValidateEndpoint(t *testing.T) {
	r := newRig(t, agent.Config{Profile: "ce"})
	resp, _, err := r.api.Jobs().Validate(validJob("ok"), nil)
	must.NoError(t, err)
	must.True(t, resp.DriverConfigValidated)
	must.SliceEmpty(t, resp.ValidationErrors)
	must.EqOp(t, "", resp.Error)

	bad := validJob("")
	bad.TaskGroups[0].Tasks[0].Schedule = &api.TaskSchedule{Cron: &api.TaskScheduleCron{Start: "0 9 * * * *", End: "0 17"}}
	resp, _, err = r.api.Jobs().Validate(bad, nil)
	must.NoError(t, err)
	must.Eq(t, []string{structs.MsgJobNoID, "task schedules requires Nomad Enterprise"}, resp.ValidationErrors)
	must.EqOp(t, "2 errors occurred:\n\t* Job must have a valid ID\n\t* task schedules requires Nomad Enterprise\n\n", resp.Error)
	must.EqOp(t, "", resp.Warnings)
	must.SliceEmpty(t, r.server.Registered(), must.Sprint("validation registers nothing"))

	for _, tc := range []struct {
		method, body string
		status       int
		want         string
	}{
		{http.MethodPut, `{}`, 400, agent.MsgJobMissing},
		{http.MethodPost, `{"Job":`, 400, "Failed to decode body: unexpected EOF"},
		{http.MethodGet, ``, 405, agent.MsgInvalidMethod},
	} {
		got := do(t, r.h, tc.method, "/v1/validate/job", tc.body)
		must.EqOp(t, tc.status, got.Status, must.Sprint(tc.body))
		must.EqOp(t, tc.want, got.Body)
	}
}

// TestNotSupported: the routes of Nomad's API the agent does not serve,
// as the official client calls them for the CLI, each get a clear 501
// naming the command, not a 404; their paths with another method are
// 405s, and a path Nomad does not have is still a 404.
func TestNotSupported(t *testing.T) {
	r := newRig(t, agent.Config{})
	c := r.api
	count := 2
	cases := []struct {
		op   string
		call func() error
	}{
		{"job plan", func() error { _, _, err := c.Jobs().Plan(validJob("web"), true, nil); return err }},
		{"job eval", func() error { _, _, err := c.Jobs().ForceEvaluate("web", nil); return err }},
		{"job scale", func() error { _, _, err := c.Jobs().Scale("web", "g", &count, "", false, nil, nil); return err }},
		{"job scale", func() error { _, _, err := c.Jobs().ScaleStatus("web", nil); return err }},
		{"job revert", func() error { _, _, err := c.Jobs().Revert("web", 0, nil, nil, "", ""); return err }},
		{"job periodic force", func() error { _, _, err := c.Jobs().PeriodicForce("web", nil); return err }},
		{"alloc checks", func() error { _, err := c.Allocations().Checks(allocLocal, nil); return err }},
		{"alloc status -stats", func() error { _, err := c.Allocations().Stats(&api.Allocation{ID: allocLocal}, nil); return err }},
		{"node status -stats", func() error { _, err := c.Nodes().Stats("local", nil); return err }},
		{"node eligibility", func() error { _, err := c.Nodes().ToggleEligibility("local", false, nil); return err }},
		{"node drain", func() error { _, err := c.Nodes().UpdateDrain("local", &api.DrainSpec{}, false, nil); return err }},
		{"node purge", func() error { _, _, err := c.Nodes().Purge("local", nil); return err }},
		{"namespace list", func() error { _, _, err := c.Namespaces().List(nil); return err }},
		{"namespace status", func() error { _, _, err := c.Namespaces().Info("default", nil); return err }},
		{"var list", func() error { _, _, err := c.Variables().List(nil); return err }},
		{"var get", func() error { _, _, err := c.Variables().Read("a/b", nil); return err }},
		{"var put", func() error { _, _, err := c.Variables().Create(&api.Variable{Path: "a/b"}, nil); return err }},
		{"var purge", func() error { _, err := c.Variables().Delete("a/b", nil); return err }},
		{"deployment list", func() error { _, _, err := c.Deployments().List(nil); return err }},
		{"system gc", func() error { return c.System().GarbageCollect() }},
		{"system reconcile summaries", func() error { return c.System().ReconcileSummaries() }},
	}
	for _, tc := range cases {
		must.EqError(t, tc.call(), "Unexpected response code: 501 ("+tc.op+" is not supported by this agent)")
	}

	// alloc exec is a websocket; its handshake gets the 501.
	got := do(t, r.h, http.MethodGet, "/v1/client/allocation/"+allocLocal+"/exec?task=app&command=%5B%22sh%22%5D", "")
	must.EqOp(t, http.StatusNotImplemented, got.Status)
	must.EqOp(t, "alloc exec is not supported by this agent", got.Body)
	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{http.MethodPost, "/v1/job/web/evaluate", 501, "job eval is not supported by this agent"},
		{http.MethodDelete, "/v1/job/web/plan", 405, agent.MsgInvalidMethod},
		{http.MethodGet, "/v1/system/gc", 405, agent.MsgInvalidMethod},
		{http.MethodGet, "/v1/job/web/plans", 404, "Resource not found"},
		{http.MethodGet, "/v1/namespaces/default", 404, "Resource not found"},
	} {
		got := do(t, r.h, tc.method, tc.path, "")
		must.EqOp(t, tc.status, got.Status, must.Sprint(tc.method, " ", tc.path))
		must.EqOp(t, tc.body, got.Body, must.Sprint(tc.method, " ", tc.path))
	}
	must.SliceEmpty(t, r.server.Calls())
	must.SliceEmpty(t, r.local.Calls())
}

// TestRestartRouting: a restart is routed as a signal is (API-7): the
// local client's Allocations.Restart for its alloc, the server's
// ClientAllocations.Restart otherwise; a task and all tasks at once is a
// 400 before any routing.
func TestRestartRouting(t *testing.T) {
	r := newRig(t, agent.Config{})
	must.NoError(t, r.api.Allocations().Restart(&api.Allocation{ID: allocLocal}, "app", nil))
	must.NoError(t, r.api.Allocations().RestartAllTasks(&api.Allocation{ID: allocRemote}, nil))
	must.Eq(t, []rpcCall{{Method: structs.RPCClientRestart, Args: &structs.AllocRestartRequest{AllocID: allocLocal, TaskName: "app"}}}, r.local.Calls())
	must.Eq(t, []rpcCall{{Method: structs.RPCServerRestart, Args: &structs.AllocRestartRequest{AllocID: allocRemote, AllTasks: true}}}, r.server.Calls())

	err := r.api.Allocations().Restart(&api.Allocation{ID: allocLocal}, "ghost", nil)
	must.EqError(t, err, "Unexpected response code: 500 (Task not found)")
	err = r.api.Allocations().Restart(&api.Allocation{ID: allocGone}, "", nil)
	must.EqError(t, err, "Unexpected response code: 404 (No path to node)")
	got := do(t, r.h, http.MethodPost, "/v1/client/allocation/"+allocLocal+"/restart", `{"TaskName":"app","AllTasks":true}`)
	must.EqOp(t, 400, got.Status)
	must.EqOp(t, "a restart names either a task or all tasks, not both", got.Body)
	got = do(t, r.h, http.MethodGet, "/v1/client/allocation/"+allocLocal+"/restart", ``)
	must.EqOp(t, 405, got.Status)
}

// TestServedAllocWithoutCluster: a Server without the Cluster part still
// serves allocs the CLI can print (a job Version, a node name), and none
// of the Cluster's paths.
func TestServedAllocWithoutCluster(t *testing.T) {
	r := newRig(t, agent.Config{})
	a, _, err := r.api.Allocations().Info(allocLocal, nil)
	must.NoError(t, err)
	must.NotNil(t, a.Job.Version)
	must.NotNil(t, a.Job.Priority)
	must.EqOp(t, "node-local", a.NodeName)
	must.EqOp(t, "", a.EvalID)
	must.NotNil(t, a.AllocatedResources.Tasks["app"])
	stubs, _, err := r.api.Jobs().Allocations("web", false, nil)
	must.NoError(t, err)
	must.EqOp(t, "node-local", stubs[0].NodeName)

	for _, path := range []string{"/v1/job/web", "/v1/job/web/summary", "/v1/job/web/versions", "/v1/evaluations", "/v1/nodes", "/v1/node/local"} {
		got := do(t, r.h, http.MethodGet, path, "")
		must.EqOp(t, 404, got.Status, must.Sprint(path))
		must.EqOp(t, "Resource not found", got.Body)
	}
	must.EqOp(t, 405, do(t, r.h, http.MethodGet, "/v1/jobs", "").Status, must.Sprint("only registration"))
}
