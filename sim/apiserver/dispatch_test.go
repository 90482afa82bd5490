package apiserver_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

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
