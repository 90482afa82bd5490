package agent

import (
	"errors"
	"net/http"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// allocStopResponse is the body of an alloc stop, fields in the order of
// Nomad's API documentation.
type allocStopResponse struct {
	EvalID string
	Index  uint64
}

// allocStop is PUT/POST /v1/allocation/<id>/stop: the alloc goes to
// desired stop (as a job stop does; no replacement is placed) under an
// `alloc-stop` evaluation; 404 `alloc not found`.
func (h *Handler) allocStop(r *http.Request) (any, uint64, error) {
	c, _ := h.cluster()
	ev, index, err := c.StopAlloc(r.PathValue("id"))
	if errors.Is(err, ErrAllocNotFound) {
		return nil, 0, notFound(MsgAllocNotFound)
	}
	if err != nil {
		return nil, 0, err
	}
	return allocStopResponse{EvalID: ev.ID, Index: index}, index, nil
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
