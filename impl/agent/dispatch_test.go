package agent_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/shoenig/test/must"
)

// dispatchServer is a fakeServer that also dispatches: it records the
// request and answers res or err.
type dispatchServer struct {
	*fakeServer
	gotJob  string
	gotMeta map[string]string
	gotLen  int
	res     agent.DispatchResult
	err     error
}

func (s *dispatchServer) DispatchJob(parentID string, meta map[string]string, payload []byte) (agent.DispatchResult, error) {
	s.gotJob, s.gotMeta, s.gotLen = parentID, meta, len(payload)
	return s.res, s.err
}

// TestDispatchRoute: without a Dispatcher the path does not exist (404);
// with one, PUT and POST dispatch (the official client's Dispatch), other
// methods are 405, a bad body 400, an unknown job 404 and any other
// error a 500 with its message.
func TestDispatchRoute(t *testing.T) {
	plain, err := agent.New(agent.Config{Server: newFakeServer()})
	must.NoError(t, err)
	r := do(t, plain, http.MethodPost, "/v1/job/sweep/dispatch", `{}`)
	must.EqOp(t, http.StatusNotFound, r.Status)
	must.EqOp(t, "Resource not found", r.Body)

	srv := &dispatchServer{fakeServer: newFakeServer(), res: agent.DispatchResult{
		DispatchedJobID: "sweep/dispatch-1718355600-0a1b2c3d", EvalID: "ev", EvalCreateIndex: 12, JobCreateIndex: 12, Index: 12,
	}}
	h, err := agent.New(agent.Config{Server: srv})
	must.NoError(t, err)
	c, err := agent.NewAPIClient(h)
	must.NoError(t, err)
	resp, wm, err := c.Jobs().Dispatch("sweep", map[string]string{"shard": "1"}, []byte("hi"), "", nil)
	must.NoError(t, err)
	must.EqOp(t, "sweep/dispatch-1718355600-0a1b2c3d", resp.DispatchedJobID)
	must.EqOp(t, "ev", resp.EvalID)
	must.EqOp(t, uint64(12), resp.EvalCreateIndex)
	must.EqOp(t, uint64(12), resp.JobCreateIndex)
	must.EqOp(t, uint64(12), wm.LastIndex)
	must.EqOp(t, "sweep", srv.gotJob)
	must.Eq(t, map[string]string{"shard": "1"}, srv.gotMeta)
	must.EqOp(t, 2, srv.gotLen, must.Sprint("the payload arrives decoded from base64"))

	r = do(t, h, http.MethodPost, "/v1/job/sweep/dispatch", "")
	mustSuccessHeaders(t, r, "12")
	must.EqOp(t, `{"Index":12,"JobCreateIndex":12,"EvalCreateIndex":12,"EvalID":"ev","DispatchedJobID":"sweep/dispatch-1718355600-0a1b2c3d"}`, r.Body)
	must.MapEmpty(t, srv.gotMeta, must.Sprint("an empty body dispatches without meta"))

	r = do(t, h, http.MethodGet, "/v1/job/sweep/dispatch", "")
	must.EqOp(t, http.StatusMethodNotAllowed, r.Status)
	r = do(t, h, http.MethodPut, "/v1/job/sweep/dispatch", "{")
	must.EqOp(t, http.StatusBadRequest, r.Status)
	must.StrHasPrefix(t, "Failed to decode body: ", r.Body)

	srv.err = fmt.Errorf("%w: %q", agent.ErrJobNotFound, "nope")
	_, _, err = c.Jobs().Dispatch("nope", nil, nil, "", nil)
	must.EqError(t, err, `Unexpected response code: 404 (job not found: "nope")`)
	srv.err = errors.New("Dispatch did not provide required meta keys: [shard]")
	_, _, err = c.Jobs().Dispatch("sweep", nil, nil, "", nil)
	must.EqError(t, err, "Unexpected response code: 500 (Dispatch did not provide required meta keys: [shard])")
}
