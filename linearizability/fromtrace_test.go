package linearizability

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/shoenig/test/must"
)

var t0 = time.Date(2024, 6, 14, 8, 55, 0, 0, time.UTC)

func rec(sec float64, kind trace.Kind, alloc, task, op, msg string, data any) trace.Record {
	r := trace.Record{At: t0.Add(time.Duration(sec * float64(time.Second))), Kind: kind, Alloc: alloc, Task: task, Op: op, Msg: msg}
	if data != nil {
		b, _ := json.Marshal(data)
		r.Data = b
	}
	return r
}

type fixedVolumes struct{ group, task []string }

func (f fixedVolumes) GroupAliases(string) []string        { return f.group }
func (f fixedVolumes) TaskAliases(string, string) []string { return f.task }

func missingEvent(sec float64, alias string) trace.Record {
	return rec(sec, trace.KindTaskEvent, "a1", "t1", "", structs.TaskHookFailed, map[string]any{
		"time":    t0.Add(time.Duration(sec * float64(time.Second))).Format(trace.TimeFormat),
		"message": "volumes: No CSI Mount Point found for volume: " + alias,
	})
}

func TestHookResourcesFromTrace(t *testing.T) {
	vols := fixedVolumes{group: []string{"v1", "v2"}, task: []string{"v1", "v2"}}
	start := rec(0, trace.KindWorld, "", "", "", "client_start", map[string]int{"incarnation": 1})
	restart := rec(10, trace.KindWorld, "", "", "", "client_start", map[string]int{"incarnation": 2})
	mount := func(sec float64, alias string) trace.Record {
		return rec(sec, trace.KindPort, "a1", alias, trace.PortCSIMount, "ok", map[string]int{"incarnation": 1})
	}
	cases := []struct {
		name    string
		recs    []trace.Record
		parts   int
		verdict Verdict
	}{
		{"empty read, then every mount, then a start", []trace.Record{start, missingEvent(1, "v1"), mount(2, "v1"), mount(3, "v2"),
			rec(4, trace.KindDriver, "a1", "t1", "StartTask", "", nil)}, 1, Ok},
		{"a partial read (v1 present, v2 missing)", []trace.Record{start, mount(2, "v1"), missingEvent(2.5, "v2"), mount(3, "v2")}, 1, Illegal},
		{"a start with no write", []trace.Record{start, rec(4, trace.KindDriver, "a1", "t1", "StartTask", "", nil)}, 1, Illegal},
		{"a new incarnation starts empty", []trace.Record{start, mount(2, "v1"), mount(3, "v2"), rec(4, trace.KindDriver, "a1", "t1", "StartTask", "", nil),
			restart, missingEvent(11, "v1")}, 2, Ok},
		{"an earlier incarnation's restored event is not a read", []trace.Record{start, mount(2, "v1"), mount(3, "v2"), restart, missingEvent(3, "v2")}, 1, Ok},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parts, _ := HookResourcesFromTrace(tc.recs, t0, vols)
			if len(parts) != tc.parts {
				t.Fatalf("partitions %d, want %d: %+v", len(parts), tc.parts, parts)
			}
			res, err := CheckHookResources(parts, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.verdict {
				t.Errorf("verdict %v, want %v: %s", res.Verdict, tc.verdict, res)
			}
		})
	}
}

func TestServerViewFromTrace(t *testing.T) {
	send := func(sec float64, status string) trace.Record {
		return rec(sec, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "send", map[string]any{"allocs": []map[string]string{{"id": "a1", "client_status": status}}})
	}
	reply := func(sec float64) trace.Record {
		return rec(sec, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "reply", nil)
	}
	fail := func(sec float64) trace.Record {
		return rec(sec, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "fail", nil)
	}
	pull := func(from, to float64, status string) []trace.Record {
		return []trace.Record{rec(from, trace.KindRPC, "", "", structs.RPCAllocGetAllocs, "send", nil),
			rec(to, trace.KindRPC, "", "", structs.RPCAllocGetAllocs, "reply", map[string]any{"allocs": []map[string]string{{"id": "a1", "client_status": status}}})}
	}
	cat := func(rs ...any) []trace.Record {
		var out []trace.Record
		for _, r := range rs {
			switch x := r.(type) {
			case trace.Record:
				out = append(out, x)
			case []trace.Record:
				out = append(out, x...)
			}
		}
		return out
	}
	cases := []struct {
		name    string
		recs    []trace.Record
		verdict Verdict
	}{
		{"placed pending, stored running, read running", cat(pull(0, 0.1, "pending"), send(1, "running"), reply(1.1), pull(2, 2.1, "running")), Ok},
		{"a read after an acknowledged store sees the older value", cat(send(1, "running"), reply(1.1), pull(2, 2.1, "pending")), Illegal},
		{"a failed store may have landed", cat(send(1, "running"), fail(1.1), pull(2, 2.1, "running")), Ok},
		{"a failed store may not have landed", cat(send(1, "running"), fail(1.1), pull(2, 2.1, "pending")), Ok},
		{"a read of a value never stored", cat(send(1, "running"), reply(1.1), pull(2, 2.1, "failed")), Illegal},
		// A Node.GetClientAllocs reply is an index map: it reads no status.
		{"an index map reads nothing", cat(send(1, "running"), reply(1.1),
			rec(2, trace.KindRPC, "", "", structs.RPCNodeGetClientAllocs, "send", nil),
			rec(2.1, trace.KindRPC, "", "", structs.RPCNodeGetClientAllocs, "reply", map[string]any{"allocs": map[string]uint64{"a1": 1}, "index": 1}),
			pull(2.1, 2.2, "running")), Ok},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := CheckServerView(ServerViewFromTrace(tc.recs, t0), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.verdict {
				t.Errorf("verdict %v, want %v: %s", res.Verdict, tc.verdict, res)
			}
		})
	}
}

// updateCalls is a trace of n Node.UpdateAlloc calls of alloc a1's
// running status, each failing with failure, a pull between each two
// reading `pending`.
func updateCalls(n int, failure string) []trace.Record {
	var recs []trace.Record
	for i := range n {
		at := float64(10 * i)
		recs = append(recs,
			rec(at, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "send", map[string]any{"allocs": []map[string]string{{"id": "a1", "client_status": "running"}}}),
			rec(at+1, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "fail", map[string]string{"error": failure}),
			rec(at+2, trace.KindRPC, "", "", structs.RPCAllocGetAllocs, "send", nil),
			rec(at+3, trace.KindRPC, "", "", structs.RPCAllocGetAllocs, "reply", map[string]any{"allocs": []map[string]string{{"id": "a1", "client_status": "pending"}}}))
	}
	return recs
}

// stores counts the StoreState ops of parts.
func stores(parts []Partition) int {
	n := 0
	for _, p := range parts {
		for _, o := range p.Ops {
			if _, ok := o.Input.(StoreState); ok {
				n++
			}
		}
	}
	return n
}

// An update the server rejected (SYNC-4 validation) stored nothing: a
// runner whose every update is rejected, as one that sends no node ID,
// gives a trivial history (the placement and the reads), decided at once
// however long, rather than hundreds of uncertain stores.
func TestServerViewRejectedUpdatesAreLeftOut(t *testing.T) {
	const n = 2000
	for _, failure := range []string{"missing node ID", "node n1 not found", "node n1 is not allowed to update allocs while in status down", "evals field must not be set"} {
		t.Run(failure, func(t *testing.T) {
			parts := ServerViewFromTrace(updateCalls(n, failure), t0)
			must.SliceLen(t, 1, parts)
			must.SliceLen(t, n+1, parts[0].Ops, must.Sprint("the placement and the reads"))
			must.EqOp(t, 1, stores(parts), must.Sprint("only the placement"))
			res, err := CheckServerView(parts, Options{})
			must.NoError(t, err)
			must.EqOp(t, Ok, res.Verdict)
		})
	}
}

// The same history with failures of the network keeps its stores Open
// (each may have landed), but no read saw any of them: they are dropped
// before the search (dropUnreadOpenStores), which decides it at once.
func TestServerViewUnreadUncertainUpdatesAreDropped(t *testing.T) {
	const n = 300
	parts := ServerViewFromTrace(updateCalls(n, "rpc error: injected fault"), t0)
	must.EqOp(t, n+1, stores(parts))
	res, err := CheckServerView(parts, Options{})
	must.NoError(t, err)
	must.EqOp(t, Ok, res.Verdict)
}

// Uncertain stores that reads did see stay: here n of them in flight at
// once, the reads seeing each in turn and then the first again, which no
// order explains. Proving that means trying the subsets of the stores,
// and the budget ends the search: Unknown, naming the partition and its
// operations.
func TestServerViewUncertainUpdatesStopAtTheBudget(t *testing.T) {
	const n = 300
	var ops []Op
	for i := range n {
		ops = append(ops, Op{Client: i, Call: 0, Return: Open, Input: StoreState{Alloc: "a1", Value: fmt.Sprintf("s%d", i)}})
	}
	for i := range n + 1 {
		ops = append(ops, Op{Client: n + i, Call: int64(10 + 2*i), Return: int64(11 + 2*i), Input: ReadState{Alloc: "a1"},
			Output: StateSeen{Value: fmt.Sprintf("s%d", i%n)}})
	}
	res, err := CheckServerView([]Partition{{Key: "a1", Ops: ops}}, Options{})
	must.NoError(t, err)
	must.EqOp(t, Unknown, res.Verdict)
	must.EqOp(t, "a1", res.Key)
	must.EqOp(t, 2*n+1, res.Exhausted[0].Ops)
	must.StrContains(t, res.String(), fmt.Sprintf(`partition "a1": %d operations`, 2*n+1))
	must.StrContains(t, res.String(), "a limit of the suite, not a fault of the runner")
}

// Overlapping updates are left out only if every one of them was
// rejected: otherwise which failure is whose is not observable.
func TestServerViewOverlappingRejections(t *testing.T) {
	send := func(sec float64) trace.Record {
		return rec(sec, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "send", map[string]any{"allocs": []map[string]string{{"id": "a1", "client_status": "running"}}})
	}
	rejected := func(sec float64) trace.Record {
		return rec(sec, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "fail", map[string]string{"error": "missing node ID"})
	}
	reply := rec(3, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "reply", nil)
	lost := rec(3, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "fail", map[string]string{"error": "rpc error: injected fault"})
	crash := rec(2.5, trace.KindWorld, "", "", "", trace.MsgClientCrash, nil)
	cases := []struct {
		name   string
		recs   []trace.Record
		stores int // the placement included
	}{
		{"both rejected", []trace.Record{send(1), send(1.5), rejected(2), rejected(3)}, 1},
		{"one rejected, one acknowledged", []trace.Record{send(1), send(1.5), rejected(2), reply}, 3},
		{"one rejected, one lost", []trace.Record{send(1), send(1.5), rejected(2), lost}, 3},
		{"rejected after an acknowledged one", []trace.Record{send(0), rec(0.5, trace.KindRPC, "", "", structs.RPCNodeUpdateAlloc, "reply", nil), send(1), rejected(2)}, 2},
		{"cut by a crash", []trace.Record{send(1), send(1.5), rejected(2), crash}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.EqOp(t, tc.stores, stores(ServerViewFromTrace(tc.recs, t0)))
		})
	}
}

func TestMatchesFormat(t *testing.T) {
	for _, tc := range []struct {
		s, format string
		want      bool
	}{
		{"node n1 not found", "node %s not found", true},
		{"node  not found", "node %s not found", true},
		{"node not found", "node %s not found", false},
		{"a node n1 not found", "node %s not found", false},
		{"node n1 is not allowed to update allocs while in status down", "node %s is not allowed to update allocs while in status %s", true},
		{"node n1 is not allowed", "node %s is not allowed to update allocs while in status %s", false},
		{"missing node ID", "missing node ID", true},
	} {
		must.EqOp(t, tc.want, matchesFormat(tc.s, tc.format), must.Sprintf("%q against %q", tc.s, tc.format))
	}
}
