package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

var t0 = time.Date(2024, 6, 14, 9, 0, 0, 0, time.UTC)

const nodeID = "node-1"

func newServer(t *testing.T, clk *vclock.Clock, profile schedule.Profile) (*Server, *trace.Recorder) {
	t.Helper()
	rec := trace.NewRecorder(true)
	s, err := New(Config{Clock: clk, Rand: seeds.Stream(1, "server"), Profile: profile, Trace: rec})
	must.NoError(t, err)
	must.NoError(t, s.RegisterNode(nodeID, syncpolicy.NodeStatusReady))
	return s, rec
}

func job(id string, count int) *structs.Job {
	return &structs.Job{ID: id, TaskGroups: []*structs.TaskGroup{{
		Name: "g", Count: count, Tasks: []*structs.Task{{Name: "t", Driver: "mock_driver"}},
	}}}
}

func update(a *structs.Allocation, status string) *structs.Allocation {
	return &structs.Allocation{ID: a.ID, NodeID: a.NodeID, ClientStatus: status,
		TaskStates: map[string]*structs.TaskState{"t": {State: structs.TaskStateRunning}}}
}

func TestNew(t *testing.T) {
	_, err := New(Config{})
	must.Error(t, err)
	clk := vclock.New(t0)
	s, _ := newServer(t, clk, "")
	must.Error(t, s.RegisterNode(nodeID, syncpolicy.NodeStatusReady))
	must.Error(t, s.SetNodeStatus("other", syncpolicy.NodeStatusDown))
}

// TestUpdateAllocChecks: SYNC-4's checks, in order, with exact messages;
// nothing is stored for a refused request.
func TestUpdateAllocChecks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, _ := newServer(t, clk, "")
		must.NoError(t, s.RegisterNode("down-node", syncpolicy.NodeStatusReady))
		must.NoError(t, s.SetNodeStatus("down-node", syncpolicy.NodeStatusDown))
		cases := []struct {
			name string
			req  *structs.AllocUpdateRequest
			want string
		}{
			{"no allocs", &structs.AllocUpdateRequest{}, "must update at least one allocation"},
			{"no node", &structs.AllocUpdateRequest{Alloc: []*structs.Allocation{{ID: "a"}}}, "missing node ID"},
			{"unknown node", &structs.AllocUpdateRequest{Alloc: []*structs.Allocation{{ID: "a", NodeID: "x"}}}, "node x not found"},
			{"down node", &structs.AllocUpdateRequest{Alloc: []*structs.Allocation{{ID: "a", NodeID: "down-node"}}},
				"node down-node is not allowed to update allocs while in status down"},
			{"evals", &structs.AllocUpdateRequest{Alloc: []*structs.Allocation{{ID: "a", NodeID: nodeID}},
				Evals: []*structs.Evaluation{{ID: "e"}}}, "evals field must not be set"},
		}
		for _, c := range cases {
			var reply structs.GenericResponse
			err := s.UpdateAlloc(context.Background(), c.req, &reply)
			must.EqError(t, err, c.want, must.Sprint(c.name))
		}
		must.EqOp(t, len(cases), s.Stats().Rejected)
		must.EqOp(t, 0, s.Stats().LogEntries)
	})
}

// TestBatching: calls within one 50 ms window commit as one log entry
// with one index; the history keeps the virtual receive times (SYNC-4).
func TestBatching(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, rec := newServer(t, clk, "")
		allocs, err := s.RegisterJob(job("web", 3))
		must.NoError(t, err)
		must.SliceLen(t, 3, allocs)
		idx := make([]uint64, 3)
		var wg sync.WaitGroup
		call := func(i int) {
			defer wg.Done()
			var reply structs.GenericResponse
			must.NoError(t, s.UpdateAlloc(context.Background(),
				&structs.AllocUpdateRequest{Alloc: []*structs.Allocation{update(allocs[i], structs.AllocClientStatusRunning)}}, &reply))
			idx[i] = reply.Index
		}
		wg.Add(2)
		go call(0)
		synctest.Wait()
		clk.Add(30 * time.Millisecond)
		go call(1)
		synctest.Wait()
		clk.Add(20 * time.Millisecond) // the window of the first call ends
		synctest.Wait()
		wg.Wait()
		must.EqOp(t, idx[0], idx[1], must.Sprint("one log entry for both callers"))
		wg.Add(1)
		go call(2)
		synctest.Wait()
		clk.Add(50 * time.Millisecond)
		wg.Wait()
		must.Greater(t, idx[0], idx[2])
		st := s.Stats()
		must.EqOp(t, 2, st.LogEntries)
		must.EqOp(t, 3, st.UpdateAllocCalls)
		must.EqOp(t, 3, st.AllocUpdates)
		must.Positive(t, st.LogBytes)
		h := s.History(allocs[1].ID, 0)
		must.SliceLen(t, 1, h)
		must.EqOp(t, t0.Add(30*time.Millisecond), h[0].At)
		must.EqOp(t, t0.Add(50*time.Millisecond), h[0].CommittedAt)
		must.EqOp(t, idx[1], h[0].Index)
		must.EqOp(t, structs.AllocClientStatusRunning, h[0].State.ClientStatus)
		must.SliceLen(t, 0, s.History(allocs[1].ID, 1), must.Sprint("from the end on: none"))
		must.SliceLen(t, 1, s.History(allocs[1].ID, -1), must.Sprint("a negative from is 0"))
		h[0].State = nil
		must.NotNil(t, s.History(allocs[1].ID, 0)[0].State, must.Sprint("History hands out its own slice"))
		stored := s.Alloc(allocs[1].ID)
		shared := s.SharedAlloc(allocs[1].ID)
		must.Eq(t, stored, shared)
		must.EqOp(t, structs.AllocClientStatusRunning, stored.ClientStatus)
		must.EqOp(t, idx[1], stored.ModifyIndex)
		must.EqOp(t, t0.Add(30*time.Millisecond).UnixNano(), stored.ModifyTime)
		rec.Flush()
		commits := 0
		for _, r := range rec.Records() {
			if r.Kind == trace.KindServer && r.Op == "commit" {
				commits++
			}
		}
		must.EqOp(t, 2, commits)
		_, _, err = s.StopAlloc(allocs[1].ID, nil)
		must.NoError(t, err)
		must.EqOp(t, structs.AllocDesiredStatusStop, s.SharedAlloc(allocs[1].ID).DesiredStatus)
		must.EqOp(t, structs.AllocDesiredStatusRun, shared.DesiredStatus, must.Sprint("a shared alloc never changes: stored allocs are copy-on-write"))
	})
}

// TestEvalsAndUnknownAllocs: a newly failed alloc creates an
// alloc-failure eval, a stopped one completing a job-deregister eval, one
// per (namespace, job) and commit; unknown allocs are ignored.
func TestEvalsAndUnknownAllocs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, _ := newServer(t, clk, "")
		allocs, err := s.RegisterJob(job("web", 2))
		must.NoError(t, err)
		send := func(us ...*structs.Allocation) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				var reply structs.GenericResponse
				must.NoError(t, s.UpdateAlloc(context.Background(), &structs.AllocUpdateRequest{Alloc: us}, &reply))
			}()
			synctest.Wait()
			clk.Add(syncpolicy.CommitWindow)
			<-done
		}
		send(update(allocs[0], structs.AllocClientStatusFailed), update(allocs[1], structs.AllocClientStatusFailed),
			&structs.Allocation{ID: "ghost", NodeID: nodeID})
		must.Eq(t, []string{TriggerAllocFailure}, triggers(s.Evals()))
		must.EqOp(t, 1, s.Stats().UnknownAllocs)
		send(update(allocs[0], structs.AllocClientStatusFailed))
		must.SliceLen(t, 1, s.Evals(), must.Sprint("already terminal: no new eval"))
		must.NoError(t, s.StopJob("web"))
		more, err := s.RegisterJob(job("api", 1))
		must.NoError(t, err)
		must.NoError(t, s.StopJob("api"))
		send(update(more[0], structs.AllocClientStatusComplete))
		must.Eq(t, []string{TriggerAllocFailure, TriggerJobDeregister}, triggers(s.Evals()))
	})
}

func triggers(evs []structs.Evaluation) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.TriggeredBy)
	}
	return out
}

// TestAbandonedUpdateStillCommits: a caller that goes away gets an error,
// the update still commits with its batch.
func TestAbandonedUpdateStillCommits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, _ := newServer(t, clk, "")
		allocs, _ := s.RegisterJob(job("web", 1))
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			var reply structs.GenericResponse
			errc <- s.UpdateAlloc(ctx, &structs.AllocUpdateRequest{Alloc: []*structs.Allocation{update(allocs[0], structs.AllocClientStatusRunning)}}, &reply)
		}()
		synctest.Wait()
		cancel()
		must.EqError(t, <-errc, "rpc call abandoned by the caller")
		clk.Add(syncpolicy.CommitWindow)
		synctest.Wait()
		must.SliceLen(t, 1, s.History(allocs[0].ID, 0))
	})
}

// TestGetClientAllocsBlocks: the pull returns the node's index map at
// once when the nodeID's index is past MinQueryIndex, else at the next
// change, else after MaxQueryTime, else when the caller goes away.
func TestGetClientAllocsBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, _ := newServer(t, clk, "")
		var reply structs.NodeClientAllocsIndexResponse
		pull := func(ctx context.Context, min uint64) chan error {
			errc := make(chan error, 1)
			go func() {
				errc <- s.GetClientAllocs(ctx, &structs.NodeClientAllocsRequest{NodeID: nodeID, QueryOptions: structs.QueryOptions{MinQueryIndex: min}}, &reply)
			}()
			return errc
		}
		errc := pull(context.Background(), 0)
		synctest.Wait()
		select {
		case <-errc:
			t.Fatal("returned with nothing placed")
		default:
		}
		allocs, err := s.RegisterJob(job("web", 2))
		must.NoError(t, err)
		must.NoError(t, <-errc)
		idx := reply.Index
		must.Eq(t, map[string]uint64{allocs[0].ID: idx, allocs[1].ID: idx}, reply.Allocs)

		must.NoError(t, <-pull(context.Background(), 0), must.Sprint("index already past: at once"))

		errc = pull(context.Background(), idx)
		synctest.Wait()
		clk.Add(DefaultMaxQueryTime)
		must.NoError(t, <-errc)
		must.EqOp(t, idx, reply.Index, must.Sprint("timed out with the same index"))

		ctx, cancel := context.WithCancel(context.Background())
		errc = pull(ctx, idx)
		synctest.Wait()
		cancel()
		must.EqError(t, <-errc, "rpc call abandoned by the caller")

		must.EqError(t, s.GetClientAllocs(context.Background(), &structs.NodeClientAllocsRequest{}, &reply), "missing node ID")
		must.EqError(t, s.GetClientAllocs(context.Background(), &structs.NodeClientAllocsRequest{NodeID: "x"}, &reply), "node x not found")
	})
}

// TestGetAllocs: Alloc.GetAllocs answers at once with the requested
// allocs the server has, in request order, jobs included, and leaves out
// an unknown ID.
func TestGetAllocs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, _ := newServer(t, clk, "")
		allocs, err := s.RegisterJob(job("web", 2))
		must.NoError(t, err)
		var reply structs.AllocsGetResponse
		must.NoError(t, s.GetAllocs(&structs.AllocsGetRequest{AllocIDs: []string{allocs[1].ID, "nope", allocs[0].ID}}, &reply))
		must.SliceLen(t, 2, reply.Allocs)
		must.EqOp(t, allocs[1].ID, reply.Allocs[0].ID)
		must.EqOp(t, allocs[0].ID, reply.Allocs[1].ID)
		must.NotNil(t, reply.Allocs[0].Job)
		must.EqOp(t, s.Index(), reply.Index)
	})
}

// TestRegisterJob: admission (SCHED-1, DATA-3), placement with names and
// seeded IDs, in-place schedule updates (PAUSE-7), destructive updates,
// stop.
func TestRegisterJob(t *testing.T) {
	clk := vclock.New(t0)
	s, _ := newServer(t, clk, "")
	allocs, err := s.RegisterJob(job("web", 2))
	must.NoError(t, err)
	names := []string{allocs[0].Name, allocs[1].Name}
	must.SliceContainsAll(t, []string{"web.g[0]", "web.g[1]"}, names)
	for _, a := range allocs {
		must.EqOp(t, nodeID, a.NodeID)
		must.EqOp(t, structs.AllocDesiredStatusRun, a.DesiredStatus)
		must.EqOp(t, structs.AllocClientStatusPending, a.ClientStatus)
		must.EqOp(t, "default", a.Namespace)
		must.EqOp(t, a.CreateIndex, a.AllocModifyIndex)
	}
	s2, _ := newServer(t, clk, "")
	again, _ := s2.RegisterJob(job("web", 2))
	must.EqOp(t, allocs[0].ID, again[0].ID, must.Sprint("IDs are drawn from the seeded source"))

	// Schedule-only change: in place.
	j := job("web", 2)
	j.TaskGroups[0].Tasks[0].Schedule = &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17"}}
	updated, err := s.RegisterJob(j)
	must.NoError(t, err)
	must.SliceLen(t, 2, updated)
	for i, a := range updated {
		must.EqOp(t, allocs[i].ID, a.ID)
		must.Greater(t, allocs[i].AllocModifyIndex, a.AllocModifyIndex)
		must.NotNil(t, a.Job.TaskGroups[0].Tasks[0].Schedule)
	}
	must.NotNil(t, s.Job("web").TaskGroups[0].Tasks[0].Schedule)
	must.EqOp(t, "web.g[1]", s.AllocByName("web.g[1]").Name)

	// Any other change: old allocs stopped, new ones placed.
	j2 := job("web", 1)
	placed, err := s.RegisterJob(j2)
	must.NoError(t, err)
	must.SliceLen(t, 1, placed)
	must.NotEq(t, allocs[0].ID, placed[0].ID)
	must.EqOp(t, structs.AllocDesiredStatusStop, s.Alloc(allocs[0].ID).DesiredStatus)
	must.EqOp(t, placed[0].ID, s.AllocByName("web.g[0]").ID, must.Sprint("the newest alloc of a name"))
	must.SliceLen(t, 3, s.Allocs())
	must.EqOp(t, 3, s.AllocCount())
	must.SliceLen(t, 3, s.NodeAllocIDs(nodeID))

	must.NoError(t, s.StopJob("web"))
	must.EqOp(t, structs.AllocDesiredStatusStop, s.Alloc(placed[0].ID).DesiredStatus)
	must.EqError(t, s.StopJob("nope"), `job "nope" not found`)
	must.Nil(t, s.AllocByName("nope"))
	must.Positive(t, s.Index())
}

func TestValidateJob(t *testing.T) {
	sched := &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17"}}
	bad := &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * *", End: "0 17"}}
	two := func(a, b *schedule.Schedule) *structs.Job {
		j := job("web", 1)
		j.TaskGroups[0].Tasks = []*structs.Task{
			{Name: "a", Driver: "mock_driver", Schedule: a}, {Name: "b", Driver: "mock_driver", Schedule: b},
		}
		j.Canonicalize()
		return j
	}
	must.EqError(t, ValidateJob(nil, schedule.ProfileEnt), structs.MsgJobNoID)
	must.EqError(t, ValidateJob(&structs.Job{}, schedule.ProfileEnt), structs.MsgJobNoID)
	must.NoError(t, ValidateJob(two(sched, nil), schedule.ProfileEnt))
	must.EqError(t, ValidateJob(two(sched, sched), schedule.ProfileCE), "task schedules requires Nomad Enterprise",
		must.Sprint("ce: one error per job (SCHED-1)"))
	must.EqError(t, ValidateJob(two(bad, &schedule.Schedule{}), schedule.ProfileEnt),
		"cron.start must contain 6 fields\nmust specify cron block", must.Sprint("ent: each failing task's first error"))
	j := job("web", -1)
	zero := 0
	mode := "delay"
	j.TaskGroups[0].RestartPolicy = &structs.RestartPolicy{Attempts: &zero, Mode: &mode}
	j.Canonicalize()
	err := ValidateJob(j, schedule.ProfileEnt)
	must.ErrorContains(t, err, `task group "g" has a negative count`)
	must.ErrorContains(t, err, `Restart policy "delay" with 0 attempts is ambiguous`)

	clk := vclock.New(t0)
	s, rec := newServer(t, clk, schedule.ProfileCE)
	_, err = s.RegisterJob(two(sched, nil))
	must.ErrorContains(t, err, "task schedules requires Nomad Enterprise")
	rec.Flush()
	must.EqOp(t, "rejected", rec.Records()[0].Msg)

	lonely, err := New(Config{Clock: clk, Rand: seeds.Stream(1, "x")})
	must.NoError(t, err)
	_, err = lonely.RegisterJob(job("web", 1))
	must.EqError(t, err, `no node to place job "web" on`)
}

type fakeNode struct {
	calls []string
	err   error
}

func (f *fakeNode) ClientRPC(method string, args, reply any) error {
	f.calls = append(f.calls, fmt.Sprintf("%s %+v", method, args))
	if r, ok := reply.(*structs.AllocGetPauseStateResponse); ok {
		r.ScheduleState = structs.TaskScheduleStateForcePause
	}
	return f.err
}

// TestForwarding: API-7's server side, in order: an alloc ID, a known
// alloc, a connected nodeID; then the client's reply and error verbatim.
func TestForwarding(t *testing.T) {
	clk := vclock.New(t0)
	s, _ := newServer(t, clk, "")
	allocs, _ := s.RegisterJob(job("web", 1))
	id := allocs[0].ID
	var reply structs.GenericResponse
	must.EqError(t, s.SetPauseState(&structs.AllocPauseRequest{}, &reply), "missing AllocID")
	must.EqError(t, s.Signal(&structs.AllocSignalRequest{AllocID: "nope"}, &reply), `Unknown allocation "nope"`)
	must.EqError(t, s.SetPauseState(&structs.AllocPauseRequest{AllocID: id}, &reply), "No path to node")

	fn := &fakeNode{}
	s.Connect(nodeID, fn)
	must.NoError(t, s.SetPauseState(&structs.AllocPauseRequest{AllocID: id, Task: "t", ScheduleState: structs.TaskScheduleStateForcePause}, &reply))
	var get structs.AllocGetPauseStateResponse
	must.NoError(t, s.GetPauseState(&structs.AllocGetPauseStateRequest{AllocID: id, Task: "t"}, &get))
	must.EqOp(t, structs.TaskScheduleStateForcePause, get.ScheduleState)
	fn.err = errors.New("Task not found")
	must.EqError(t, s.Signal(&structs.AllocSignalRequest{AllocID: id, Task: "x", Signal: "SIGHUP"}, &reply), "Task not found")
	must.SliceLen(t, 3, fn.calls)
	must.StrContains(t, fn.calls[0], structs.RPCClientSetPauseState)
	must.StrContains(t, fn.calls[1], structs.RPCClientGetPauseState)
	must.StrContains(t, fn.calls[2], structs.RPCClientSignal)
	s.Connect(nodeID, nil)
	must.EqError(t, s.GetPauseState(&structs.AllocGetPauseStateRequest{AllocID: id}, &get), "No path to node")
}

// TestCall dispatches by method and refuses unknown methods and shapes.
func TestCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, _ := newServer(t, clk, "")
		ctx := context.Background()
		var gen structs.GenericResponse
		var pulled structs.NodeClientAllocsIndexResponse
		must.ErrorContains(t, s.Call(ctx, "Node.Dance", nil, nil), "can't find method Node.Dance")
		for _, m := range []string{structs.RPCNodeUpdateAlloc, structs.RPCNodeGetClientAllocs, structs.RPCAllocGetAllocs,
			structs.RPCServerSetPauseState, structs.RPCServerGetPauseState, structs.RPCServerSignal} {
			must.ErrorContains(t, s.Call(ctx, m, 42, &gen), "args of type int", must.Sprint(m))
		}
		must.EqError(t, s.Call(ctx, structs.RPCNodeUpdateAlloc, &structs.AllocUpdateRequest{}, &gen), "must update at least one allocation")
		_, _ = s.RegisterJob(job("web", 1))
		must.NoError(t, s.Call(ctx, structs.RPCNodeGetClientAllocs, &structs.NodeClientAllocsRequest{NodeID: nodeID}, &pulled))
		var fetched structs.AllocsGetResponse
		must.NoError(t, s.Call(ctx, structs.RPCAllocGetAllocs, &structs.AllocsGetRequest{AllocIDs: slices.Sorted(maps.Keys(pulled.Allocs))}, &fetched))
		must.SliceLen(t, 1, fetched.Allocs)
		//lint:ignore SA1019 a runner written for the old reply
		var old structs.NodeClientAllocsResponse
		must.EqError(t, s.Call(ctx, structs.RPCNodeGetClientAllocs, &structs.NodeClientAllocsRequest{NodeID: nodeID}, &old),
			structs.MsgGetClientAllocsReplyChanged)
		must.EqError(t, s.Call(ctx, structs.RPCServerSetPauseState, &structs.AllocPauseRequest{}, &gen), "missing AllocID")
		must.EqError(t, s.Call(ctx, structs.RPCServerGetPauseState, &structs.AllocGetPauseStateRequest{}, &structs.AllocGetPauseStateResponse{}), "missing AllocID")
		must.EqError(t, s.Call(ctx, structs.RPCServerSignal, &structs.AllocSignalRequest{}, &gen), "missing AllocID")
	})
}

// TestDisconnectNode: losing a node marks its allocs that should run
// unknown at a new AllocModifyIndex; an evicted one stays as it was.
func TestDisconnectNode(t *testing.T) {
	clk := vclock.New(t0)
	s, _ := newServer(t, clk, "")
	allocs, err := s.RegisterJob(job("web", 2))
	must.NoError(t, err)
	must.NoError(t, s.EvictAlloc(allocs[1].ID))
	before := s.Index()
	must.NoError(t, s.DisconnectNode(nodeID))
	lost := s.Alloc(allocs[0].ID)
	must.EqOp(t, structs.AllocClientStatusUnknown, lost.ClientStatus)
	must.Greater(t, before, lost.AllocModifyIndex)
	must.EqOp(t, structs.AllocClientStatusPending, s.Alloc(allocs[1].ID).ClientStatus, must.Sprint("evicted: not to run"))
	idx := s.Index()
	must.NoError(t, s.DisconnectNode(nodeID))
	must.EqOp(t, idx, s.Index(), must.Sprint("nothing left to mark: no new index"))
	must.Error(t, s.DisconnectNode("other"))
}
