package apiscenario

import (
	"fmt"
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// fakeServer holds allocs for Labels.
type fakeServer []*structs.Allocation

func (s fakeServer) Allocs() []*structs.Allocation { return s }

func (s fakeServer) AllocByName(name string) *structs.Allocation {
	for _, a := range s {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func TestLabelsRedact(t *testing.T) {
	const (
		node  = "11111111-1111-1111-1111-111111111111"
		alloc = "22222222-2222-2222-2222-222222222222"
		eval  = "33333333-3333-3333-3333-333333333333"
	)
	srv := fakeServer{{ID: alloc, Name: "web.g[0]"}}
	var l Labels
	in := eval + " " + alloc + " " + node + " " + nilUUID + " " + eval
	want := "<id1> <web.g[0]> <node> " + nilUUID + " <id1>"
	if got := l.Redact(in, node, srv); got != want {
		t.Errorf("Redact(%q) = %q, want %q", in, got, want)
	}
	for ref, want := range map[string]string{"web.g[0]": alloc, "<id1>": eval, "<node>": node, "other": "other"} {
		if got := l.AllocID(ref, srv); got != want {
			t.Errorf("AllocID(%q) = %q, want %q", ref, got, want)
		}
	}
	// A second alloc of the same name (a new incarnation) gets a number.
	srv = append(srv, &structs.Allocation{ID: eval[:35] + "4", Name: "web.g[0]"})
	if got, want := l.Redact(srv[1].ID, node, srv), "<web.g[0]#2>"; got != want {
		t.Errorf("Redact(second web.g[0]) = %q, want %q", got, want)
	}
}

func TestPromSeries(t *testing.T) {
	text := `# TYPE nomad_hook_ms summary
nomad_client_hook_ms{alloc="a",hook_name="b"} 2
nomad_client_hook_ms{alloc="a",hook_name="a"} 1
nomad_client_hook_ms{alloc="a",hook_name="a"} 3
nomad_client_other{alloc="a"} 9`
	want := `labels {alloc="a"}
nomad_client_hook_ms a 1
nomad_client_hook_ms a 3
nomad_client_hook_ms b 2
nomad_client_hook_ms a: a second series`
	if got := PromSeries(text, "_ms"); got != want {
		t.Errorf("PromSeries(_ms) =\n%s\nwant\n%s", got, want)
	}
	if got := PromSeries(text, "_none"); got != "none" {
		t.Errorf("PromSeries(_none) = %q, want none", got)
	}
}

func TestEventLogUnseen(t *testing.T) {
	ev := func(ns int64, typ string) *api.TaskEvent {
		return &api.TaskEvent{Time: ns, Type: typ, DisplayMessage: "m"}
	}
	states := map[string]*api.TaskState{"t": {Events: []*api.TaskEvent{ev(1, "Received"), ev(2, "Started")}}}
	timed := EventLog{At: func(ns int64) string { return fmt.Sprintf("@%d", ns) }}
	if got, want := timed.Unseen("a", states, ""), "t @1 Received m\nt @2 Started m"; got != want {
		t.Errorf("Unseen with At = %q, want %q", got, want)
	}
	var l EventLog
	if got, want := l.Unseen("a", states, ""), "t Received m\nt Started m"; got != want {
		t.Errorf("first Unseen = %q, want %q", got, want)
	}
	if got, want := l.Unseen("a", states, "t"), "no new events"; got != want {
		t.Errorf("second Unseen = %q, want %q", got, want)
	}
	// The client dropped the oldest event; a later one with the same line
	// but another time is new.
	states["t"].Events = []*api.TaskEvent{ev(2, "Started"), ev(3, "Restarting"), ev(12, "Started")}
	if got, want := l.Unseen("a", states, "t"), "t Restarting m\nt Started m"; got != want {
		t.Errorf("third Unseen = %q, want %q", got, want)
	}
}
