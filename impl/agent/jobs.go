package agent

import (
	"errors"
	"io"
	"net/http"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	multierror "github.com/hashicorp/go-multierror"
	"github.com/hashicorp/nomad/api"
)

// registerResponse is API-4's success body, fields in SPEC order.
type registerResponse struct {
	EvalID          string
	EvalCreateIndex uint64
	JobModifyIndex  uint64
	Warnings        string
	Index           uint64
}

// register is PUT/POST /v1/jobs (API-4): decode, require a job and an ID
// (400), canonicalize, validate (500, multierror list), register.
func (h *Handler) register(r *http.Request) (any, uint64, error) {
	job, err := DecodeJobRegister(r.Body, r.URL.Query().Get("namespace"))
	if err != nil {
		return nil, 0, err
	}
	if err := ValidateJob(job, h.profile); err != nil {
		return nil, 0, registerFailure(err)
	}
	evalID, evalIndex, jobIndex, err := h.server.RegisterJob(job)
	if err != nil {
		return nil, 0, registerFailure(err)
	}
	index := max(evalIndex, jobIndex)
	return registerResponse{
		EvalID: evalID, EvalCreateIndex: evalIndex, JobModifyIndex: jobIndex, Index: index,
	}, index, nil
}

// DecodeJobRegister decodes a register body `{"Job":{…}}` in the official
// API's shape (DATA-1) into a canonicalized domain job (DATA-2..4). An
// empty body is a request without a job. A job without Namespace gets
// namespace (the request's `namespace` parameter), else `default`.
// Errors are 400s: `Failed to decode body: <err>`, `Job must be
// specified`, `Job must have a valid ID`.
func DecodeJobRegister(body io.Reader, namespace string) (*structs.Job, error) {
	var req api.JobRegisterRequest
	if err := decodeJSON(body, &req); err != nil {
		return nil, err
	}
	if req.Job == nil {
		return nil, badRequest(MsgJobMissing)
	}
	if req.Job.ID == nil || *req.Job.ID == "" {
		return nil, badRequest(structs.MsgJobNoID)
	}
	job := apiconv.JobFromAPI(req.Job)
	if job.Namespace == "" {
		job.Namespace = namespace
	}
	job.Canonicalize()
	return job, nil
}

// validateJob is PUT/POST /v1/validate/job, body `{"Job":{…}}`: the
// admission of API-4 without registering. A malformed body or no job is
// a 400 as in API-4; every other failure (no ID, then ValidateJob's:
// restart policies, schedules per the profile, ...) is answered 200 with
// `{"DriverConfigValidated":true,"ValidationErrors":[<one message each>],
// "Error":"<the go-multierror list>","Warnings":""}` (ValidationErrors
// null and Error "" for a valid job).
func (h *Handler) validateJob(r *http.Request) (any, uint64, error) {
	var req api.JobValidateRequest
	if err := decodeBody(r, &req); err != nil {
		return nil, 0, err
	}
	if req.Job == nil {
		return nil, 0, badRequest(MsgJobMissing)
	}
	var errs []error
	if req.Job.ID == nil || *req.Job.ID == "" {
		errs = append(errs, errors.New(structs.MsgJobNoID))
	}
	job := apiconv.JobFromAPI(req.Job)
	if job.Namespace == "" {
		job.Namespace = r.URL.Query().Get("namespace")
	}
	job.Canonicalize()
	errs = append(errs, leaves(ValidateJob(job, h.profile))...)
	resp := api.JobValidateResponse{DriverConfigValidated: true}
	for _, e := range errs {
		resp.ValidationErrors = append(resp.ValidationErrors, e.Error())
	}
	if len(errs) > 0 {
		resp.Error = (&validationError{errs: errs}).Error()
	}
	return resp, 0, nil
}

// ValidateJob is the agent's admission of a canonicalized job (API-4): a
// nil job is MsgJobMissing, else structs.Job.Validate (the rule lives once,
// in model/structs): every failure joined, one message each. The job's ID
// is checked before (structs.MsgJobNoID), not here.
func ValidateJob(job *structs.Job, profile schedule.Profile) error {
	if job == nil {
		return errors.New(MsgJobMissing)
	}
	return job.Validate(profile)
}

// leaves flattens joined errors (errors.Join, go-multierror) into the
// single errors they hold, in order; nil gives none.
func leaves(err error) []error {
	if err == nil {
		return nil
	}
	var out []error
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case nil:
		case *multierror.Error:
			for _, c := range x.WrappedErrors() {
				walk(c)
			}
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				walk(c)
			}
		default:
			out = append(out, e)
		}
	}
	walk(err)
	return out
}

// joined returns the first error in err's Unwrap chain that joins several
// (errors.Join, go-multierror), or nil.
func joined(err error) error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch e.(type) {
		case *multierror.Error, interface{ Unwrap() []error }:
			return e
		}
	}
	return nil
}

// validationError is API-4's 500: a go-multierror list of every failure,
// one message per item (`1 error occurred:\n\t* <msg>\n\n`).
type validationError struct{ errs []error }

func (v *validationError) Error() string {
	return (&multierror.Error{Errors: v.errs}).Error()
}

// registerFailure is the error served for a failed registration: a
// multierror list of the joined failures if err holds some (validation),
// else err itself (500 with its message).
func registerFailure(err error) error {
	if j := joined(err); j != nil {
		if ls := leaves(j); len(ls) > 0 {
			return &validationError{errs: ls}
		}
	}
	return err
}

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
