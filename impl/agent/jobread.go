package agent

import (
	"errors"
	"net/http"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// namespaceAll is the namespace parameter that lists every namespace.
const namespaceAll = "*"

// jobList is GET /v1/jobs[?prefix=&namespace=]: the stubs of the jobs
// whose ID starts with prefix, in the request's namespace (default
// `default`, `*` for all), sorted by ID, each with its summary; the index
// is the highest ModifyIndex.
func (h *Handler) jobList(r *http.Request) (any, uint64, error) {
	c, _ := h.cluster()
	q := r.URL.Query()
	ns := q.Get("namespace")
	if ns == "" {
		ns = structs.DefaultNamespace
	}
	out := []*api.JobListStub{}
	var index uint64
	for _, rec := range c.JobRecords(q.Get("prefix")) {
		if rec == nil || rec.Job == nil || (ns != namespaceAll && rec.Job.Namespace != ns) {
			continue
		}
		status, summary := h.jobState(c, rec)
		out = append(out, apiconv.JobStubToAPI(rec, status, summary))
		index = max(index, rec.ModifyIndex)
	}
	return out, index, nil
}

// record returns a registered job's record, or a 404 `job not found`.
func (h *Handler) record(id string) (Cluster, *structs.JobRecord, error) {
	c, _ := h.cluster()
	rec := c.JobRecord(id)
	if rec == nil || rec.Job == nil {
		return nil, nil, notFound(MsgJobNotFound)
	}
	return c, rec, nil
}

// jobState is a job's status (structs.JobStatus over its current
// incarnation's allocs) and its summary.
func (h *Handler) jobState(c Cluster, rec *structs.JobRecord) (string, *api.JobSummary) {
	allocs := h.server.JobAllocations(rec.Job.ID, false)
	var children api.JobChildrenSummary
	if rec.Job.IsParameterized() {
		for _, child := range c.JobRecords(rec.Job.ID + "/") {
			if child == nil || child.Job == nil || child.Job.ParentID != rec.Job.ID {
				continue
			}
			switch structs.JobStatus(child, h.server.JobAllocations(child.Job.ID, false)) {
			case structs.JobStatusPending:
				children.Pending++
			case structs.JobStatusRunning:
				children.Running++
			default:
				children.Dead++
			}
		}
	}
	summary := apiconv.JobSummaryToAPI(rec, structs.SummarizeAllocs(rec.Job, allocs), children)
	return structs.JobStatus(rec, allocs), summary
}

// jobInfo is GET /v1/job/<id>: the job as served (apiconv.ServedJob)
// with its status; 404 `job not found`.
func (h *Handler) jobInfo(_ *http.Request, id string) (any, uint64, error) {
	c, rec, err := h.record(id)
	if err != nil {
		return nil, 0, err
	}
	status, _ := h.jobState(c, rec)
	return apiconv.ServedJob(rec, status), rec.ModifyIndex, nil
}

// jobSummary is GET /v1/job/<id>/summary; 404 `job not found`.
func (h *Handler) jobSummary(_ *http.Request, id string) (any, uint64, error) {
	c, rec, err := h.record(id)
	if err != nil {
		return nil, 0, err
	}
	_, summary := h.jobState(c, rec)
	return summary, rec.ModifyIndex, nil
}

// jobEvaluations is GET /v1/job/<id>/evaluations: the job's evaluations,
// newest first; `[]` for an unknown job.
func (h *Handler) jobEvaluations(_ *http.Request, id string) (any, uint64, error) {
	c, _ := h.cluster()
	return evalsToAPI(c.Evaluations(), func(e structs.EvalRecord) bool { return e.JobID == id })
}

// jobDeployment is GET /v1/job/<id>/deployment: null, as the simulated
// server runs no deployments (the CLI then shows none).
func (h *Handler) jobDeployment(_ *http.Request, _ string) (any, uint64, error) {
	return nil, 0, nil
}

// jobDeployments is GET /v1/job/<id>/deployments: `[]`.
func (h *Handler) jobDeployments(_ *http.Request, _ string) (any, uint64, error) {
	return []*api.Deployment{}, 0, nil
}

// deregisterResponse is the body of DELETE /v1/job/<id>, fields in the
// order of Nomad's API documentation.
type deregisterResponse struct {
	EvalID          string
	EvalCreateIndex uint64
	JobModifyIndex  uint64
	Index           uint64
}

// jobDeregister is DELETE /v1/job/<id>[?purge=]: stop the job (its allocs
// to desired stop, the job marked stopped), with purge remove it; 404
// `job not found`.
func (h *Handler) jobDeregister(r *http.Request, id string) (any, uint64, error) {
	purge, err := queryBool(r, "purge")
	if err != nil {
		return nil, 0, err
	}
	c, _ := h.cluster()
	ev, jobIndex, err := c.DeregisterJob(id, purge)
	if errors.Is(err, ErrJobNotFound) {
		return nil, 0, notFound(MsgJobNotFound)
	}
	if err != nil {
		return nil, 0, err
	}
	return deregisterResponse{EvalID: ev.ID, EvalCreateIndex: ev.CreateIndex, JobModifyIndex: jobIndex, Index: ev.CreateIndex},
		ev.CreateIndex, nil
}
