package server

import (
	"testing"

	"github.com/allocsim/allocsim/model/structs"
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
	shareReceived(cur, prev)
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
	shareReceived(cur, prev)
	if len(cur.TaskStates) != 2 || cur.TaskStates["web"] != prev.TaskStates["web"] {
		t.Fatalf("got %v", cur.TaskStates)
	}
	cur2 := &structs.AllocState{TaskStates: map[string]*structs.TaskState{"web": {State: "running"}, "other": nil}}
	shareReceived(cur2, prev)
	if _, ok := cur2.TaskStates["other"]; !ok {
		t.Fatalf("a map with another key was replaced by the previous one: %v", cur2.TaskStates)
	}
	cur3 := &structs.AllocState{TaskStates: map[string]*structs.TaskState{}}
	shareReceived(cur3, &structs.AllocState{})
	if cur3.TaskStates == nil {
		t.Fatalf("an empty map became nil")
	}
}
