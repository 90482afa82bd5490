package apiserver_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/apiserver"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
	"github.com/shoenig/test/must"
)

// fakeSim is a scripted apiserver.Simulated; the records of issue 14 it
// does not script panic (nil embedded interface).
type fakeSim struct {
	apiserver.Simulated
	allocs   []*structs.Allocation
	placed   []*structs.Allocation
	err      error
	index    uint64
	lastCall string
	lastCtx  context.Context
}

var _ apiserver.Simulated = (*fakeSim)(nil)

func (f *fakeSim) RegisterJobEval(_ *structs.Job, newEvalID func() string) (server.Registration, error) {
	if f.err != nil {
		return server.Registration{}, f.err
	}
	return server.Registration{Allocs: f.placed, Eval: records.Eval{ID: newEvalID()}}, nil
}

func (f *fakeSim) Index() uint64 { return f.index }

// JobAllocs returns the job's allocs in the order given (the adapter
// sorts).
func (f *fakeSim) JobAllocs(jobID string, _ bool) []*structs.Allocation {
	var out []*structs.Allocation
	for _, a := range f.allocs {
		if a != nil && a.JobID == jobID {
			out = append(out, a.Copy())
		}
	}
	return out
}

// Allocs returns copies in the order given (not necessarily sorted: the
// adapter sorts).
func (f *fakeSim) Allocs() []*structs.Allocation {
	out := make([]*structs.Allocation, len(f.allocs))
	for i, a := range f.allocs {
		out[i] = a.Copy()
	}
	return out
}

func (f *fakeSim) Alloc(id string) *structs.Allocation {
	for _, a := range f.allocs {
		if a != nil && a.ID == id {
			return a.Copy()
		}
	}
	return nil
}

func (f *fakeSim) Call(ctx context.Context, method string, _, _ any) error {
	f.lastCall, f.lastCtx = method, ctx
	return f.err
}

func ids(as []*structs.Allocation) []string {
	out := []string{}
	for _, a := range as {
		out = append(out, a.ID)
	}
	return out
}

// TestRegisterJobIndexes: both register indexes are the registration's
// log index (API-4): its allocs' highest AllocModifyIndex, else the
// server's index; every registration draws a fresh eval ID.
func TestRegisterJobIndexes(t *testing.T) {
	cases := []struct {
		name   string
		placed []*structs.Allocation
		index  uint64
		want   uint64
	}{
		{"highest of the allocs", []*structs.Allocation{{ID: "a", AllocModifyIndex: 7}, {ID: "b", AllocModifyIndex: 9}}, 12, 9},
		{"nil allocs skipped", []*structs.Allocation{nil, {ID: "a", AllocModifyIndex: 4}}, 12, 4},
		{"count 0: the server's index", nil, 12, 12},
	}
	s := apiserver.New(&fakeSim{}, rand.New(rand.NewPCG(1, 2)))
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := apiserver.New(&fakeSim{placed: c.placed, index: c.index}, rand.New(rand.NewPCG(1, 2)))
			evalID, evalIdx, jobIdx, err := s.RegisterJob(&structs.Job{ID: "j"})
			must.NoError(t, err)
			must.EqOp(t, c.want, evalIdx)
			must.EqOp(t, c.want, jobIdx)
			must.UUIDv4(t, evalID)
		})
		evalID, _, _, err := s.RegisterJob(&structs.Job{ID: "j"})
		must.NoError(t, err)
		must.False(t, seen[evalID], must.Sprintf("eval ID %s drawn twice", evalID))
		seen[evalID] = true
	}
}

// TestRegisterJobError: the server's error comes back as is, wrapped
// joined failures included, and no eval ID is drawn for it.
func TestRegisterJobError(t *testing.T) {
	joined := errors.Join(errors.New("a"), errors.New("b"))
	f := &fakeSim{err: joined}
	s := apiserver.New(f, rand.New(rand.NewPCG(1, 2)))
	evalID, evalIdx, jobIdx, err := s.RegisterJob(&structs.Job{ID: "j"})
	must.ErrorIs(t, err, joined)
	must.EqOp(t, "", evalID)
	must.EqOp(t, uint64(0), evalIdx+jobIdx)

	f.err = nil
	first, _, _, err := s.RegisterJob(&structs.Job{ID: "j"})
	must.NoError(t, err)
	must.EqOp(t, seeds.ID(rand.New(rand.NewPCG(1, 2))), first, must.Sprint("the failed registration drew nothing"))
}

// TestDefaultEvalSource: a nil source is the seed-0 eval stream, so IDs
// stay deterministic.
func TestDefaultEvalSource(t *testing.T) {
	evalID, _, _, err := apiserver.New(&fakeSim{}, nil).RegisterJob(&structs.Job{ID: "j"})
	must.NoError(t, err)
	must.EqOp(t, seeds.ID(seeds.Stream(0, apiserver.EvalStream)), evalID)
}

// TestReads: listings by job and by prefix are sorted by ID whatever
// order the server gives (API-5, DET-2); Alloc finds one or reports
// false.
func TestReads(t *testing.T) {
	f := &fakeSim{allocs: []*structs.Allocation{
		{ID: "bb33", JobID: "web"}, nil, {ID: "aa22", JobID: "db"}, {ID: "aa11", JobID: "web"},
	}}
	s := apiserver.New(f, nil)
	cases := []struct {
		name string
		got  []*structs.Allocation
		want []string
	}{
		{"job web", s.JobAllocations("web", false), []string{"aa11", "bb33"}},
		{"job web, all", s.JobAllocations("web", true), []string{"aa11", "bb33"}},
		{"unknown job", s.JobAllocations("nope", true), []string{}},
		{"prefix aa", s.AllocsByPrefix("aa"), []string{"aa11", "aa22"}},
		{"prefix aa1", s.AllocsByPrefix("aa1"), []string{"aa11"}},
		{"empty prefix", s.AllocsByPrefix(""), []string{"aa11", "aa22", "bb33"}},
		{"no match", s.AllocsByPrefix("cc"), []string{}},
	}
	for _, c := range cases {
		must.Eq(t, c.want, ids(c.got), must.Sprint(c.name))
	}
	a, ok := s.Alloc("aa22")
	must.True(t, ok)
	must.EqOp(t, "db", a.JobID)
	a.JobID = "mutated"
	again, _ := s.Alloc("aa22")
	must.EqOp(t, "db", again.JobID, must.Sprint("Alloc returns the server's copy"))
	_, ok = s.Alloc("zz")
	must.False(t, ok)
}

// TestRPCVerbatim: a server RPC reaches Call with the method unchanged and
// its error comes back verbatim (API-7).
func TestRPCVerbatim(t *testing.T) {
	f := &fakeSim{err: errors.New("No path to node")}
	s := apiserver.New(f, nil)
	err := s.RPC(structs.RPCServerGetPauseState, &structs.AllocGetPauseStateRequest{}, &structs.AllocGetPauseStateResponse{})
	must.EqError(t, err, "No path to node")
	must.EqOp(t, structs.RPCServerGetPauseState, f.lastCall)
	must.NoError(t, f.lastCtx.Err(), must.Sprint("no deadline, never cancelled"))
}
