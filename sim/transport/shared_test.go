package transport

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

// allocServer answers every alloc fetch with the same stored allocs, as
// the simulated server does (never changing them).
type allocServer struct{ allocs []*structs.Allocation }

func (s allocServer) Call(_ context.Context, _ string, _, reply any) error {
	r := reply.(*structs.AllocsGetResponse)
	r.Index = 3
	r.Allocs = append([]*structs.Allocation(nil), s.allocs...)
	return nil
}

// TestSharedReply: RPCSharedReply hands the caller the server's allocs
// themselves, traced as a copied reply is; RPCContext copies them. A
// caller that changes a sampled shared reply is reported at the next
// shared reply (or VerifyShared), one that changes its own top-level
// reply is not, and an unsampled reply is not checked.
func TestSharedReply(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// An int in the job's Config: a wire copy makes it a float64, the
		// typed comparison declines, and the second copy finds the reply
		// unchanged.
		job := &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g",
			Tasks: []*structs.Task{{Name: "web", Config: map[string]any{"n": 1}}}}}}
		stored := &structs.Allocation{ID: "a1", ClientStatus: "running", Job: job, TaskStates: map[string]*structs.TaskState{
			"web": {State: "running", Events: []*structs.TaskEvent{{Type: "Started", Details: map[string]string{}}}}}}
		var changed []string
		var shared, copied trace.Recorder
		netFor := func(rec *trace.Recorder) *Network {
			n, err := New(Config{Clock: vclock.New(t0), Server: allocServer{[]*structs.Allocation{stored}}, Trace: rec,
				SharedChanged: func(msg string) { changed = append(changed, msg) }})
			must.NoError(t, err)
			return n
		}
		sn, cn := netFor(&shared), netFor(&copied)
		sc, cc := sn.Dial("n1"), cn.Dial("n1")
		pull := func(call func(context.Context, string, any, any) error) *structs.AllocsGetResponse {
			var r structs.AllocsGetResponse
			must.NoError(t, call(context.Background(), structs.RPCAllocGetAllocs, &structs.AllocsGetRequest{AllocIDs: []string{"a1"}}, &r))
			return &r
		}
		r := pull(sc.RPCSharedReply)
		must.True(t, r.Allocs[0] == stored, must.Sprint("a shared reply is the server's alloc"))
		c := pull(cc.RPCContext)
		must.True(t, c.Allocs[0] != stored)
		must.Eq(t, copied.Records(), shared.Records())

		r.Allocs = nil // the caller's own reply value: not the server's
		pull(sc.RPCSharedReply)
		must.SliceEmpty(t, changed)

		// Replies 2 to 8 are not sampled; the 9th is.
		for range 6 {
			pull(sc.RPCSharedReply)
		}
		ninth := pull(sc.RPCSharedReply)
		ninth.Allocs[0].TaskStates["web"].Events[0].Details["x"] = "y"
		sn.VerifyShared()
		must.SliceLen(t, 1, changed)
		must.StrContains(t, changed[0], "the client changed a reply of Alloc.GetAllocs it had asked to share")
		sn.VerifyShared() // reported once
		must.SliceLen(t, 1, changed)
		delete(ninth.Allocs[0].TaskStates["web"].Events[0].Details, "x")

		// A change to the job is found too.
		for range 7 {
			pull(sc.RPCSharedReply)
		}
		seventeenth := pull(sc.RPCSharedReply)
		seventeenth.Allocs[0].Job.TaskGroups[0].Tasks[0].Config["n"] = 2
		sn.VerifyShared()
		must.SliceLen(t, 2, changed)
	})
}

// TestSameJSONReply: the typed comparison of an alloc fetch with its wire
// copy: alike when unchanged, different after a change, and declining
// (false, for the second copy to decide) on a Config int, which the copy
// turned into a float64.
func TestSameJSONReply(t *testing.T) {
	reply := func(cfg any) *structs.AllocsGetResponse {
		job := &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g", Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"k": cfg}}}}}}
		return &structs.AllocsGetResponse{Index: 3, Allocs: []*structs.Allocation{{ID: "a", Job: job,
			TaskStates: map[string]*structs.TaskState{"t": {State: "running", Events: []*structs.TaskEvent{{Type: "Started", Details: map[string]string{}}}}}}}}
	}
	r := reply("1s")
	snap, ok := wireSnapshot(r)
	must.True(t, ok)
	must.True(t, sameJSONReply(r, snap))
	r.Allocs[0].TaskStates["t"].State = "dead"
	must.False(t, sameJSONReply(r, snap))
	r = reply(1)
	snap, _ = wireSnapshot(r)
	must.False(t, sameJSONReply(r, snap))
	must.False(t, sameJSONReply(&structs.GenericResponse{}, snap))
}
