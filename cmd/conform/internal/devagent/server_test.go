package devagent

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// fakeSim is a scripted simServer.
type fakeSim struct {
	allocs   []*structs.Allocation
	placed   []*structs.Allocation
	err      error
	index    uint64
	lastCall string
	lastCtx  context.Context
}

func (f *fakeSim) RegisterJob(*structs.Job) ([]*structs.Allocation, error) { return f.placed, f.err }
func (f *fakeSim) Index() uint64                                           { return f.index }
func (f *fakeSim) Allocs() []*structs.Allocation {
	out := make([]*structs.Allocation, len(f.allocs))
	for i, a := range f.allocs {
		out[i] = a.Copy()
	}
	return out
}
func (f *fakeSim) Alloc(id string) *structs.Allocation {
	for _, a := range f.allocs {
		if a.ID == id {
			return a.Copy()
		}
	}
	return nil
}
func (f *fakeSim) Call(ctx context.Context, method string, _, _ any) error {
	f.lastCall, f.lastCtx = method, ctx
	return f.err
}

func TestAdapterRegisterJob(t *testing.T) {
	f := &fakeSim{
		placed: []*structs.Allocation{{ID: "a", AllocModifyIndex: 7}, {ID: "b", AllocModifyIndex: 9}},
		index:  12,
	}
	s := newServerAdapter(f, rand.New(rand.NewPCG(1, 2)))
	eval1, evalIdx, jobIdx, err := s.RegisterJob(&structs.Job{ID: "j"})
	must.NoError(t, err)
	must.Eq(t, uint64(9), evalIdx, must.Sprint("the registration's index is its allocs' highest"))
	must.Eq(t, uint64(9), jobIdx)
	must.UUIDv4(t, eval1)

	f.placed = nil // a group count of 0: the server's index
	eval2, evalIdx, _, err := s.RegisterJob(&structs.Job{ID: "j"})
	must.NoError(t, err)
	must.Eq(t, uint64(12), evalIdx)
	must.NotEq(t, eval1, eval2)

	f.err = errors.New(`register job "j": no node to place job "j" on`)
	_, _, _, err = s.RegisterJob(&structs.Job{ID: "j"})
	must.ErrorIs(t, err, f.err)
}

func TestAdapterReads(t *testing.T) {
	f := &fakeSim{allocs: []*structs.Allocation{
		{ID: "aa11", JobID: "web"}, {ID: "aa22", JobID: "db"}, {ID: "bb33", JobID: "web"},
	}}
	s := newServerAdapter(f, rand.New(rand.NewPCG(1, 2)))
	ids := func(as []*structs.Allocation) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.ID)
		}
		return out
	}
	must.Eq(t, []string{"aa11", "bb33"}, ids(s.JobAllocations("web", false)))
	must.Eq(t, []string{"aa11", "bb33"}, ids(s.JobAllocations("web", true)))
	must.Len(t, 0, s.JobAllocations("nope", true))
	must.Eq(t, []string{"aa11", "aa22"}, ids(s.AllocsByPrefix("aa")))
	must.Eq(t, []string{"aa11", "aa22", "bb33"}, ids(s.AllocsByPrefix("")))
	a, ok := s.Alloc("aa22")
	must.True(t, ok)
	must.Eq(t, "db", a.JobID)
	_, ok = s.Alloc("zz")
	must.False(t, ok)

	f.err = errors.New("No path to node")
	must.EqError(t, s.RPC(structs.RPCServerGetPauseState, &structs.AllocGetPauseStateRequest{}, &structs.AllocGetPauseStateResponse{}), "No path to node")
	must.Eq(t, structs.RPCServerGetPauseState, f.lastCall)
}

// echoClient answers Allocations.GetPauseState with the task name as the
// state, and records the request it got.
type echoClient struct {
	got *structs.AllocGetPauseStateRequest
	err error
}

func (e *echoClient) ClientRPC(_ string, args, reply any) error {
	if e.err != nil {
		return e.err
	}
	req := args.(*structs.AllocGetPauseStateRequest)
	e.got = req
	reply.(*structs.AllocGetPauseStateResponse).ScheduleState = structs.TaskScheduleState(req.Task)
	return nil
}

func TestNodeConnCopies(t *testing.T) {
	c := &echoClient{}
	args := &structs.AllocGetPauseStateRequest{AllocID: "a", Task: "force_run"}
	var reply structs.AllocGetPauseStateResponse
	must.NoError(t, nodeConn{client: c}.ClientRPC(structs.RPCClientGetPauseState, args, &reply))
	must.Eq(t, structs.TaskScheduleStateForceRun, reply.ScheduleState)
	must.Eq(t, *args, *c.got)
	must.True(t, args != c.got, must.Sprint("the client gets a copy, not the caller's value"))

	c.err = errors.New(`Unknown allocation "a"`)
	must.EqError(t, nodeConn{client: c}.ClientRPC(structs.RPCClientGetPauseState, args, &reply), `Unknown allocation "a"`)
}

func TestWireCopiesRejectsNonPointers(t *testing.T) {
	var reply structs.GenericResponse
	conn := localConn{srv: &fakeSim{}}
	must.ErrorContains(t, conn.RPC("M", structs.GenericResponse{}, &reply), "must be non-nil pointers")
	must.ErrorContains(t, conn.RPC("M", &reply, nil), "must be non-nil pointers")
	var nilArgs *structs.GenericResponse
	must.ErrorContains(t, nodeConn{client: &echoClient{}}.ClientRPC("M", nilArgs, &reply), "must be non-nil pointers")
	must.ErrorContains(t, conn.RPC("M", &struct{ C chan int }{}, &reply), "rpc M: encoding")
}

func TestLocalConnCancels(t *testing.T) {
	f := &fakeSim{err: errors.New("rpc call abandoned by the caller")}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var reply structs.GenericResponse
	err := localConn{srv: f}.RPCContext(ctx, structs.RPCNodeUpdateAlloc, &structs.AllocUpdateRequest{}, &reply)
	must.EqError(t, err, "rpc call abandoned by the caller")
	must.ErrorIs(t, f.lastCtx.Err(), context.Canceled, must.Sprint("the server sees the caller's context"))
}
