package agent_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// rpcCall is one recorded RPC.
type rpcCall struct {
	Method string
	Args   any
}

// fakeClient is a node client holding some allocs; it keeps pause states
// and records signals, answering the client RPCs of API-7.
type fakeClient struct {
	mu      sync.Mutex
	node    string
	tasks   map[string][]string // alloc → task names
	paused  map[string]structs.TaskScheduleState
	calls   []rpcCall
	failRPC error
}

var _ interfaces.Client = (*fakeClient)(nil)

func newFakeClient(node string, allocTasks map[string][]string) *fakeClient {
	return &fakeClient{node: node, tasks: allocTasks, paused: map[string]structs.TaskScheduleState{}}
}

func (c *fakeClient) Start() error   { return nil }
func (c *fakeClient) Shutdown()      {}
func (c *fakeClient) NodeID() string { return c.node }
func (c *fakeClient) Calls() []rpcCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.calls)
}

func (c *fakeClient) AllocRunner(allocID string) (interfaces.AllocRunner, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.tasks[allocID]
	return nil, ok
}

func (c *fakeClient) ClientRPC(method string, args any, reply any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, rpcCall{Method: method, Args: args})
	if c.failRPC != nil {
		return c.failRPC
	}
	switch method {
	case structs.RPCClientSetPauseState:
		req := args.(*structs.AllocPauseRequest)
		key, err := c.task(req.AllocID, req.Task)
		if err != nil {
			return err
		}
		if req.ScheduleState == structs.TaskScheduleStateScheduleResume {
			c.paused[key] = ""
		} else {
			c.paused[key] = req.ScheduleState
		}
		reply.(*structs.GenericResponse).Index = 0
	case structs.RPCClientGetPauseState:
		req := args.(*structs.AllocGetPauseStateRequest)
		key, err := c.task(req.AllocID, req.Task)
		if err != nil {
			return err
		}
		reply.(*structs.AllocGetPauseStateResponse).ScheduleState = c.paused[key]
	case structs.RPCClientSignal:
		req := args.(*structs.AllocSignalRequest)
		if req.Task != "" {
			if _, err := c.task(req.AllocID, req.Task); err != nil {
				return err
			}
		} else if _, ok := c.tasks[req.AllocID]; !ok {
			return fmt.Errorf("Unknown allocation %q", req.AllocID)
		}
		reply.(*structs.GenericResponse).Index = 0
	case structs.RPCClientRestart:
		req := args.(*structs.AllocRestartRequest)
		if req.TaskName != "" {
			if _, err := c.task(req.AllocID, req.TaskName); err != nil {
				return err
			}
		} else if _, ok := c.tasks[req.AllocID]; !ok {
			return fmt.Errorf("Unknown allocation %q", req.AllocID)
		}
		reply.(*structs.GenericResponse).Index = 0
	default:
		return fmt.Errorf("unknown method %s", method)
	}
	return nil
}

func (c *fakeClient) task(allocID, task string) (string, error) {
	tasks, ok := c.tasks[allocID]
	if !ok {
		return "", fmt.Errorf("Unknown allocation %q", allocID)
	}
	if !slices.Contains(tasks, task) {
		return "", errors.New("Task not found")
	}
	return allocID + "/" + task, nil
}

// fakeServer stores allocs and forwards the server RPCs of API-7 to the
// node clients connected to it.
type fakeServer struct {
	mu         sync.Mutex
	allocs     map[string]*structs.Allocation
	nodes      map[string]*fakeClient // connected nodes
	registered []*structs.Job
	lastAll    *bool
	registerFn func(*structs.Job) (string, uint64, uint64, error)
	calls      []rpcCall
}

var _ agent.Server = (*fakeServer)(nil)

func newFakeServer(allocs ...*structs.Allocation) *fakeServer {
	s := &fakeServer{allocs: map[string]*structs.Allocation{}, nodes: map[string]*fakeClient{}}
	for _, a := range allocs {
		s.allocs[a.ID] = a
	}
	return s
}

func (s *fakeServer) connect(c *fakeClient) { s.nodes[c.node] = c }

func (s *fakeServer) Registered() []*structs.Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.registered)
}

func (s *fakeServer) Calls() []rpcCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

func (s *fakeServer) RegisterJob(job *structs.Job) (string, uint64, uint64, error) {
	s.mu.Lock()
	s.registered = append(s.registered, job)
	fn := s.registerFn
	s.mu.Unlock()
	if fn != nil {
		return fn(job)
	}
	return "eval-1", 7, 7, nil
}

func (s *fakeServer) JobAllocations(jobID string, all bool) []*structs.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastAll = &all
	var out []*structs.Allocation
	for _, a := range s.allocs {
		if a.JobID == jobID {
			out = append(out, a.Copy())
		}
	}
	return out
}

func (s *fakeServer) Alloc(id string) (*structs.Allocation, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.allocs[id]
	return a.Copy(), ok
}

func (s *fakeServer) AllocsByPrefix(prefix string) []*structs.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*structs.Allocation
	for id, a := range s.allocs {
		if strings.HasPrefix(id, prefix) {
			out = append(out, a.Copy())
		}
	}
	return out
}

// RPC applies API-7's server checks, then forwards to the node's client
// with the client method.
func (s *fakeServer) RPC(method string, args, reply any) error {
	s.mu.Lock()
	s.calls = append(s.calls, rpcCall{Method: method, Args: args})
	s.mu.Unlock()
	var allocID, clientMethod string
	switch a := args.(type) {
	case *structs.AllocPauseRequest:
		allocID, clientMethod = a.AllocID, structs.RPCClientSetPauseState
	case *structs.AllocGetPauseStateRequest:
		allocID, clientMethod = a.AllocID, structs.RPCClientGetPauseState
	case *structs.AllocSignalRequest:
		allocID, clientMethod = a.AllocID, structs.RPCClientSignal
	case *structs.AllocRestartRequest:
		allocID, clientMethod = a.AllocID, structs.RPCClientRestart
	default:
		return fmt.Errorf("bad args %T", args)
	}
	if want := strings.Replace(clientMethod, "Allocations.", "ClientAllocations.", 1); method != want {
		return fmt.Errorf("method %s with args %T", method, args)
	}
	if allocID == "" {
		return errors.New("missing AllocID")
	}
	s.mu.Lock()
	a, ok := s.allocs[allocID]
	var node *fakeClient
	if ok {
		node = s.nodes[a.NodeID]
	}
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("Unknown allocation %q", allocID)
	}
	if node == nil {
		return errors.New("No path to node")
	}
	return node.ClientRPC(clientMethod, args, reply)
}

// fixture: allocs a1 (job web, node local), a2 (job web, node remote), b1
// (job other, node gone: not connected).
func fixtureAllocs() []*structs.Allocation {
	job := &structs.Job{ID: "web", Name: "web", Namespace: "default", Type: "service",
		TaskGroups: []*structs.TaskGroup{{
			Name: "g", Count: 2,
			RestartPolicy: structs.NewRestartPolicy(2, 30*time.Minute, 15*time.Second, "fail"),
			Tasks: []*structs.Task{{
				Name: "app", Driver: "mock_driver", KillTimeout: 5 * time.Second, KillSignal: "SIGINT",
				Schedule: &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17"}},
			}},
		}}}
	started := time.Date(2024, 3, 10, 9, 0, 0, 0, time.UTC)
	states := func(paused structs.TaskScheduleState) map[string]*structs.TaskState {
		return map[string]*structs.TaskState{"app": {
			State: "running", StartedAt: started, Paused: paused,
			Events: []*structs.TaskEvent{{Type: "Started", Time: started.UnixNano(),
				DisplayMessage: "Task started by client", Details: map[string]string{}}},
		}}
	}
	return []*structs.Allocation{
		{ID: "a1aa0000-0000-0000-0000-000000000000", Name: "web.g[0]", NodeID: "local", Namespace: "default",
			JobID: "web", Job: job, TaskGroup: "g", DesiredStatus: "run", ClientStatus: "running",
			ClientDescription: "Tasks are running", TaskStates: states(structs.TaskScheduleStateForcePause),
			CreateIndex: 3, ModifyIndex: 9, AllocModifyIndex: 3, CreateTime: 100, ModifyTime: 200},
		{ID: "a2bb0000-0000-0000-0000-000000000000", Name: "web.g[1]", NodeID: "remote", Namespace: "default",
			JobID: "web", Job: job, TaskGroup: "g", DesiredStatus: "run", ClientStatus: "pending",
			TaskStates: states(""), CreateIndex: 3, ModifyIndex: 12, AllocModifyIndex: 3},
		{ID: "b1cc0000-0000-0000-0000-000000000000", Name: "other.g[0]", NodeID: "gone", Namespace: "default",
			JobID: "other", TaskGroup: "g", DesiredStatus: "run", ClientStatus: "pending",
			CreateIndex: 4, ModifyIndex: 4, AllocModifyIndex: 4},
	}
}

const (
	allocLocal  = "a1aa0000-0000-0000-0000-000000000000"
	allocRemote = "a2bb0000-0000-0000-0000-000000000000"
	allocGone   = "b1cc0000-0000-0000-0000-000000000000"
)

// rig is an agent with a local client (holding allocLocal), a server and
// a remote client (holding allocRemote), and the official Go client.
type rig struct {
	server *fakeServer
	local  *fakeClient
	remote *fakeClient
	h      *agent.Handler
	api    *api.Client
}

func newRig(t *testing.T, cfg agent.Config) *rig {
	t.Helper()
	r := &rig{
		server: newFakeServer(fixtureAllocs()...),
		local:  newFakeClient("local", map[string][]string{allocLocal: {"app"}}),
		remote: newFakeClient("remote", map[string][]string{allocRemote: {"app"}}),
	}
	r.server.connect(r.local)
	r.server.connect(r.remote)
	cfg.Server = r.server
	if cfg.Client == nil {
		cfg.Client = r.local
	}
	h, err := agent.New(cfg)
	must.NoError(t, err)
	r.h = h
	c, err := agent.NewAPIClient(h)
	must.NoError(t, err)
	r.api = c
	return r
}

// response is a raw HTTP exchange's result.
type response struct {
	Status int
	Header http.Header
	Body   string
}

// do sends one raw request through the in-memory transport.
func do(t *testing.T, h http.Handler, method, target, body string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, agent.InMemoryAddress+target, rd)
	must.NoError(t, err)
	resp, err := agent.InMemoryTransport(h).RoundTrip(req)
	must.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	must.NoError(t, err)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
}

// mustSuccessHeaders checks API-1's success headers.
func mustSuccessHeaders(t *testing.T, r response, index string) {
	t.Helper()
	must.EqOp(t, http.StatusOK, r.Status, must.Sprint(r.Body))
	must.EqOp(t, index, r.Header.Get("X-Nomad-Index"))
	must.EqOp(t, "0", r.Header.Get("X-Nomad-LastContact"))
	must.EqOp(t, "true", r.Header.Get("X-Nomad-KnownLeader"))
}

func decodeJSON(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func stringsReader(s string) io.Reader { return strings.NewReader(s) }
