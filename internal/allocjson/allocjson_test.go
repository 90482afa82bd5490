package allocjson

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// genJSONText draws strings of every kind the hand encoder must tell
// apart: plain ASCII, escapes included (written by hand), and ones with characters JSON
// escapes, HTML characters, non-ASCII and invalid UTF-8 (json.Marshal's).
func genJSONText(plain bool) *rapid.Generator[string] {
	if plain {
		return rapid.StringMatching(`[ -~\n\r\t]{0,12}`)
	}
	return rapid.OneOf(
		rapid.StringMatching(`[ -~]{0,12}`),
		rapid.StringMatching(`[a-z ]{0,8}`),
		rapid.String(),
		rapid.Custom(func(t *rapid.T) string { return string(rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(t, "bytes")) }),
		rapid.SampledFrom([]string{"", "<b>", "a&b", `"q"`, `\`, "\u2028", "\x7f", "é", "\xff", "\t\n"}),
	)
}

// genJSONTime draws zero, UTC, zoned and out-of-range times (MarshalJSON
// rejects years past 9999).
func genJSONTime() *rapid.Generator[time.Time] {
	zones := []*time.Location{time.UTC, time.FixedZone("x", 3600), time.FixedZone("odd", -(5*3600 + 30*60 + 17))}
	return rapid.OneOf(
		rapid.Just(time.Time{}),
		rapid.Custom(func(t *rapid.T) time.Time {
			at := time.Unix(0, rapid.Int64().Draw(t, "ns"))
			return at.In(rapid.SampledFrom(zones).Draw(t, "zone"))
		}),
		rapid.Just(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)),
	)
}

func genJSONEvent(plain bool) *rapid.Generator[*structs.TaskEvent] {
	return rapid.OneOf(rapid.Just[*structs.TaskEvent](nil), rapid.Custom(func(t *rapid.T) *structs.TaskEvent {
		s := func(label string) string { return genJSONText(plain).Draw(t, label) }
		return &structs.TaskEvent{
			Type: s("type"), Time: rapid.Int64().Draw(t, "time"), Message: s("message"), DisplayMessage: s("display"),
			Details: rapid.OneOf(rapid.Just[map[string]string](nil),
				rapid.MapOfN(genJSONText(plain), genJSONText(plain), 0, 10)).Draw(t, "details"),
			FailsTask: rapid.Bool().Draw(t, "fails"), RestartReason: s("restart"), SetupError: s("setup"),
			DriverError: s("driver"), ExitCode: rapid.Int().Draw(t, "exit"), Signal: rapid.Int().Draw(t, "signal"),
			KillReason: s("kill"), KillTimeout: time.Duration(rapid.Int64().Draw(t, "kill_timeout")),
			KillError: s("kill_error"), StartDelay: rapid.Int64().Draw(t, "delay"), FailedSibling: s("sibling"),
			TaskSignal: s("signal_name"), TaskSignalReason: s("signal_reason"), ValidationError: s("validation"),
		}
	}))
}

func genJSONTaskState(plain bool) *rapid.Generator[*structs.TaskState] {
	return rapid.OneOf(rapid.Just[*structs.TaskState](nil), rapid.Custom(func(t *rapid.T) *structs.TaskState {
		return &structs.TaskState{
			State: genJSONText(plain).Draw(t, "state"), Failed: rapid.Bool().Draw(t, "failed"),
			Restarts: rapid.Uint64().Draw(t, "restarts"), LastRestart: genJSONTime().Draw(t, "last"),
			StartedAt: genJSONTime().Draw(t, "started"), FinishedAt: genJSONTime().Draw(t, "finished"),
			Events: rapid.OneOf(rapid.Just[[]*structs.TaskEvent](nil),
				rapid.SliceOfN(genJSONEvent(plain), 0, 4)).Draw(t, "events"),
			Paused: structs.TaskScheduleState(genJSONText(plain).Draw(t, "paused")),
		}
	}))
}

func genJSONAllocState(plain bool) *rapid.Generator[*structs.AllocState] {
	return rapid.OneOf(rapid.Just[*structs.AllocState](nil), rapid.Custom(func(t *rapid.T) *structs.AllocState {
		s := &structs.AllocState{
			ClientStatus: genJSONText(plain).Draw(t, "status"), ClientDescription: genJSONText(plain).Draw(t, "desc"),
			TaskStates: rapid.OneOf(rapid.Just[map[string]*structs.TaskState](nil),
				rapid.MapOfN(genJSONText(plain), genJSONTaskState(plain), 0, 3)).Draw(t, "states"),
		}
		if rapid.Bool().Draw(t, "deploy") {
			healthy := rapid.Bool().Draw(t, "healthy")
			s.DeploymentStatus = &structs.AllocDeploymentStatus{Healthy: &healthy, Timestamp: genJSONTime().Draw(t, "at"),
				Canary: rapid.Bool().Draw(t, "canary"), ModifyIndex: rapid.Uint64().Draw(t, "index")}
		}
		if rapid.Bool().Draw(t, "network") {
			s.NetworkStatus = &structs.AllocNetworkStatus{InterfaceName: genJSONText(plain).Draw(t, "iface"), Address: genJSONText(plain).Draw(t, "addr")}
		}
		return s
	}))
}

func genJSONAlloc(plain bool) *rapid.Generator[*structs.Allocation] {
	return rapid.OneOf(rapid.Just[*structs.Allocation](nil), rapid.Custom(func(t *rapid.T) *structs.Allocation {
		s := func(label string) string { return genJSONText(plain).Draw(t, label) }
		st := genJSONAllocState(plain).Draw(t, "state")
		if st == nil {
			st = &structs.AllocState{}
		}
		a := &structs.Allocation{
			ID: s("id"), Name: s("name"), NodeID: s("node"), Namespace: s("ns"), JobID: s("job_id"), TaskGroup: s("group"),
			DesiredStatus: s("desired"), ClientStatus: st.ClientStatus, ClientDescription: st.ClientDescription,
			TaskStates: st.TaskStates, DeploymentStatus: st.DeploymentStatus, NetworkStatus: st.NetworkStatus,
			CreateIndex: rapid.Uint64().Draw(t, "create"), ModifyIndex: rapid.Uint64().Draw(t, "modify"),
			AllocModifyIndex: rapid.Uint64().Draw(t, "alloc_modify"), CreateTime: rapid.Int64().Draw(t, "created"),
			ModifyTime: rapid.Int64().Draw(t, "modified"),
		}
		if rapid.Bool().Draw(t, "has_job") {
			a.Job = &structs.Job{ID: s("job"), Name: s("job_name"), Namespace: s("job_ns"), Type: "service",
				TaskGroups: []*structs.TaskGroup{{Name: s("tg"), Count: rapid.IntRange(0, 3).Draw(t, "count"),
					Tasks: []*structs.Task{{Name: s("task"), Driver: "mock_driver", Config: map[string]any{"run_for": s("run_for")}}}}}}
		}
		return a
	}))
}

// TestHandEncodingIsMarshal: the hand encoders of the task and
// acknowledged states and of allocs (given their job's bytes) give
// json.Marshal's bytes, or its error, for every value.
func TestHandEncodingIsMarshal(t *testing.T) {
	same := func(t *rapid.T, got []byte, gotErr error, v any) {
		want, wantErr := json.Marshal(v)
		if (gotErr == nil) != (wantErr == nil) || string(got) != string(want) {
			t.Fatalf("hand encoding:\n got %s (%v)\nwant %s (%v)", got, gotErr, want, wantErr)
		}
	}
	for _, plain := range []bool{true, false} {
		t.Run(fmt.Sprintf("task state, plain strings %v", plain), rapid.MakeCheck(func(t *rapid.T) {
			ts := genJSONTaskState(plain).Draw(t, "ts")
			got, err := AppendTaskState([]byte(prefix), "a1", "web", ts, nil, nil)
			same(t, afterPrefix(t, got), err, ts)
		}))
		t.Run(fmt.Sprintf("alloc, plain strings %v", plain), rapid.MakeCheck(func(t *rapid.T) {
			a := genJSONAlloc(plain).Draw(t, "a")
			var job []byte
			if a != nil {
				var err error
				if job, err = json.Marshal(a.Job); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Alloc(a, job, nil)
			same(t, got, err, a)
		}))
		t.Run(fmt.Sprintf("alloc list length, plain strings %v", plain), rapid.MakeCheck(func(t *rapid.T) {
			var allocs []*structs.Allocation
			if rapid.Bool().Draw(t, "non-nil") {
				allocs = rapid.SliceOfN(genJSONAlloc(plain), 0, 3).Draw(t, "allocs")
			}
			got, err := ListLen(allocs)
			want, wantErr := json.Marshal(allocs)
			if (err == nil) != (wantErr == nil) || err == nil && got != len(want) {
				t.Fatalf("ListLen = %d (%v), want %d (%v) for %s", got, err, len(want), wantErr, want)
			}
		}))
		t.Run(fmt.Sprintf("alloc state, plain strings %v", plain), rapid.MakeCheck(func(t *rapid.T) {
			s := genJSONAllocState(plain).Draw(t, "s")
			got, err := AppendAllocState([]byte(prefix), "a1", s, nil)
			same(t, afterPrefix(t, got), err, s)
		}))
		t.Run(fmt.Sprintf("local state, plain strings %v", plain), rapid.MakeCheck(func(t *rapid.T) {
			ls := genJSONLocalState(plain).Draw(t, "ls")
			got, err := AppendLocalState([]byte(prefix), ls)
			same(t, afterPrefix(t, got), err, ls)
		}))
	}
	t.Run("plain values take the hand path", func(t *testing.T) {
		ev := structs.NewTaskEvent(structs.TaskStarted, time.Unix(1, 2)).SetMessage("started ok")
		ts := &structs.TaskState{State: structs.TaskStateRunning, StartedAt: time.Unix(5, 0).UTC(), Events: []*structs.TaskEvent{ev, nil}}
		if _, ok := appendTaskState(nil, "web", ts, reuser{}, nil); !ok {
			t.Fatal("a plain task state fell back to json.Marshal")
		}
		if _, ok := appendAllocState(nil, &structs.AllocState{ClientStatus: "running", TaskStates: map[string]*structs.TaskState{"web": ts}}, reuser{}); !ok {
			t.Fatal("a plain alloc state fell back to json.Marshal")
		}
		if _, ok := appendAlloc(nil, &structs.Allocation{ID: "a1", ClientStatus: "running", TaskStates: map[string]*structs.TaskState{"web": ts}}, []byte("null"), reuser{}); !ok {
			t.Fatal("a plain alloc fell back to json.Marshal")
		}
		ls := &interfaces.LocalState{
			Hooks:         map[string]*interfaces.HookState{"task_dir": {PrestartDone: true, Env: map[string]string{"A": "1"}}},
			DriverNetwork: &interfaces.DriverNetwork{PortMap: map[string]int{"http": 8080, "db": -1}, IP: "10.0.0.1"},
			TaskHandle:    &drivers.TaskHandle{Version: 1, Driver: "mock_driver", TaskID: "a1/web", DriverState: []byte{0, 1, 0xfe, 0xff}},
		}
		if _, ok := appendLocalState(nil, ls); !ok {
			t.Fatal("a plain local state fell back to json.Marshal")
		}
	})
}

// prefix is what the Append encoders are given to append to.
const prefix = "prefix:"

// afterPrefix is got without prefix, which must start it.
func afterPrefix(t *rapid.T, got []byte) []byte {
	if string(got[:min(len(got), len(prefix))]) != prefix {
		t.Fatalf("appended to %q, want to %q", got, prefix)
	}
	return got[len(prefix):]
}

// TestLocalStateIsJSONMarshal: the hand encoding of a local state is
// byte for byte json.Marshal's, the fallbacks included.
func TestLocalStateIsJSONMarshal(t *testing.T) {
	cases := []*interfaces.LocalState{
		nil,
		{},
		interfaces.NewLocalState(),
		{Hooks: map[string]*interfaces.HookState{
			"task_dir": {PrestartDone: true, Data: map[string]string{"b": "2", "a": "1"}, Env: map[string]string{}},
			"volumes":  nil,
			"<html>&":  {Data: map[string]string{"k": "é\n\"quoted\""}},
		}, RunComplete: true},
		{Hooks: map[string]*interfaces.HookState{"x": {Env: map[string]string{"PATH": "/bin"}}},
			DriverNetwork: &interfaces.DriverNetwork{}, TaskHandle: &drivers.TaskHandle{Version: 1, DriverState: []byte{}}},
	}
	for i, ls := range cases {
		got, err := AppendLocalState([]byte(prefix), ls)
		must.NoError(t, err)
		must.StrHasPrefix(t, prefix, string(got))
		got = got[len(prefix):]
		want, err := json.Marshal(ls)
		must.NoError(t, err)
		must.Eq(t, string(want), string(got), must.Sprintf("case %d", i))
	}
}

// knownEncodings is a Reuse and a Lender over task states encoded
// before, each with the spans of its events.
type knownEncodings struct {
	states map[*structs.TaskState][]byte
	events map[*structs.TaskEvent][]byte
}

func (k knownEncodings) AppendTaskState(b []byte, _, _ string, ts *structs.TaskState) ([]byte, bool) {
	enc, ok := k.states[ts]
	return append(b, enc...), ok
}

func (k knownEncodings) AppendEvent(b []byte, _, _ string, e *structs.TaskEvent) ([]byte, bool) {
	enc, ok := k.events[e]
	return append(b, enc...), ok
}

func (k knownEncodings) TaskStateEnc(_, _ string, ts *structs.TaskState) []byte { return k.states[ts] }

func (k knownEncodings) EventEnc(_, _ string, e *structs.TaskEvent) []byte { return k.events[e] }

// lent reports whether every ref is, in memory, one of k's encodings or
// job's bytes.
func (k knownEncodings) lent(refs []Ref, job []byte) bool {
	for _, r := range refs {
		ok := len(r.Enc) > 0 && len(job) > 0 && &r.Enc[0] == &job[0]
		for _, enc := range k.states {
			ok = ok || len(enc) > 0 && len(r.Enc) > 0 && &r.Enc[0] == &enc[0]
		}
		for _, enc := range k.events {
			ok = ok || len(enc) > 0 && len(r.Enc) > 0 && &r.Enc[0] == &enc[0]
		}
		if !ok {
			return false
		}
	}
	return true
}

// TestReuseIsMarshal: what an encoder copies from a Reuse leaves its
// bytes json.Marshal's: a task state sharing some events with one
// encoded before (its spans offered back), and alloc states and allocs
// holding that very task state. Each span is its event's encoding.
func TestReuseIsMarshal(t *testing.T) {
	for _, plain := range []bool{true, false} {
		t.Run(fmt.Sprintf("plain strings %v", plain), rapid.MakeCheck(func(t *rapid.T) {
			first := genJSONTaskState(plain).Draw(t, "first")
			var spans []EventSpan
			enc, err := AppendTaskState([]byte(prefix), "a1", "web", first, nil, &spans)
			if err != nil {
				t.Skip("unencodable")
			}
			k := knownEncodings{states: map[*structs.TaskState][]byte{}, events: map[*structs.TaskEvent][]byte{}}
			k.states[first] = enc[len(prefix):]
			for _, sp := range spans {
				want, _ := json.Marshal(sp.Event)
				if got := enc[sp.Start:sp.End]; string(got) != string(want) {
					t.Fatalf("span of event %v = %s, want %s", sp.Event, got, want)
				}
				k.events[sp.Event] = enc[sp.Start:sp.End]
			}
			if first != nil && len(spans) != 0 && len(spans) != len(first.Events) {
				t.Fatalf("%d spans for %d events", len(spans), len(first.Events))
			}
			// The next state: some of first's events, in order, then new ones.
			next := genJSONTaskState(plain).Draw(t, "next")
			if next != nil && first != nil && first.Events != nil {
				keep := rapid.IntRange(0, len(first.Events)).Draw(t, "keep")
				next.Events = append(slices.Clone(first.Events[len(first.Events)-keep:]), next.Events...)
			}
			got, err := AppendTaskState([]byte(prefix), "a1", "web", next, k, nil)
			if want, wantErr := json.Marshal(next); (err == nil) != (wantErr == nil) || string(afterPrefix(t, got)) != string(want) {
				t.Fatalf("reusing:\n got %s (%v)\nwant %s (%v)", afterPrefix(t, got), err, want, wantErr)
			}
			s := &structs.AllocState{ClientStatus: "running", TaskStates: map[string]*structs.TaskState{"web": first, "db": next}}
			gotState, err := AppendAllocState(nil, "a1", s, k)
			want, wantErr := json.Marshal(s)
			if (err == nil) != (wantErr == nil) || string(gotState) != string(want) {
				t.Fatalf("alloc state reusing:\n got %s (%v)\nwant %s (%v)", gotState, err, want, wantErr)
			}
			// The same as ropes: what they reference is k's own memory,
			// and the splice is json.Marshal's bytes.
			refs := []Ref{{At: 0, Enc: []byte("x")}} // kept: the refs are appended
			flat, err := AppendAllocStateRefs([]byte(prefix), "a1", s, k, &refs)
			if got := Splice(nil, flat, refs[1:]); (err == nil) != (wantErr == nil) || err == nil && string(afterPrefix(t, got)) != string(want) {
				t.Fatalf("alloc state rope:\n got %s (%v)\nwant %s (%v)", got, err, want, wantErr)
			}
			if !k.lent(refs[1:], nil) {
				t.Fatal("an alloc state rope references bytes that are not the lender's")
			}
			a := genJSONAlloc(plain).Draw(t, "a")
			if a == nil {
				return
			}
			a.TaskStates = s.TaskStates
			job, err := json.Marshal(a.Job)
			if err != nil {
				t.Skip("unencodable job")
			}
			flat, refs, err = AllocRefs(a, job, k)
			want, wantErr = json.Marshal(a)
			if got := Splice(nil, flat, refs); (err == nil) != (wantErr == nil) || err == nil && string(got) != string(want) {
				t.Fatalf("alloc rope:\n got %s (%v)\nwant %s (%v)", got, err, want, wantErr)
			}
			if plain && err == nil && len(refs) == 0 {
				t.Fatal("an alloc of plain strings written with no refs (its job's bytes are one)")
			}
			if RopeLen(flat, refs) != len(want) || !k.lent(refs, job) {
				t.Fatalf("alloc rope of %d bytes (want %d), or referencing bytes not lent", RopeLen(flat, refs), len(want))
			}
		}))
	}
}
