package linearizability

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
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
		return []trace.Record{rec(from, trace.KindRPC, "", "", structs.RPCNodeGetClientAllocs, "send", nil),
			rec(to, trace.KindRPC, "", "", structs.RPCNodeGetClientAllocs, "reply", map[string]any{"allocs": []map[string]string{{"id": "a1", "client_status": status}}})}
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
