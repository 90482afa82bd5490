package transport

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/server"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

var t0 = time.Date(2024, 6, 14, 9, 0, 0, 0, time.UTC)

// fakeServer records deliveries; Node.GetClientAllocs blocks until its
// context ends; Node.UpdateAlloc mutates its args (the client's must not
// change) and replies with an index.
type fakeServer struct {
	mu        sync.Mutex
	delivered []string
}

func (f *fakeServer) Call(ctx context.Context, method string, args, reply any) error {
	f.mu.Lock()
	f.delivered = append(f.delivered, method)
	f.mu.Unlock()
	switch method {
	case structs.RPCNodeGetClientAllocs:
		<-ctx.Done()
		return errors.New("rpc call abandoned by the caller")
	case structs.RPCNodeUpdateAlloc:
		req := args.(*structs.AllocUpdateRequest)
		req.Alloc[0].ClientStatus = "mutated by the server"
		reply.(*structs.GenericResponse).Index = 7
		return nil
	}
	return errors.New("refused")
}

func (f *fakeServer) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.delivered)
}

type fixedFaults struct {
	latency time.Duration
	err     error
}

func (f fixedFaults) RPC(string) (time.Duration, error) { return f.latency, f.err }

func setup(t *testing.T, f Faults) (*vclock.Clock, *fakeServer, *Network, *trace.Recorder) {
	t.Helper()
	clk := vclock.New(t0)
	srv := &fakeServer{}
	rec := trace.NewRecorder(true)
	n, err := New(Config{Clock: clk, Server: srv, Faults: f, Trace: rec})
	must.NoError(t, err)
	return clk, srv, n, rec
}

func updateReq() *structs.AllocUpdateRequest {
	return &structs.AllocUpdateRequest{Alloc: []*structs.Allocation{{ID: "a1", NodeID: "n", ClientStatus: "running",
		TaskStates: map[string]*structs.TaskState{"t": {State: "running", Events: []*structs.TaskEvent{{Type: "Started"}}}}}}}
}

func msgs(rec *trace.Recorder) []string {
	rec.Flush()
	var out []string
	for _, r := range rec.Records() {
		out = append(out, r.Op+" "+r.Msg)
	}
	return out
}

// TestCallIsCopied: the server works on a JSON copy of the args, and the
// client gets a copy of the reply (nothing shared, as over a wire).
func TestCallIsCopied(t *testing.T) {
	_, srv, n, rec := setup(t, nil)
	_, err := New(Config{})
	must.Error(t, err)
	c := n.Dial("n")
	req := updateReq()
	var reply structs.GenericResponse
	must.NoError(t, c.RPC(structs.RPCNodeUpdateAlloc, req, &reply))
	must.EqOp(t, uint64(7), reply.Index)
	must.EqOp(t, "running", req.Alloc[0].ClientStatus)
	must.EqOp(t, 1, srv.count())
	must.Eq(t, []string{"Node.UpdateAlloc send", "Node.UpdateAlloc deliver", "Node.UpdateAlloc reply"}, msgs(rec))
	rec.Flush()
	must.StrContains(t, string(rec.Records()[0].Data), `"tasks":{"t":{"state":"running","events":1,"last":"Started"}}`)
	must.ErrorContains(t, c.RPC("Other", &structs.GenericResponse{}, &reply), "Other: refused")
}

// TestLatencyAndDrop: a call waits its latency on the virtual clock; a
// dropped call fails after it and is never delivered (SYNC-5.4).
func TestLatencyAndDrop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk, srv, n, _ := setup(t, fixedFaults{latency: 300 * time.Millisecond})
		c := n.Dial("n")
		errc := make(chan error, 1)
		go func() {
			var reply structs.GenericResponse
			errc <- c.RPC(structs.RPCNodeUpdateAlloc, updateReq(), &reply)
		}()
		synctest.Wait()
		must.EqOp(t, 0, srv.count())
		clk.Add(299 * time.Millisecond)
		synctest.Wait()
		must.EqOp(t, 0, srv.count())
		clk.Add(time.Millisecond)
		must.NoError(t, <-errc)
		must.EqOp(t, 1, srv.count())
	})
	synctest.Test(t, func(t *testing.T) {
		clk, srv, n, rec := setup(t, fixedFaults{latency: time.Second, err: faults.ErrRPC})
		c := n.Dial("n")
		errc := make(chan error, 1)
		go func() {
			var reply structs.GenericResponse
			errc <- c.RPC(structs.RPCNodeUpdateAlloc, updateReq(), &reply)
		}()
		synctest.Wait()
		clk.Add(time.Second)
		err := <-errc
		must.ErrorIs(t, err, faults.ErrRPC)
		must.EqOp(t, 0, srv.count(), must.Sprint("a dropped call is never delivered"))
		must.Eq(t, []string{"Node.UpdateAlloc send", "Node.UpdateAlloc fail"}, msgs(rec))
	})
}

// TestPartition: in-flight calls fail, new calls fail at once, forwarding
// finds no path, until Heal.
func TestPartition(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk, srv, n, _ := setup(t, nil)
		c := n.Dial("n")
		errc := make(chan error, 1)
		go func() {
			var reply structs.NodeClientAllocsIndexResponse
			errc <- c.RPC(structs.RPCNodeGetClientAllocs, &structs.NodeClientAllocsRequest{NodeID: "n"}, &reply)
		}()
		synctest.Wait()
		must.EqOp(t, 1, srv.count())
		n.Partition()
		must.True(t, n.Partitioned())
		must.ErrorIs(t, <-errc, ErrPartitioned)
		var reply structs.GenericResponse
		must.ErrorIs(t, c.RPC(structs.RPCNodeUpdateAlloc, updateReq(), &reply), ErrPartitioned)
		fwd := n.Forwarder(c, &fakeClient{})
		must.EqError(t, fwd.ClientRPC(structs.RPCClientSignal, &structs.AllocSignalRequest{}, &reply), structs.MsgNoPathToNode)
		n.Heal()
		must.False(t, n.Partitioned())
		must.NoError(t, c.RPC(structs.RPCNodeUpdateAlloc, updateReq(), &reply))
		clk.Add(time.Second)
	})
	// A partition during a call's latency fails it before delivery.
	synctest.Test(t, func(t *testing.T) {
		_, srv, n, _ := setup(t, fixedFaults{latency: time.Second})
		c := n.Dial("n")
		errc := make(chan error, 1)
		go func() {
			var reply structs.GenericResponse
			errc <- c.RPC(structs.RPCNodeUpdateAlloc, updateReq(), &reply)
		}()
		synctest.Wait()
		n.Partition()
		must.ErrorIs(t, <-errc, ErrPartitioned)
		must.EqOp(t, 0, srv.count())
	})
}

// TestClose: a closed connection cuts in-flight calls and fails later
// ones, without tracing them; forwarding to it finds no path.
func TestClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, _, n, rec := setup(t, nil)
		c := n.Dial("n")
		errc := make(chan error, 1)
		go func() {
			var reply structs.NodeClientAllocsIndexResponse
			errc <- c.RPC(structs.RPCNodeGetClientAllocs, &structs.NodeClientAllocsRequest{NodeID: "n"}, &reply)
		}()
		synctest.Wait()
		c.Close()
		must.True(t, c.Closed())
		must.ErrorIs(t, <-errc, ErrConnClosed)
		var reply structs.GenericResponse
		must.ErrorIs(t, c.RPC(structs.RPCNodeUpdateAlloc, updateReq(), &reply), ErrConnClosed)
		must.Eq(t, []string{"Node.GetClientAllocs send", "Node.GetClientAllocs deliver"}, msgs(rec))
		must.EqError(t, n.Forwarder(c, &fakeClient{}).ClientRPC(structs.RPCClientSignal, &structs.AllocSignalRequest{}, &reply), structs.MsgNoPathToNode)
	})
}

type fakeClient struct {
	got []any
	err error
}

func (f *fakeClient) ClientRPC(method string, args, reply any) error {
	f.got = append(f.got, args)
	if r, ok := reply.(*structs.AllocGetPauseStateResponse); ok {
		r.ScheduleState = structs.TaskScheduleStateForceRun
	}
	if a, ok := args.(*structs.AllocSignalRequest); ok {
		a.Signal = "changed by the client"
	}
	return f.err
}

// TestForwarder: the server's calls reach the client as copies; replies
// and errors come back verbatim.
func TestForwarder(t *testing.T) {
	_, _, n, rec := setup(t, nil)
	c := n.Dial("n")
	fc := &fakeClient{}
	fwd := n.Forwarder(c, fc)
	var get structs.AllocGetPauseStateResponse
	must.NoError(t, fwd.ClientRPC(structs.RPCClientGetPauseState, &structs.AllocGetPauseStateRequest{AllocID: "a", Task: "t"}, &get))
	must.EqOp(t, structs.TaskScheduleStateForceRun, get.ScheduleState)
	req := &structs.AllocSignalRequest{AllocID: "a", Signal: "SIGHUP"}
	var reply structs.GenericResponse
	fc.err = errors.New("Task not found")
	must.EqError(t, fwd.ClientRPC(structs.RPCClientSignal, req, &reply), "Task not found")
	must.EqOp(t, "SIGHUP", req.Signal)
	must.Eq(t, []string{
		"Allocations.GetPauseState forward", "Allocations.GetPauseState reply",
		"Allocations.Signal forward", "Allocations.Signal fail",
	}, msgs(rec))
	must.ErrorContains(t, copyInto(make(chan int), &reply), "rpc encode")
	must.ErrorContains(t, copyInto(&structs.GenericResponse{}, &[]int{}), "rpc decode")
}

// TestRPCContext: the caller's context ends its call too.
func TestRPCContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, _, n, _ := setup(t, nil)
		c := n.Dial("n")
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			var reply structs.NodeClientAllocsIndexResponse
			errc <- c.RPCContext(ctx, structs.RPCNodeGetClientAllocs, &structs.NodeClientAllocsRequest{NodeID: "n"}, &reply)
		}()
		synctest.Wait()
		cancel()
		must.ErrorIs(t, <-errc, context.Canceled)
	})
}

// TestAllocPullOverTheWire: the alloc pull against the simulated server:
// Node.GetClientAllocs traces its index map, Alloc.GetAllocs its allocs
// (summarised), and a caller with the old reply type gets an error that
// names the change, traced as a failed call.
func TestAllocPullOverTheWire(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		srv, err := server.New(server.Config{Clock: clk, Rand: rand.New(rand.NewPCG(1, 2))})
		must.NoError(t, err)
		must.NoError(t, srv.RegisterNode("n", "ready"))
		placed, err := srv.RegisterJob(&structs.Job{ID: "web", Namespace: "default", Type: "service",
			TaskGroups: []*structs.TaskGroup{{Name: "g", Count: 1, Tasks: []*structs.Task{{Name: "t", Driver: "mock"}}}}})
		must.NoError(t, err)
		rec := trace.NewRecorder(true)
		n, err := New(Config{Clock: clk, Server: srv, Trace: rec})
		must.NoError(t, err)
		c := n.Dial("n")

		var pulled structs.NodeClientAllocsIndexResponse
		must.NoError(t, c.RPC(structs.RPCNodeGetClientAllocs, &structs.NodeClientAllocsRequest{NodeID: "n"}, &pulled))
		must.Eq(t, map[string]uint64{placed[0].ID: placed[0].AllocModifyIndex}, pulled.Allocs)
		var fetched structs.AllocsGetResponse
		must.NoError(t, c.RPC(structs.RPCAllocGetAllocs, &structs.AllocsGetRequest{AllocIDs: []string{placed[0].ID}}, &fetched))
		must.SliceLen(t, 1, fetched.Allocs)
		must.Eq(t, placed[0].Job, fetched.Allocs[0].Job)

		//lint:ignore SA1019 a runner written for the old reply
		var old structs.NodeClientAllocsResponse
		err = c.RPC(structs.RPCNodeGetClientAllocs, &structs.NodeClientAllocsRequest{NodeID: "n"}, &old)
		must.EqError(t, err, structs.RPCNodeGetClientAllocs+": "+structs.MsgGetClientAllocsReplyChanged)

		rec.Flush()
		var data []string
		for _, r := range rec.Records() {
			if r.Msg != "deliver" {
				data = append(data, r.Op+" "+r.Msg+" "+string(r.Data))
			}
		}
		// Records of one instant are sorted by operation: the fetch first.
		id, idx := placed[0].ID, placed[0].AllocModifyIndex
		must.Eq(t, []string{
			fmt.Sprintf(`Alloc.GetAllocs send {"AllocIDs":[%q],"Region":"","MinQueryIndex":0}`, id),
			fmt.Sprintf(`Alloc.GetAllocs reply {"allocs":[{"id":%q,"client_status":"pending","desired_status":"run","alloc_modify_index":%d}],"index":%d}`, id, idx, idx),
			`Node.GetClientAllocs send {"NodeID":"n","Region":"","MinQueryIndex":0}`,
			fmt.Sprintf(`Node.GetClientAllocs reply {"allocs":{%q:%d},"index":%d}`, id, idx, idx),
			`Node.GetClientAllocs send {"NodeID":"n","Region":"","MinQueryIndex":0}`,
			`Node.GetClientAllocs fail {"error":` + strconv.Quote(structs.MsgGetClientAllocsReplyChanged) + `}`,
		}, data)
	})
}
