package apiserver_test

import (
	"errors"
	"io"
	"regexp"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/apiserver"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

const nodeID = "node-1"

// nodeStub answers forwarded client RPCs: the pause state it was last
// set to, or its error.
type nodeStub struct {
	state structs.TaskScheduleState
	err   error
}

func (n *nodeStub) ClientRPC(method string, args, reply any) error {
	if n.err != nil {
		return n.err
	}
	switch method {
	case structs.RPCClientSetPauseState:
		n.state = args.(*structs.AllocPauseRequest).ScheduleState
	case structs.RPCClientGetPauseState:
		reply.(*structs.AllocGetPauseStateResponse).ScheduleState = n.state
	}
	return nil
}

// agentOn builds the simulated server (one ready node), the adapter, an
// agent without a local client (every pause and signal request is
// forwarded through the server, API-7) and the official client over the
// in-memory transport.
func agentOn(t *testing.T) (*server.Server, *api.Client) {
	t.Helper()
	srv, err := server.New(server.Config{Clock: vclock.New(time.Date(2024, 6, 14, 9, 0, 0, 0, time.UTC)), Rand: seeds.Stream(3, "server")})
	must.NoError(t, err)
	must.NoError(t, srv.RegisterNode(nodeID, syncpolicy.NodeStatusReady))
	h, err := agent.New(agent.Config{Server: apiserver.New(srv, seeds.Stream(3, apiserver.EvalStream))})
	must.NoError(t, err)
	c, err := agent.NewAPIClient(h)
	must.NoError(t, err)
	return srv, c
}

func apiJob(id string, count int) *api.Job {
	j := api.NewServiceJob(id, id, "global", 50)
	tg := api.NewTaskGroup("g", count)
	tg.AddTask(api.NewTask("t", "mock_driver"))
	j.AddTaskGroup(tg)
	return j
}

// TestAgentOverSimulatedServer: through the official client, a job
// registers on the simulated server with the adapter's indexes and eval
// ID (API-4), reads list it (API-5), and forwarded pause calls reach the
// node or fail with the server's routing errors mapped by the agent
// (API-7): unknown alloc and no path to node are 404s, a missing alloc ID
// a 500.
func TestAgentOverSimulatedServer(t *testing.T) {
	srv, c := agentOn(t)
	resp, _, err := c.Jobs().Register(apiJob("web", 2), nil)
	must.NoError(t, err)
	must.EqOp(t, seeds.ID(seeds.Stream(3, apiserver.EvalStream)), resp.EvalID)
	must.EqOp(t, srv.Index(), resp.JobModifyIndex)
	must.EqOp(t, srv.Index(), resp.EvalCreateIndex)

	stubs, meta, err := c.Jobs().Allocations("web", false, nil)
	must.NoError(t, err)
	must.SliceLen(t, 2, stubs)
	must.EqOp(t, srv.Index(), meta.LastIndex)
	must.True(t, stubs[0].ID < stubs[1].ID, must.Sprint("sorted by ID"))
	byPrefix, _, err := c.Allocations().PrefixList(stubs[1].ID[:6])
	must.NoError(t, err)
	must.SliceLen(t, 1, byPrefix)
	must.EqOp(t, stubs[1].ID, byPrefix[0].ID)
	alloc, _, err := c.Allocations().Info(stubs[0].ID, nil)
	must.NoError(t, err)
	must.EqOp(t, "web", *alloc.Job.ID)

	// Not connected yet: the server has no path to the node.
	err = c.Allocations().SetPauseState(alloc, nil, "t", "pause")
	must.EqError(t, err, "Unexpected response code: 404 (No path to node)")

	node := &nodeStub{}
	srv.Connect(nodeID, node)
	must.NoError(t, c.Allocations().SetPauseState(alloc, nil, "t", "pause"))
	state, _, err := c.Allocations().GetPauseState(alloc, nil, "t")
	must.NoError(t, err)
	must.EqOp(t, "force_pause", state)

	_, _, err = c.Allocations().GetPauseState(&api.Allocation{ID: "nope"}, nil, "t")
	must.EqError(t, err, `Unexpected response code: 404 (Unknown allocation "nope")`)
	_, _, err = c.Allocations().GetPauseState(&api.Allocation{ID: ""}, nil, "t")
	must.EqError(t, err, "Unexpected response code: 404 (Resource not found)", must.Sprint("no path token: API-2"))

	node.err = errors.New("Task not found")
	err = c.Allocations().Signal(alloc, nil, "ghost", "SIGHUP")
	must.EqError(t, err, "Unexpected response code: 500 (Task not found)", must.Sprint("the client's error, verbatim"))

	// Registering again with a group count of 0 touches no alloc: the
	// server's index.
	resp, _, err = c.Jobs().Register(apiJob("none", 0), nil)
	must.NoError(t, err)
	must.EqOp(t, srv.Index(), resp.JobModifyIndex)
}

// TestAgentServerValidation: a job the simulated server refuses is served
// as API-4's 500 multierror list (ce profile on the server only, so the
// agent's own admission lets it through and the adapter's error path
// serves it).
func TestAgentServerValidation(t *testing.T) {
	srv, err := server.New(server.Config{Clock: vclock.New(time.Date(2024, 6, 14, 9, 0, 0, 0, time.UTC)),
		Rand: seeds.Stream(3, "server"), Profile: "ce"})
	must.NoError(t, err)
	must.NoError(t, srv.RegisterNode(nodeID, syncpolicy.NodeStatusReady))
	h, err := agent.New(agent.Config{Server: apiserver.New(srv, nil), Profile: "ent"})
	must.NoError(t, err)
	c, err := agent.NewAPIClient(h)
	must.NoError(t, err)
	j := apiJob("web", 1)
	j.TaskGroups[0].Tasks[0].Schedule = &api.TaskSchedule{Cron: &api.TaskScheduleCron{Start: "0 9 * * * *", End: "0 17"}}
	_, _, err = c.Jobs().Register(j, nil)
	// The official client trims the body's trailing blank lines.
	must.EqError(t, err, "Unexpected response code: 500 (1 error occurred:\n\t* task schedules requires Nomad Enterprise)")
	must.SliceEmpty(t, srv.Allocs())

	raw, err := c.Raw().Response("/v1/allocations?prefix=", nil)
	must.NoError(t, err)
	defer raw.Close()
	body, err := io.ReadAll(raw)
	must.NoError(t, err)
	must.EqOp(t, "[]", string(body))
}

// parameterizedJob is a batch job that runs only when dispatched, with a
// default for its optional meta.
func parameterizedJob(id string) *api.Job {
	j := api.NewBatchJob(id, id, "global", 50)
	j.ParameterizedJob = &api.ParameterizedJobConfig{MetaRequired: []string{"shard"}, MetaOptional: []string{"out"}}
	j.Meta = map[string]string{"out": "/tmp/default", "owner": "ops"}
	tg := api.NewTaskGroup("g", 1)
	tg.AddTask(api.NewTask("t", "mock_driver"))
	j.AddTaskGroup(tg)
	return j
}

// TestAgentDispatch: through the official client, a parameterized job
// registers without allocs; a dispatch is checked against its
// parameterized block (Nomad's messages, 500s), an unknown job is a 404;
// a good one creates <job>/dispatch-<unix>-<8 hex> with the meta merged
// over the job's, places it, and answers its indexes and eval; the child
// cannot be dispatched itself.
func TestAgentDispatch(t *testing.T) {
	srv, c := agentOn(t)
	_, _, err := c.Jobs().Register(parameterizedJob("sweep"), nil)
	must.NoError(t, err)
	stubs, _, err := c.Jobs().Allocations("sweep", false, nil)
	must.NoError(t, err)
	must.SliceEmpty(t, stubs, must.Sprint("a parameterized job places nothing"))

	for _, tc := range []struct {
		job  string
		meta map[string]string
		want string
	}{
		{"sweep", nil, "Unexpected response code: 500 (Dispatch did not provide required meta keys: [shard])"},
		{"sweep", map[string]string{"shard": "1", "colour": "red", "bad": "x"},
			"Unexpected response code: 500 (Dispatch included unpermitted metadata keys: [bad colour])"},
		{"nope", map[string]string{"shard": "1"}, `Unexpected response code: 404 (job not found: "nope")`},
	} {
		_, _, err := c.Jobs().Dispatch(tc.job, tc.meta, nil, "", nil)
		must.EqError(t, err, tc.want)
	}
	_, _, err = c.Jobs().Register(apiJob("web", 1), nil)
	must.NoError(t, err)
	_, _, err = c.Jobs().Dispatch("web", nil, nil, "", nil)
	must.EqError(t, err, `Unexpected response code: 500 (Specified job "web" is not a parameterized job)`)

	resp, wm, err := c.Jobs().Dispatch("sweep", map[string]string{"shard": "2"}, nil, "", nil)
	must.NoError(t, err)
	// The simulated server's clock stands at 2024-06-14T09:00:00Z.
	must.RegexMatch(t, regexp.MustCompile(`^sweep/dispatch-1718355600-[0-9a-f]{8}$`), resp.DispatchedJobID)
	must.EqOp(t, srv.Index(), resp.JobCreateIndex)
	must.EqOp(t, srv.Index(), resp.EvalCreateIndex)
	must.EqOp(t, srv.Index(), wm.LastIndex)
	must.UUIDv4(t, resp.EvalID)

	stubs, _, err = c.Jobs().Allocations(resp.DispatchedJobID, false, nil)
	must.NoError(t, err)
	must.SliceLen(t, 1, stubs)
	alloc, _, err := c.Allocations().Info(stubs[0].ID, nil)
	must.NoError(t, err)
	child := alloc.Job
	must.EqOp(t, resp.DispatchedJobID, *child.ID)
	must.EqOp(t, resp.DispatchedJobID, *child.Name)
	must.EqOp(t, "sweep", *child.ParentID)
	must.True(t, child.Dispatched)
	must.Eq(t, map[string]string{"out": "/tmp/default", "owner": "ops", "shard": "2"}, child.Meta)

	_, _, err = c.Jobs().Dispatch(resp.DispatchedJobID, map[string]string{"shard": "3"}, nil, "", nil)
	must.EqError(t, err, `Unexpected response code: 500 (Specified job "`+resp.DispatchedJobID+`" is not a parameterized job)`)
}

// TestAgentParameterizedAdmission: a parameterized job must be batch or
// sysbatch (500, the multierror list of API-4).
func TestAgentParameterizedAdmission(t *testing.T) {
	_, c := agentOn(t)
	j := parameterizedJob("svc")
	j.Type = new("service")
	_, _, err := c.Jobs().Register(j, nil)
	must.EqError(t, err, "Unexpected response code: 500 (1 error occurred:\n\t* Parameterized job can only be used with \"batch\" or \"sysbatch\" scheduler)")
}
