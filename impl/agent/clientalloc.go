package agent

import (
	"net/http"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// pauseRequests maps API-2's request values to the pause states they ask
// for (PAUSE-1).
var pauseRequests = map[string]structs.TaskScheduleState{
	"pause":     structs.TaskScheduleStateForcePause,
	"run":       structs.TaskScheduleStateForceRun,
	"scheduled": structs.TaskScheduleStateScheduleResume,
}

// setPause is PUT/POST /v1/client/allocation/<id>/pause (API-2), after the
// method check: decode (400), map the state (400, before any lookup),
// route (API-7). Reply `{"Index":n}` with the RPC's index.
func (h *Handler) setPause(r *http.Request) (any, uint64, error) {
	allocID := r.PathValue("id")
	var body api.AllocPauseRequest
	if err := decodeBody(r, &body); err != nil {
		return nil, 0, err
	}
	state, ok := pauseRequests[body.ScheduleState]
	if !ok {
		return nil, 0, badRequest(MsgInvalidScheduleState)
	}
	args := &structs.AllocPauseRequest{
		AllocID: allocID, Task: body.Task, ScheduleState: state,
		WriteRequest: structs.WriteRequest{Region: r.URL.Query().Get("region")},
	}
	var reply structs.GenericResponse
	if err := h.forward(allocID, structs.RPCClientSetPauseState, structs.RPCServerSetPauseState, args, &reply); err != nil {
		return nil, 0, err
	}
	return reply, reply.Index, nil
}

// getPause is GET /v1/client/allocation/<id>/pause?task=<name> (API-3):
// `{"ScheduleState":"<state>"}`.
func (h *Handler) getPause(r *http.Request) (any, uint64, error) {
	allocID := r.PathValue("id")
	q := r.URL.Query()
	args := &structs.AllocGetPauseStateRequest{
		AllocID: allocID, Task: q.Get("task"),
		QueryOptions: structs.QueryOptions{Region: q.Get("region")},
	}
	var reply structs.AllocGetPauseStateResponse
	if err := h.forward(allocID, structs.RPCClientGetPauseState, structs.RPCServerGetPauseState, args, &reply); err != nil {
		return nil, 0, err
	}
	return reply, 0, nil
}

// signal is PUT/POST /v1/client/allocation/<id>/signal (API-6): decode
// (400), route (API-7); an empty Task signals every task (the client's
// rule). Reply `{"Index":n}`.
func (h *Handler) signal(r *http.Request) (any, uint64, error) {
	allocID := r.PathValue("id")
	var body api.AllocSignalRequest
	if err := decodeBody(r, &body); err != nil {
		return nil, 0, err
	}
	args := &structs.AllocSignalRequest{
		AllocID: allocID, Task: body.Task, Signal: body.Signal,
		WriteRequest: structs.WriteRequest{Region: r.URL.Query().Get("region")},
	}
	var reply structs.GenericResponse
	if err := h.forward(allocID, structs.RPCClientSignal, structs.RPCServerSignal, args, &reply); err != nil {
		return nil, 0, err
	}
	return reply, reply.Index, nil
}

// restart is PUT/POST /v1/client/allocation/<id>/restart, body
// `{"TaskName":"<name>","AllTasks":<bool>}` (malformed → 400 `Failed to
// decode body: <err>`; both set → 400): routed as a signal is (API-7) to
// the alloc runner's RestartTask (TaskName), RestartAll (AllTasks) or
// RestartRunning (neither), each appending `Restart Signaled` (AR-1).
// Reply `{"Index":0}`.
func (h *Handler) restart(r *http.Request) (any, uint64, error) {
	allocID := r.PathValue("id")
	var body api.AllocationRestartRequest
	if err := decodeBody(r, &body); err != nil {
		return nil, 0, err
	}
	if body.TaskName != "" && body.AllTasks {
		return nil, 0, badRequest("a restart names either a task or all tasks, not both")
	}
	args := &structs.AllocRestartRequest{
		AllocID: allocID, TaskName: body.TaskName, AllTasks: body.AllTasks,
		WriteRequest: structs.WriteRequest{Region: r.URL.Query().Get("region")},
	}
	var reply structs.GenericResponse
	if err := h.forward(allocID, structs.RPCClientRestart, structs.RPCServerRestart, args, &reply); err != nil {
		return nil, 0, err
	}
	return reply, reply.Index, nil
}

// forward is API-7's routing: the client RPC, locally, when the agent's
// own client runs the alloc, else the server RPC, which forwards to the
// alloc's node. The error is mapped to 404 or 500 (rpcError).
func (h *Handler) forward(allocID, clientMethod, serverMethod string, args, reply any) error {
	var err error
	if h.runsLocally(allocID) {
		err = h.client.ClientRPC(clientMethod, args, reply)
	} else {
		err = h.server.RPC(serverMethod, args, reply)
	}
	if err != nil {
		return rpcError(err)
	}
	return nil
}

func (h *Handler) runsLocally(allocID string) bool {
	if h.client == nil {
		return false
	}
	_, ok := h.client.AllocRunner(allocID)
	return ok
}
