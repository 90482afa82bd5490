package agent

import (
	"errors"
	"net/http"

	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// jobAllocations is GET /v1/job/<id>/allocations[?all=] (API-5): the
// job's stubs sorted by ID, `[]` for an unknown job; the index is the
// highest ModifyIndex served.
func (h *Handler) jobAllocations(r *http.Request) (any, uint64, error) {
	all, err := queryBool(r, "all")
	if err != nil {
		return nil, 0, err
	}
	stubs, index := h.toStubs(h.server.JobAllocations(r.PathValue("id"), all))
	return stubs, index, nil
}

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

// record returns the record of the request's job, or a 404 `job not
// found`.
func (h *Handler) record(r *http.Request) (Cluster, *records.Job, error) {
	c, _ := h.cluster()
	rec := c.JobRecord(r.PathValue("id"))
	if rec == nil || rec.Job == nil {
		return nil, nil, notFound(ErrJobNotFound.Error())
	}
	return c, rec, nil
}

// jobState is a job's status (records.JobStatus over its current
// incarnation's allocs) and its summary.
func (h *Handler) jobState(c Cluster, rec *records.Job) (string, *api.JobSummary) {
	allocs := h.server.JobAllocations(rec.Job.ID, false)
	var children api.JobChildrenSummary
	if rec.Job.IsParameterized() {
		for _, child := range c.JobRecords(rec.Job.ID + "/") {
			if child == nil || child.Job == nil || child.Job.ParentID != rec.Job.ID {
				continue
			}
			switch records.JobStatus(child, h.server.JobAllocations(child.Job.ID, false)) {
			case records.JobStatusPending:
				children.Pending++
			case records.JobStatusRunning:
				children.Running++
			default:
				children.Dead++
			}
		}
	}
	summary := apiconv.JobSummaryToAPI(rec, records.SummarizeAllocs(rec.Job, allocs), children)
	return records.JobStatus(rec, allocs), summary
}

// jobInfo is GET /v1/job/<id>: the job as served (apiconv.ServedJob)
// with its status; 404 `job not found`.
func (h *Handler) jobInfo(r *http.Request) (any, uint64, error) {
	c, rec, err := h.record(r)
	if err != nil {
		return nil, 0, err
	}
	status, _ := h.jobState(c, rec)
	return apiconv.ServedJob(rec, status), rec.ModifyIndex, nil
}

// jobSummary is GET /v1/job/<id>/summary; 404 `job not found`.
func (h *Handler) jobSummary(r *http.Request) (any, uint64, error) {
	c, rec, err := h.record(r)
	if err != nil {
		return nil, 0, err
	}
	_, summary := h.jobState(c, rec)
	return summary, rec.ModifyIndex, nil
}

// jobVersionsResponse is the body of GET /v1/job/<id>/versions.
type jobVersionsResponse struct {
	Versions []*api.Job
	Diffs    []*api.JobDiff
}

// jobVersions is GET /v1/job/<id>/versions[?diffs=]: the versions the
// server keeps, which is the current one only (records.Job), so there
// is no diff; 404 `job not found`.
func (h *Handler) jobVersions(r *http.Request) (any, uint64, error) {
	c, rec, err := h.record(r)
	if err != nil {
		return nil, 0, err
	}
	status, _ := h.jobState(c, rec)
	return jobVersionsResponse{Versions: []*api.Job{apiconv.ServedJob(rec, status)}}, rec.ModifyIndex, nil
}

// jobEvaluations is GET /v1/job/<id>/evaluations: the job's evaluations,
// newest first; `[]` for an unknown job.
func (h *Handler) jobEvaluations(r *http.Request) (any, uint64, error) {
	c, _ := h.cluster()
	id := r.PathValue("id")
	return evalsToAPI(c.Evaluations(), func(e records.Eval) bool { return e.JobID == id })
}

// jobDeployment is GET /v1/job/<id>/deployment: null, as the simulated
// server runs no deployments (the CLI then shows none).
func (h *Handler) jobDeployment(*http.Request) (any, uint64, error) {
	return nil, 0, nil
}

// jobDeployments is GET /v1/job/<id>/deployments: `[]`.
func (h *Handler) jobDeployments(*http.Request) (any, uint64, error) {
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
func (h *Handler) jobDeregister(r *http.Request) (any, uint64, error) {
	purge, err := queryBool(r, "purge")
	if err != nil {
		return nil, 0, err
	}
	c, _ := h.cluster()
	ev, jobIndex, err := c.DeregisterJob(r.PathValue("id"), purge)
	if errors.Is(err, ErrJobNotFound) {
		return nil, 0, notFound(ErrJobNotFound.Error())
	}
	if err != nil {
		return nil, 0, err
	}
	return deregisterResponse{EvalID: ev.ID, EvalCreateIndex: ev.CreateIndex, JobModifyIndex: jobIndex, Index: ev.CreateIndex},
		ev.CreateIndex, nil
}
