package agent_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// TestAPI2_SetPauseLocal: the agent's own client holds the alloc, so the
// client RPC is called locally and the server is not involved (API-7).
func TestAPI2_SetPauseLocal(t *testing.T) {
	cases := []struct {
		request string
		want    structs.TaskScheduleState
		stored  structs.TaskScheduleState
	}{
		{"pause", structs.TaskScheduleStateForcePause, structs.TaskScheduleStateForcePause},
		{"run", structs.TaskScheduleStateForceRun, structs.TaskScheduleStateForceRun},
		{"scheduled", structs.TaskScheduleStateScheduleResume, ""},
	}
	for _, tc := range cases {
		t.Run(tc.request, func(t *testing.T) {
			r := newRig(t, agent.Config{})
			alloc := &api.Allocation{ID: allocLocal}
			must.NoError(t, r.api.Allocations().SetPauseState(alloc, &api.QueryOptions{Region: "global"}, "app", tc.request))
			must.Eq(t, []rpcCall{{Method: structs.RPCClientSetPauseState, Args: &structs.AllocPauseRequest{
				AllocID: allocLocal, Task: "app", ScheduleState: tc.want,
				WriteRequest: structs.WriteRequest{Region: "global"},
			}}}, r.local.Calls())
			must.SliceEmpty(t, r.server.Calls())

			state, _, err := r.api.Allocations().GetPauseState(alloc, nil, "app")
			must.NoError(t, err)
			must.EqOp(t, string(tc.stored), state)
			must.EqOp(t, structs.RPCClientGetPauseState, r.local.Calls()[1].Method)
			must.SliceEmpty(t, r.server.Calls())
		})
	}
}

// TestAPI2_SetPauseForwarded: another node holds the alloc, so the server
// RPC is called and forwards to that node (API-7).
func TestAPI2_SetPauseForwarded(t *testing.T) {
	r := newRig(t, agent.Config{})
	alloc := &api.Allocation{ID: allocRemote}
	must.NoError(t, r.api.Allocations().SetPauseState(alloc, nil, "app", "pause"))
	want := &structs.AllocPauseRequest{AllocID: allocRemote, Task: "app", ScheduleState: structs.TaskScheduleStateForcePause}
	must.Eq(t, []rpcCall{{Method: structs.RPCServerSetPauseState, Args: want}}, r.server.Calls())
	must.Eq(t, []rpcCall{{Method: structs.RPCClientSetPauseState, Args: want}}, r.remote.Calls())
	must.SliceEmpty(t, r.local.Calls())

	state, qm, err := r.api.Allocations().GetPauseState(alloc, &api.QueryOptions{Region: "r1"}, "app")
	must.NoError(t, err)
	must.EqOp(t, "force_pause", state)
	must.EqOp(t, uint64(1), qm.LastIndex)
	must.Eq(t, rpcCall{Method: structs.RPCServerGetPauseState, Args: &structs.AllocGetPauseStateRequest{
		AllocID: allocRemote, Task: "app", QueryOptions: structs.QueryOptions{Region: "r1"},
	}}, r.server.Calls()[1])
}

// TestAPI2_Raw checks exact bodies and headers of set and get.
func TestAPI2_Raw(t *testing.T) {
	r := newRig(t, agent.Config{})
	for _, method := range []string{http.MethodPut, http.MethodPost} {
		got := do(t, r.h, method, "/v1/client/allocation/"+allocLocal+"/pause", `{"Task":"app","ScheduleState":"pause","Extra":1}`)
		mustSuccessHeaders(t, got, "1")
		must.EqOp(t, `{"Index":0}`, got.Body)
	}
	got := do(t, r.h, http.MethodGet, "/v1/client/allocation/"+allocLocal+"/pause?task=app", "")
	mustSuccessHeaders(t, got, "1")
	must.EqOp(t, `{"ScheduleState":"force_pause"}`, got.Body)
}

// TestAPI2_Order: method, then decode, then the state mapping, all before
// any lookup: no RPC is made for a rejected request.
func TestAPI2_Order(t *testing.T) {
	r := newRig(t, agent.Config{})
	pause := "/v1/client/allocation/nope/pause"
	cases := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"method", http.MethodDelete, pause, `{`, 405, "Invalid method"},
		{"decode", http.MethodPut, pause, `{"Task":`, 400, "Failed to decode body: unexpected EOF"},
		{"decode type", http.MethodPut, pause, `{"ScheduleState":1}`, 400,
			"Failed to decode body: json: cannot unmarshal number into Go struct field AllocPauseRequest.ScheduleState of type string"},
		{"empty body", http.MethodPut, pause, ``, 400, "Not a valid task schedule state"},
		{"bad state", http.MethodPost, pause, `{"Task":"app","ScheduleState":"force_pause"}`, 400, "Not a valid task schedule state"},
		{"case", http.MethodPost, pause, `{"ScheduleState":"Pause"}`, 400, "Not a valid task schedule state"},
		{"one token", http.MethodPut, "/v1/client/allocation/nope", `{"ScheduleState":"pause"}`, 404, "Resource not found"},
		{"three tokens", http.MethodPut, pause + "/x", `{"ScheduleState":"pause"}`, 404, "Resource not found"},
		{"no tokens", http.MethodPut, "/v1/client/allocation/", ``, 404, "Resource not found"},
		{"unknown action", http.MethodPut, "/v1/client/allocation/nope/resume", ``, 404, "Resource not found"},
		{"signal method", http.MethodGet, "/v1/client/allocation/nope/signal", ``, 405, "Invalid method"},
		{"signal decode", http.MethodPut, "/v1/client/allocation/nope/signal", `[`, 400, "Failed to decode body: unexpected EOF"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := do(t, r.h, tc.method, tc.path, tc.body)
			must.EqOp(t, tc.status, got.Status)
			must.EqOp(t, tc.want, got.Body)
			must.EqOp(t, "text/plain; charset=utf-8", got.Header.Get("Content-Type"))
		})
	}
	must.SliceEmpty(t, r.server.Calls())
	must.SliceEmpty(t, r.local.Calls())
}

// TestAPI7_ErrorMapping: routed errors naming an unknown allocation or
// node, or no path to the node, are 404s; others 500s; messages verbatim,
// as the official client reports them.
func TestAPI7_ErrorMapping(t *testing.T) {
	r := newRig(t, agent.Config{})
	cases := []struct {
		name  string
		alloc string
		task  string
		want  string
	}{
		{"unknown alloc (server)", "nope", "app", `Unexpected response code: 404 (Unknown allocation "nope")`},
		{"node not connected", allocGone, "app", "Unexpected response code: 404 (No path to node)"},
		{"unknown task (local)", allocLocal, "web", "Unexpected response code: 500 (Task not found)"},
		{"unknown task (forwarded)", allocRemote, "web", "Unexpected response code: 500 (Task not found)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			alloc := &api.Allocation{ID: tc.alloc}
			err := r.api.Allocations().SetPauseState(alloc, nil, tc.task, "run")
			must.EqError(t, err, tc.want)
			_, _, err = r.api.Allocations().GetPauseState(alloc, nil, tc.task)
			must.EqError(t, err, tc.want)
			err = r.api.Allocations().Signal(alloc, nil, tc.task, "SIGHUP")
			must.EqError(t, err, tc.want)
		})
	}

	// An empty alloc ID is no path token (API-2): the path is not the
	// API's, and nothing is routed.
	got := do(t, r.h, http.MethodPut, "/v1/client/allocation//pause", `{"ScheduleState":"run"}`)
	must.EqOp(t, http.StatusNotFound, got.Status)
	must.EqOp(t, "Resource not found", got.Body)

	for _, tc := range []struct {
		err    error
		status int
	}{
		{errors.New(`Unknown node "n9"`), 404},
		{errors.New("rpc error: No path to node"), 404},
		{errors.New(`wrapped: Unknown allocation "x"`), 404},
		{errors.New(`task "app" has no schedule`), 500},
		{errors.New("unknown allocation"), 500}, // case matters (API-7 texts)
	} {
		r.local.failRPC = tc.err
		got := do(t, r.h, http.MethodGet, "/v1/client/allocation/"+allocLocal+"/pause?task=app", "")
		must.EqOp(t, tc.status, got.Status, must.Sprint(tc.err))
		must.EqOp(t, tc.err.Error(), got.Body)
	}
}

// TestAPI6_Signal signals locally and forwarded; an empty Task is passed
// on as is (the client signals every task).
func TestAPI6_Signal(t *testing.T) {
	r := newRig(t, agent.Config{})
	must.NoError(t, r.api.Allocations().Signal(&api.Allocation{ID: allocLocal}, nil, "app", "SIGHUP"))
	must.NoError(t, r.api.Allocations().Signal(&api.Allocation{ID: allocRemote}, nil, "", "SIGUSR1"))
	must.Eq(t, []rpcCall{{Method: structs.RPCClientSignal, Args: &structs.AllocSignalRequest{
		AllocID: allocLocal, Task: "app", Signal: "SIGHUP"}}}, r.local.Calls())
	want := &structs.AllocSignalRequest{AllocID: allocRemote, Signal: "SIGUSR1"}
	must.Eq(t, []rpcCall{{Method: structs.RPCServerSignal, Args: want}}, r.server.Calls())
	must.Eq(t, []rpcCall{{Method: structs.RPCClientSignal, Args: want}}, r.remote.Calls())

	got := do(t, r.h, http.MethodPost, "/v1/client/allocation/"+allocLocal+"/signal?region=eu", `{"Task":"app","Signal":"SIGTERM"}`)
	mustSuccessHeaders(t, got, "1")
	must.EqOp(t, `{"Index":0}`, got.Body)
	must.Eq(t, "", cmp.Diff(&structs.AllocSignalRequest{AllocID: allocLocal, Task: "app", Signal: "SIGTERM",
		WriteRequest: structs.WriteRequest{Region: "eu"}}, r.local.Calls()[1].Args))

	// Empty body: an empty request (all tasks, no signal named).
	got = do(t, r.h, http.MethodPut, "/v1/client/allocation/"+allocLocal+"/signal", "")
	mustSuccessHeaders(t, got, "1")
	must.Eq(t, "", cmp.Diff(&structs.AllocSignalRequest{AllocID: allocLocal}, r.local.Calls()[2].Args))
}

// TestAPI7_ServerOnlyAgent: without a local client every request is
// forwarded through the server.
func TestAPI7_ServerOnlyAgent(t *testing.T) {
	s := newFakeServer(fixtureAllocs()...)
	node := newFakeClient("local", map[string][]string{allocLocal: {"app"}})
	s.connect(node)
	h, err := agent.New(agent.Config{Server: s})
	must.NoError(t, err)
	c, err := agent.NewAPIClient(h)
	must.NoError(t, err)
	must.NoError(t, c.Allocations().SetPauseState(&api.Allocation{ID: allocLocal}, nil, "app", "pause"))
	must.SliceLen(t, 1, s.Calls())
	must.EqOp(t, structs.RPCServerSetPauseState, s.Calls()[0].Method)
	must.SliceLen(t, 1, node.Calls())
}
