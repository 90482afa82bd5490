package devagent

import (
	"context"
	"errors"
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// callerStub is a scripted serverCaller: it fails with err and records
// the last call.
type callerStub struct {
	err      error
	lastCall string
	lastCtx  context.Context
}

func (f *callerStub) Call(ctx context.Context, method string, _, _ any) error {
	f.lastCall, f.lastCtx = method, ctx
	return f.err
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
	conn := localConn{srv: &callerStub{}}
	must.ErrorContains(t, conn.RPC("M", structs.GenericResponse{}, &reply), "must be non-nil pointers")
	must.ErrorContains(t, conn.RPC("M", &reply, nil), "must be non-nil pointers")
	var nilArgs *structs.GenericResponse
	must.ErrorContains(t, nodeConn{client: &echoClient{}}.ClientRPC("M", nilArgs, &reply), "must be non-nil pointers")
	must.ErrorContains(t, conn.RPC("M", &struct{ C chan int }{}, &reply), "rpc M: encoding")
}

func TestLocalConnCancels(t *testing.T) {
	f := &callerStub{err: errors.New("rpc call abandoned by the caller")}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var reply structs.GenericResponse
	err := localConn{srv: f}.RPCContext(ctx, structs.RPCNodeUpdateAlloc, &structs.AllocUpdateRequest{}, &reply)
	must.EqError(t, err, "rpc call abandoned by the caller")
	must.ErrorIs(t, f.lastCtx.Err(), context.Canceled, must.Sprint("the server sees the caller's context"))
}
