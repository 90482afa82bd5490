package agent_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

func fixtureByID(id string) *structs.Allocation {
	for _, a := range fixtureAllocs() {
		if a.ID == id {
			return a
		}
	}
	return nil
}

func withoutPaused(a *structs.Allocation) *structs.Allocation {
	out := a.Copy()
	for _, s := range out.TaskStates {
		s.Paused = ""
	}
	return out
}

// TestAPI5_JobAllocations reads a job's stubs with the official client
// and raw: every DATA-5 field but Job, sorted, the all= flag passed on,
// the index the highest ModifyIndex.
func TestAPI5_JobAllocations(t *testing.T) {
	r := newRig(t, agent.Config{})
	stubs, qm, err := r.api.Jobs().Allocations("web", true, nil)
	must.NoError(t, err)
	must.True(t, *r.server.lastAll)
	must.EqOp(t, uint64(12), qm.LastIndex)
	must.True(t, qm.KnownLeader)
	must.SliceLen(t, 2, stubs)
	for _, s := range stubs {
		want := withoutPaused(fixtureByID(s.ID))
		want.Job, want.AllocModifyIndex = nil, 0 // not in Nomad's stub
		must.Eq(t, "", cmp.Diff(want, apiconv.StubFromAPI(s)))
		must.EqOp(t, "service", s.JobType)
	}

	raw := do(t, r.h, http.MethodGet, "/v1/job/web/allocations?all=false&region=global&namespace=default", "")
	mustSuccessHeaders(t, raw, "12")
	must.False(t, *r.server.lastAll)
	must.StrContains(t, raw.Body, `"Paused":"force_pause"`)
	must.StrContains(t, raw.Body, `"AllocModifyIndex":3`)
	must.StrNotContains(t, raw.Body, `"Job":`)
	must.True(t, strings.Index(raw.Body, allocLocal) < strings.Index(raw.Body, allocRemote))
}

func TestAPI5_JobAllocationsEdges(t *testing.T) {
	r := newRig(t, agent.Config{})
	got := do(t, r.h, http.MethodGet, "/v1/job/nope/allocations", "")
	mustSuccessHeaders(t, got, "1")
	must.EqOp(t, "[]", got.Body)

	stubs, _, err := r.api.Jobs().Allocations("nope", false, nil)
	must.NoError(t, err)
	must.SliceEmpty(t, stubs)

	got = do(t, r.h, http.MethodGet, "/v1/job/web/allocations?all=maybe", "")
	must.EqOp(t, http.StatusBadRequest, got.Status)
	must.EqOp(t, `Failed to parse value of "all" (maybe) as a bool: strconv.ParseBool: parsing "maybe": invalid syntax`, got.Body)

	got = do(t, r.h, http.MethodPut, "/v1/job/web/allocations", "")
	must.EqOp(t, http.StatusMethodNotAllowed, got.Status)
	must.EqOp(t, "Invalid method", got.Body)

	// A job ID with an escaped slash is one path segment.
	r.server.allocs["x"] = &structs.Allocation{ID: "x", JobID: "a/b", ModifyIndex: 2}
	stubs, _, err = r.api.Jobs().Allocations("a/b", false, nil)
	must.NoError(t, err)
	must.SliceLen(t, 1, stubs)
	must.EqOp(t, "x", stubs[0].ID)
}

// TestAPI5_AllocInfo reads a full alloc with its Job and task states.
func TestAPI5_AllocInfo(t *testing.T) {
	r := newRig(t, agent.Config{})
	got, qm, err := r.api.Allocations().Info(allocLocal, &api.QueryOptions{Region: "global"})
	must.NoError(t, err)
	must.EqOp(t, uint64(9), qm.LastIndex)
	want := fixtureByID(allocLocal)
	must.Eq(t, "", cmp.Diff(withoutPaused(want), apiconv.AllocFromAPI(got)))
	must.NotNil(t, got.Job)
	must.EqOp(t, "Task started by client", got.TaskStates["app"].Events[0].DisplayMessage)

	// Raw, the wire form keeps Paused (DATA-6).
	raw := do(t, r.h, http.MethodGet, "/v1/allocation/"+allocLocal, "")
	mustSuccessHeaders(t, raw, "9")
	var wire apiconv.Allocation
	must.NoError(t, decodeJSON(raw.Body, &wire))
	must.Eq(t, "", cmp.Diff(want, wire.Domain()))
}

func TestAPI5_AllocInfoErrors(t *testing.T) {
	r := newRig(t, agent.Config{})
	_, _, err := r.api.Allocations().Info("nope", nil)
	must.EqError(t, err, "Unexpected response code: 404 (alloc not found)")

	cases := []struct {
		method, path string
		status       int
		body         string
	}{
		{http.MethodGet, "/v1/allocation/nope", 404, "alloc not found"},
		{http.MethodGet, "/v1/allocation/", 404, "Resource not found"},
		{http.MethodPut, "/v1/allocation/" + allocLocal, 405, "Invalid method"},
		{http.MethodGet, "/v1/allocation/" + allocLocal + "/services", 404, "Resource not found"},
		{http.MethodGet, "/v1/allocations/", 404, "Resource not found"},
		{http.MethodPost, "/v1/allocations", 405, "Invalid method"},
		{http.MethodGet, "/v2/allocations", 404, "Resource not found"},
		{http.MethodGet, "/", 404, "Resource not found"},
		{http.MethodGet, "/v1/job/web", 404, "Resource not found"},
		{http.MethodGet, "/v1/job/web/evaluations", 404, "Resource not found"},
	}
	for _, tc := range cases {
		got := do(t, r.h, tc.method, tc.path, "")
		must.EqOp(t, tc.status, got.Status, must.Sprint(tc.method, " ", tc.path))
		must.EqOp(t, tc.body, got.Body, must.Sprint(tc.method, " ", tc.path))
		must.EqOp(t, "", got.Header.Get("X-Nomad-Index"))
	}
}

// TestAPI5_AllocPrefix lists stubs by ID prefix (the CLI's lookup).
func TestAPI5_AllocPrefix(t *testing.T) {
	r := newRig(t, agent.Config{})
	stubs, qm, err := r.api.Allocations().PrefixList("a")
	must.NoError(t, err)
	must.EqOp(t, uint64(12), qm.LastIndex)
	ids := []string{}
	for _, s := range stubs {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	must.Eq(t, []string{allocLocal, allocRemote}, ids)

	raw := do(t, r.h, http.MethodGet, "/v1/allocations?prefix=b1", "")
	mustSuccessHeaders(t, raw, "4")
	var wire []*apiconv.AllocationListStub
	must.NoError(t, decodeJSON(raw.Body, &wire))
	must.SliceLen(t, 1, wire)
	want := fixtureByID(allocGone)
	want.Job = nil
	must.Eq(t, "", cmp.Diff(want, wire[0].Domain()))

	raw = do(t, r.h, http.MethodGet, "/v1/allocations?prefix=zz", "")
	mustSuccessHeaders(t, raw, "1")
	must.EqOp(t, "[]", raw.Body)

	raw = do(t, r.h, http.MethodGet, "/v1/allocations", "")
	must.NoError(t, decodeJSON(raw.Body, &wire))
	must.SliceLen(t, 3, wire)
	must.True(t, slices.IsSortedFunc(wire, func(a, b *apiconv.AllocationListStub) int { return strings.Compare(a.ID, b.ID) }))
}

// nilServer returns nil entries and (nil, true); the agent copes.
type nilServer struct{ fakeServer }

func (*nilServer) Alloc(string) (*structs.Allocation, bool)          { return nil, true }
func (*nilServer) AllocsByPrefix(string) []*structs.Allocation       { return []*structs.Allocation{nil} }
func (*nilServer) JobAllocations(string, bool) []*structs.Allocation { return nil }

func TestAPI5_NilResults(t *testing.T) {
	h, err := agent.New(agent.Config{Server: &nilServer{}})
	must.NoError(t, err)
	must.EqOp(t, 404, do(t, h, http.MethodGet, "/v1/allocation/x", "").Status)
	must.EqOp(t, "[]", do(t, h, http.MethodGet, "/v1/allocations", "").Body)
	must.EqOp(t, "[]", do(t, h, http.MethodGet, "/v1/job/x/allocations", "").Body)
}
