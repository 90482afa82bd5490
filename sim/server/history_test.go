package server

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

func event(typ string, at int64, details map[string]string) *structs.TaskEvent {
	return &structs.TaskEvent{Type: typ, Time: at, Details: details}
}

// TestShareReceivedKeepsValues: sharing with the previous state never
// changes what a state encodes, shares what encodes alike, and nothing
// else.
func TestShareReceivedKeepsValues(t *testing.T) {
	prev := &structs.AllocState{ClientStatus: "running", TaskStates: map[string]*structs.TaskState{
		"web":    {State: "running", Events: []*structs.TaskEvent{event("Received", 1, map[string]string{}), event("Started", 2, map[string]string{})}},
		"worker": {State: "running", Events: []*structs.TaskEvent{event("Received", 1, map[string]string{}), event("Started", 3, map[string]string{})}},
	}}
	cur := &structs.AllocState{ClientStatus: "running", TaskStates: map[string]*structs.TaskState{
		"web": {State: "running", Events: []*structs.TaskEvent{event("Received", 1, map[string]string{}), event("Started", 2, map[string]string{})}},
		"worker": {State: "dead", Events: []*structs.TaskEvent{
			event("Received", 1, map[string]string{}), event("Started", 3, map[string]string{"x": "1"}), event("Terminated", 4, map[string]string{"exit_code": "0"}),
		}},
	}}
	want := cur.Copy()
	shareReceived(cur, prev.TaskStates)
	if !(&structs.Allocation{TaskStates: cur.TaskStates}).SameJSON(&structs.Allocation{TaskStates: want.TaskStates}) {
		t.Fatalf("shareReceived changed the state: got %+v, want %+v", cur.TaskStates, want.TaskStates)
	}
	if cur.TaskStates["web"] != prev.TaskStates["web"] {
		t.Errorf("an unchanged task state is not shared")
	}
	w, pw := cur.TaskStates["worker"], prev.TaskStates["worker"]
	if w == pw {
		t.Fatalf("a changed task state is shared")
	}
	if w.Events[0] != pw.Events[0] {
		t.Errorf("an unchanged event of a changed task state is not shared")
	}
	if w.Events[1] == pw.Events[1] || w.Events[2] == nil {
		t.Errorf("a changed or new event is shared")
	}
}

// TestShareReceivedSharesAWholeMap: when no task state changed, the map
// itself is the previous one.
func TestShareReceivedSharesAWholeMap(t *testing.T) {
	prev := &structs.AllocState{TaskStates: map[string]*structs.TaskState{"web": {State: "running"}, "gone": nil}}
	cur := &structs.AllocState{TaskStates: map[string]*structs.TaskState{"web": {State: "running"}, "gone": nil}}
	shareReceived(cur, prev.TaskStates)
	if len(cur.TaskStates) != 2 || cur.TaskStates["web"] != prev.TaskStates["web"] {
		t.Fatalf("got %v", cur.TaskStates)
	}
	cur2 := &structs.AllocState{TaskStates: map[string]*structs.TaskState{"web": {State: "running"}, "other": nil}}
	shareReceived(cur2, prev.TaskStates)
	if _, ok := cur2.TaskStates["other"]; !ok {
		t.Fatalf("a map with another key was replaced by the previous one: %v", cur2.TaskStates)
	}
	cur3 := &structs.AllocState{TaskStates: map[string]*structs.TaskState{}}
	shareReceived(cur3, nil)
	if cur3.TaskStates == nil {
		t.Fatalf("an empty map became nil")
	}
}

// TestDiscardHistory: a server configured without history stores every
// update as one with it does, shares an unchanged task state with the
// stored one all the same, and lists no history.
func TestDiscardHistory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, err := New(Config{Clock: clk, Rand: seeds.Stream(1, "server"), DiscardHistory: true})
		must.NoError(t, err)
		must.NoError(t, s.RegisterNode(nodeID, syncpolicy.NodeStatusReady))
		allocs, err := s.RegisterJob(job("web", 1))
		must.NoError(t, err)
		send := func(status string) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				var reply structs.GenericResponse
				must.NoError(t, s.UpdateAlloc(context.Background(),
					&structs.AllocUpdateRequest{Alloc: []*structs.Allocation{update(allocs[0], status)}}, &reply))
			}()
			synctest.Wait()
			clk.Add(syncpolicy.CommitWindow)
			<-done
		}
		send(structs.AllocClientStatusRunning)
		first := s.SharedAlloc(allocs[0].ID)
		send(structs.AllocClientStatusComplete)
		second := s.SharedAlloc(allocs[0].ID)
		must.EqOp(t, structs.AllocClientStatusComplete, second.ClientStatus)
		must.EqOp(t, 2, s.Stats().AllocUpdates)
		must.True(t, first.TaskStates["t"] == second.TaskStates["t"], must.Sprint("an unchanged task state is the stored one"))
		must.SliceEmpty(t, s.History(allocs[0].ID, 0))
	})
}
