package agent

import (
	"errors"
	"net/http"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/hashicorp/nomad/api"
)

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
		errs = append(errs, errors.New(MsgJobNoID))
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
