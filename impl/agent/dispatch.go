package agent

import (
	"errors"
	"net/http"

	"github.com/hashicorp/nomad/api"
)

// Dispatcher is the optional part of a Server that dispatches
// parameterized jobs (Nomad's job dispatch API). A Server without it has
// no dispatch path (404).
type Dispatcher interface {
	// DispatchJob dispatches the parameterized job parentID: it checks
	// meta and payload against the job's parameterized block, creates the
	// child job (with meta merged into the job's) and places it. An
	// unknown job is an error wrapping ErrJobNotFound (a 404); any other
	// error is served as a 500 with its message.
	DispatchJob(parentID string, meta map[string]string, payload []byte) (DispatchResult, error)
}

// DispatchResult is what a dispatch created.
type DispatchResult struct {
	DispatchedJobID string
	EvalID          string
	EvalCreateIndex uint64
	JobCreateIndex  uint64
	Index           uint64
}

// ErrJobNotFound marks a dispatch of an unknown job.
var ErrJobNotFound = errors.New("job not found")

// dispatchResponse is the dispatch reply body, fields in the order of
// Nomad's API documentation.
type dispatchResponse struct {
	Index           uint64
	JobCreateIndex  uint64
	EvalCreateIndex uint64
	EvalID          string
	DispatchedJobID string
}

// dispatch is PUT/POST /v1/job/<id>/dispatch: decode `{"Meta": {...},
// "Payload": "<base64>"}` (an empty body dispatches without either),
// then the server's DispatchJob.
func (h *Handler) dispatch(r *http.Request) (any, uint64, error) {
	d := h.server.(Dispatcher) // routed only then
	var req api.JobDispatchRequest
	if err := decodeBody(r, &req); err != nil {
		return nil, 0, err
	}
	res, err := d.DispatchJob(r.PathValue("id"), req.Meta, req.Payload)
	if errors.Is(err, ErrJobNotFound) {
		return nil, 0, notFound(err.Error())
	}
	if err != nil {
		return nil, 0, err
	}
	return dispatchResponse{
		Index: res.Index, JobCreateIndex: res.JobCreateIndex, EvalCreateIndex: res.EvalCreateIndex,
		EvalID: res.EvalID, DispatchedJobID: res.DispatchedJobID,
	}, res.Index, nil
}
