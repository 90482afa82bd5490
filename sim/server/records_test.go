package server

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

// counter draws eval IDs e1, e2, ... and counts its draws.
type counter struct{ n int }

func (c *counter) draw() string {
	c.n++
	return "e" + string(rune('0'+c.n))
}

// TestJobVersions: a new job is version 0 stamped with the clock and the
// registration's index; an identical registration keeps the version, a
// changed one (in place or not) is a new version; a deregistration is a
// new version with Stop set, and registering the stopped job again is a
// new version that places anew (not in place) and clears Stop.
func TestJobVersions(t *testing.T) {
	clk := vclock.New(t0)
	s, _ := newServer(t, clk, "")
	evals := &counter{}
	reg, err := s.RegisterJobEval(job("web", 1), evals.draw)
	must.NoError(t, err)
	must.Eq(t, records.JobStamp{Version: 0, SubmitTime: t0.UnixNano(), CreateIndex: reg.Index, JobModifyIndex: reg.Index}, reg.Job)
	must.EqOp(t, "e1", reg.Eval.ID)
	must.Eq(t, records.Eval{ID: "e1", Namespace: "default", Priority: 50, Type: "service",
		TriggeredBy: records.EvalTriggerJobRegister, JobID: "web", JobModifyIndex: reg.Index,
		Status: records.EvalStatusComplete, CreateIndex: reg.Index, ModifyIndex: reg.Index,
		CreateTime: t0.UnixNano(), ModifyTime: t0.UnixNano()}, reg.Eval)
	first := reg.Allocs[0].ID
	must.Eq(t, records.Alloc{EvalID: "e1", Job: reg.Job}, s.AllocRecord(first))

	clk.Add(time.Minute)
	same, err := s.RegisterJobEval(job("web", 1), evals.draw)
	must.NoError(t, err)
	must.EqOp(t, uint64(0), same.Job.Version)
	must.EqOp(t, t0.UnixNano(), same.Job.SubmitTime, must.Sprint("the version's submit time"))
	must.EqOp(t, "e2", s.AllocRecord(first).EvalID, must.Sprint("updated in place by e2"))

	scheduled := job("web", 1)
	scheduled.TaskGroups[0].Tasks[0].Config = map[string]any{"run_for": "1h"}
	changed, err := s.RegisterJobEval(scheduled, evals.draw)
	must.NoError(t, err)
	must.EqOp(t, uint64(1), changed.Job.Version)
	must.EqOp(t, t0.Add(time.Minute).UnixNano(), changed.Job.SubmitTime)
	must.EqOp(t, reg.Index, changed.Job.CreateIndex)
	must.EqOp(t, changed.Index, changed.Job.JobModifyIndex)

	d, err := s.DeregisterJob("web", false, evals.draw)
	must.NoError(t, err)
	rec := s.JobRecord("web")
	must.True(t, rec.Stop)
	must.EqOp(t, uint64(2), rec.Version)
	must.EqOp(t, d.Index, rec.JobModifyIndex)
	must.EqOp(t, d.Index, d.JobModifyIndex, must.Sprint("the stopped version's"))
	must.EqOp(t, records.EvalTriggerJobDeregister, d.Eval.TriggeredBy)
	for _, a := range s.JobAllocs("web", true) {
		must.EqOp(t, structs.AllocDesiredStatusStop, a.DesiredStatus)
	}

	again, err := s.RegisterJobEval(scheduled, evals.draw)
	must.NoError(t, err)
	must.EqOp(t, uint64(3), again.Job.Version)
	must.False(t, s.JobRecord("web").Stop)
	must.SliceLen(t, 1, again.Allocs)
	must.NotEq(t, first, again.Allocs[0].ID, must.Sprint("placed anew"))
	must.EqOp(t, 5, evals.n)
	must.SliceLen(t, 5, s.EvalRecords())
}

// TestPurgeIncarnations: a purged job is gone (its allocs stay); the same
// ID registered again is a new incarnation at version 0, and JobAllocs
// without all lists only its allocs. Unknown jobs and allocs are errors
// and draw no eval ID.
func TestPurgeIncarnations(t *testing.T) {
	s, _ := newServer(t, vclock.New(t0), "")
	evals := &counter{}
	_, err := s.RegisterJobEval(job("web", 2), evals.draw)
	must.NoError(t, err)
	_, err = s.DeregisterJob("web", true, evals.draw)
	must.NoError(t, err)
	must.Nil(t, s.JobRecord("web"))
	must.Nil(t, s.Job("web"))
	must.SliceEmpty(t, s.JobRecords(""))
	must.SliceLen(t, 2, s.JobAllocs("web", false), must.Sprint("no job of that ID: every alloc"))

	reg, err := s.RegisterJobEval(job("web", 1), evals.draw)
	must.NoError(t, err)
	must.EqOp(t, uint64(0), reg.Job.Version)
	must.EqOp(t, reg.Index, reg.Job.CreateIndex)
	must.SliceLen(t, 1, s.JobAllocs("web", false))
	must.SliceLen(t, 3, s.JobAllocs("web", true))

	_, err = s.DeregisterJob("nope", false, evals.draw)
	must.ErrorIs(t, err, ErrJobNotFound)
	_, _, err = s.StopAlloc("nope", evals.draw)
	must.ErrorIs(t, err, ErrAllocNotFound)
	_, err = s.RegisterJobEval(&structs.Job{ID: "bad", TaskGroups: []*structs.TaskGroup{{Name: "g", Count: -1}}}, evals.draw)
	must.Error(t, err)
	must.EqOp(t, 3, evals.n, must.Sprint("failures draw no eval ID"))
}

// TestStopAlloc: one alloc to desired stop at a new index its node's pull
// sees, under an alloc-stop eval; the job is not stopped.
func TestStopAlloc(t *testing.T) {
	s, rec := newServer(t, vclock.New(t0), "")
	reg, err := s.RegisterJobEval(job("web", 2), nil)
	must.NoError(t, err)
	must.EqOp(t, "", reg.Eval.ID)
	must.SliceEmpty(t, s.EvalRecords(), must.Sprint("no eval without a source"))
	ev, idx, err := s.StopAlloc(reg.Allocs[0].ID, func() string { return "stop-1" })
	must.NoError(t, err)
	must.EqOp(t, s.Index(), idx)
	must.EqOp(t, records.EvalTriggerAllocStop, ev.TriggeredBy)
	must.EqOp(t, "web", ev.JobID)
	must.EqOp(t, idx, ev.CreateIndex)
	a := s.Alloc(reg.Allocs[0].ID)
	must.EqOp(t, structs.AllocDesiredStatusStop, a.DesiredStatus)
	must.EqOp(t, idx, a.AllocModifyIndex)
	must.EqOp(t, structs.AllocDesiredStatusRun, s.Alloc(reg.Allocs[1].ID).DesiredStatus)
	must.False(t, s.JobRecord("web").Stop)
	var reply structs.NodeClientAllocsIndexResponse
	must.NoError(t, s.GetClientAllocs(context.Background(), &structs.NodeClientAllocsRequest{NodeID: nodeID,
		QueryOptions: structs.QueryOptions{MinQueryIndex: idx - 1}}, &reply))
	must.EqOp(t, idx, reply.Index)
	rec.Flush()
	must.SliceContainsFunc(t, rec.Records(), "stop_alloc", func(r trace.Record, op string) bool { return r.Op == op })
}

// TestStopJobKeepsRegistration: the simulator's own StopJob stops the
// allocs only, so re-registering the job is still in place when only
// schedules change (traces stay as they were).
func TestStopJobKeepsRegistration(t *testing.T) {
	s, _ := newServer(t, vclock.New(t0), "")
	_, err := s.RegisterJob(job("web", 1))
	must.NoError(t, err)
	must.NoError(t, s.StopJob("web"))
	must.False(t, s.JobRecord("web").Stop)
	must.EqOp(t, uint64(0), s.JobRecord("web").Version)
	out, err := s.RegisterJob(job("web", 1))
	must.NoError(t, err)
	must.SliceEmpty(t, out, must.Sprint("in place, and the stopped alloc is skipped"))
}

// TestNodeRecords: a node's defaults, its description, its status and
// the index of its allocs' last change.
func TestNodeRecords(t *testing.T) {
	s, _ := newServer(t, vclock.New(t0), "")
	must.Eq(t, []records.Node{{ID: nodeID, Name: "node-node-1", Datacenter: "dc1", NodePool: "default",
		Status: syncpolicy.NodeStatusReady}}, s.NodeRecords())
	must.NoError(t, s.DescribeNode(nodeID, records.Node{Name: "n1", NodeClass: "fast", Drivers: []string{"raw_exec", "mock_driver"}}))
	must.Error(t, s.DescribeNode("nope", records.Node{}))
	reg, err := s.RegisterJob(job("web", 1))
	must.NoError(t, err)
	must.NoError(t, s.SetNodeStatus(nodeID, syncpolicy.NodeStatusDown))
	must.Eq(t, []records.Node{{ID: nodeID, Name: "n1", Datacenter: "dc1", NodePool: "default", NodeClass: "fast",
		Status: syncpolicy.NodeStatusDown, Drivers: []string{"mock_driver", "raw_exec"},
		ModifyIndex: reg[0].AllocModifyIndex}}, s.NodeRecords())
	must.EqOp(t, "node-abcdefgh", records.DefaultNodeName("abcdefgh-1234"))
}

// TestClientEvalRecords: a SYNC-4 eval gets a record too (complete, of
// the job's type, at the commit's index), traced as before.
func TestClientEvalRecords(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, _ := newServer(t, clk, "")
		j := job("report", 1)
		j.Type = structs.JobTypeBatch
		allocs, err := s.RegisterJob(j)
		must.NoError(t, err)
		done := make(chan error, 1)
		go func() {
			var reply structs.GenericResponse
			done <- s.UpdateAlloc(context.Background(), &structs.AllocUpdateRequest{
				Alloc: []*structs.Allocation{update(allocs[0], structs.AllocClientStatusFailed)}}, &reply)
		}()
		synctest.Wait()
		clk.Add(syncpolicy.CommitWindow)
		must.NoError(t, <-done)
		evs := s.EvalRecords()
		must.SliceLen(t, 1, evs)
		ev := evs[0]
		must.EqOp(t, s.Evals()[0].ID, ev.ID)
		must.EqOp(t, records.EvalTriggerAllocFailure, ev.TriggeredBy)
		must.EqOp(t, structs.JobTypeBatch, ev.Type)
		must.EqOp(t, s.Index(), ev.CreateIndex)
		must.EqOp(t, t0.Add(syncpolicy.CommitWindow).UnixNano(), ev.CreateTime)
	})
}
