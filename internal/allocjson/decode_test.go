package allocjson

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// sameAsJSONMutated is sameAsJSON of b and of mutants of it.
func sameAsJSONMutated[T any](t *rapid.T, b []byte) {
	sameAsJSON[T](t, b)
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
	for range mutants {
		sameAsJSON[T](t, mutate(rng, b))
	}
}

// sameAsJSON fails t unless Unmarshal[T](data) returns what
// json.Unmarshal(data, &out) leaves in a nil out *T (deeply equal), and
// fails or succeeds with it, with the same message.
func sameAsJSON[T any](t interface{ Fatalf(string, ...any) }, data []byte) {
	got, gotErr := Unmarshal[T](data)
	var want *T
	wantErr := json.Unmarshal(data, &want)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("Unmarshal(%q):\n got %#v (%v)\nwant %#v (%v)", data, got, gotErr, want, wantErr)
	}
}

// mutate makes 1 to 4 random edits of b: a byte replaced by, or inserted
// as, one that matters to JSON, a byte deleted, a letter's case changed
// (keys match fields case-insensitively), a cut. rng is a PCG seeded by
// rapid, so that edits spread evenly (rapid favours small integers).
func mutate(rng *rand.Rand, b []byte) []byte {
	b = append([]byte(nil), b...)
	special := []byte("\"\\,:{}[] \t0123456789-+.eEntfalsurSTE\x00\x1f\x7f\x80\xc3\xff")
	for range 1 + rng.IntN(4) {
		if len(b) == 0 {
			break
		}
		i := rng.IntN(len(b))
		class := mutationClasses[rng.IntN(len(mutationClasses))]
		pick := func() byte { // a byte of the class half the time
			if rng.IntN(2) == 0 {
				return class.bytes[rng.IntN(len(class.bytes))]
			}
			return special[rng.IntN(len(special))]
		}
		if rng.IntN(4) > 0 {
			// Most edits go to a position of one class: a random one
			// rarely hits, say, a number's first digit.
			var at []int
			for j := range b {
				if class.at(b, j) {
					at = append(at, j)
				}
			}
			if len(at) > 0 {
				i = at[rng.IntN(len(at))]
			}
		}
		switch rng.IntN(5) {
		case 0:
			b[i] = pick()
		case 1:
			b = append(b[:i], append([]byte{pick()}, b[i:]...)...)
		case 2:
			b = append(b[:i], b[i+1:]...)
		case 3:
			if c := b[i]; c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
				b[i] ^= 0x20
			}
		case 4:
			b = b[:i]
		}
	}
	return b
}

// encodable is json.Marshal(v) after setting every time v holds that
// JSON cannot encode (genJSONTime draws some) to the zero time.
func encodable(t *rapid.T, v any) []byte {
	clamp := func(at *time.Time) {
		if at.Year() > 9999 {
			*at = time.Time{}
		}
	}
	clampTask := func(ts *structs.TaskState) {
		if ts != nil {
			clamp(&ts.LastRestart)
			clamp(&ts.StartedAt)
			clamp(&ts.FinishedAt)
		}
	}
	switch v := v.(type) {
	case *structs.TaskState:
		clampTask(v)
	case *structs.AllocState:
		if v != nil {
			for _, ts := range v.TaskStates {
				clampTask(ts)
			}
			if v.DeploymentStatus != nil {
				clamp(&v.DeploymentStatus.Timestamp)
			}
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// mutationClass is a kind of position mutate edits, and bytes it puts
// there.
type mutationClass struct {
	at    func(b []byte, i int) bool
	bytes string
}

// mutationClasses: a value's start, a digit, a quote, an escape, a separator, a
// bracket, a literal's letter, an upper-case letter (keys).
var mutationClasses = func() []mutationClass {
	in := func(set string) func([]byte, int) bool {
		return func(b []byte, i int) bool { return strings.IndexByte(set, b[i]) >= 0 }
	}
	return []mutationClass{
		{func(b []byte, i int) bool { return i > 0 && b[i-1] == ':' }, "0-1\"n "},
		{in("0123456789"), "0123456789-.eE"},
		{in(`"`), `"\`},
		{in(`\`), `"\/bfnrtu0'x`},
		{in(":,"), ":, "},
		{in("{}[]"), "{}[]"},
		{in("ntf"), "ntfu"},
		{in("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), "aeiST"},
	}
}()

// mutants is how many mutations of each generated encoding are checked.
const mutants = 256

// TestUnmarshalIsJSON: the hand reader gives json.Unmarshal's value and
// error for the encodings of generated task, acknowledged and local
// states, of every kind the encoders fall back on, and for mutations of
// them, valid JSON or not.
func TestUnmarshalIsJSON(t *testing.T) {
	for _, plain := range []bool{true, false} {
		t.Run(fmt.Sprintf("task state, plain strings %v", plain), rapid.MakeCheck(func(t *rapid.T) {
			b := encodable(t, genJSONTaskState(plain).Draw(t, "ts"))
			sameAsJSONMutated[structs.TaskState](t, b)
		}))
		t.Run(fmt.Sprintf("alloc state, plain strings %v", plain), rapid.MakeCheck(func(t *rapid.T) {
			s := genJSONAllocState(plain).Draw(t, "s")
			if s != nil && rapid.Bool().Draw(t, "no statuses") {
				s.DeploymentStatus, s.NetworkStatus = nil, nil
			}
			b := encodable(t, s)
			sameAsJSONMutated[structs.AllocState](t, b)
		}))
		t.Run(fmt.Sprintf("local state, plain strings %v", plain), rapid.MakeCheck(func(t *rapid.T) {
			b := appendedLocalState(t, genJSONLocalState(plain).Draw(t, "ls"))
			sameAsJSONMutated[interfaces.LocalState](t, b)
		}))
	}
	t.Run("traps", func(t *testing.T) {
		ts := `{"State":"running","Failed":false,"Restarts":1,"LastRestart":"2020-01-01T00:00:00Z","StartedAt":"0001-01-01T00:00:00Z","FinishedAt":"0001-01-01T00:00:00Z","Events":%s,"Paused":""}`
		ev := `{"Type":"T","Time":%s,"Message":"","DisplayMessage":"","Details":%s,"FailsTask":false,"RestartReason":"","SetupError":"","DriverError":"","ExitCode":0,"Signal":0,"KillReason":"","KillTimeout":0,"KillError":"","StartDelay":0,"FailedSibling":"","TaskSignal":"","TaskSignalReason":"","ValidationError":""}`
		for _, c := range []string{
			"null", "", " null", "{}", `{"State":"x"}`, fmt.Sprintf(ts, "null"), fmt.Sprintf(ts, "[]"), fmt.Sprintf(ts, "[null]"),
			fmt.Sprintf(ts, "null") + " ", strings.Replace(fmt.Sprintf(ts, "null"), `"State"`, `"state"`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"Failed":false`, `"Failed":null`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"Restarts":1`, `"Restarts":-0`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"Restarts":1`, `"Restarts":18446744073709551616`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"Restarts":1`, `"Restarts":1e0`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"State":"running"`, `"State":"r\u0075n"`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"State":"running"`, `"State":"\u003C\/\b\f\u00e9\ud800\u0000"`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"State":"running"`, `"State":"\'"`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"State":"running"`, `"State":"\u00"`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"State":"running"`, `"State":"\u003C\u003e\/\b\f\u0000\"\\"`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"State":"running"`, "\"State\":\"\xffé\"", 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"2020-01-01T00:00:00Z"`, `"2020-01-01T00:00:00+01:00"`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"2020-01-01T00:00:00Z"`, `null`, 1),
			strings.Replace(fmt.Sprintf(ts, "null"), `"Paused":""`, `"Paused":"","Extra":1`, 1),
			fmt.Sprintf(ts, "["+fmt.Sprintf(ev, "-0", `{"b":"1","a":"2","a":"3"}`)+"]"),
			fmt.Sprintf(ts, "["+fmt.Sprintf(ev, "9223372036854775808", "{}")+"]"),
			fmt.Sprintf(ts, "["+fmt.Sprintf(ev, "-9223372036854775808", "null")+",null]"),
			fmt.Sprintf(ts, "["+fmt.Sprintf(ev, "01", "{}")+"]"),
		} {
			sameAsJSON[structs.TaskState](t, []byte(c))
			sameAsJSON[structs.AllocState](t, []byte(`{"ClientStatus":"","ClientDescription":"","TaskStates":{"a":`+c+`,"a":null},"DeploymentStatus":null,"NetworkStatus":null}`))
		}
	})
	t.Run("local state traps", func(t *testing.T) {
		ls := `{"Hooks":%s,"DriverNetwork":%s,"TaskHandle":%s,"RunComplete":false}`
		hook := `{"PrestartDone":true,"Data":%s,"Env":null}`
		network := `{"PortMap":%s,"IP":"10.0.0.1","AutoAdvertise":true}`
		handle := `{"Version":%s,"Driver":"mock","TaskID":"a/web","DriverState":%s}`
		withHooks := func(hooks string) string { return fmt.Sprintf(ls, hooks, "null", "null") }
		withNetwork := func(ports string) string { return fmt.Sprintf(ls, "null", fmt.Sprintf(network, ports), "null") }
		withHandle := func(version, state string) string {
			return fmt.Sprintf(ls, "null", "null", fmt.Sprintf(handle, version, state))
		}
		for _, c := range []string{
			"null", "{}", withHooks("null"), withHooks("{}") + " ", withHooks("{}"),
			withHooks(`{"a":null,"a":` + fmt.Sprintf(hook, `{"k":"v"}`) + `}`),
			withHooks(`{"a":` + fmt.Sprintf(hook, `{"k":"v"}`) + `,"a":null}`),
			withHooks(`{"b":` + fmt.Sprintf(hook, `{}`) + `,"a":` + fmt.Sprintf(hook, `{"k":"1","k":"2"}`) + `}`),
			withHooks(`{"a":` + strings.Replace(fmt.Sprintf(hook, "null"), "true", "null", 1) + `}`),
			withHooks(`{"a":` + strings.Replace(fmt.Sprintf(hook, "null"), `"Env"`, `"env"`, 1) + `}`),
			withHooks(`{"a":` + strings.Replace(fmt.Sprintf(hook, "null"), `"Env":null`, `"Env":null,"Env":{}`, 1) + `}`),
			withHooks(`{"\u0061":{}}`), withHooks(`{"\u00e9":null}`), withHooks(`{"a":{}}`),
			withNetwork("null"), withNetwork("{}"), withNetwork(`{"http":8080,"db":-0,"http":1}`),
			withNetwork(`{"http":1.0}`), withNetwork(`{"http":1e3}`), withNetwork(`{"http":9223372036854775808}`),
			withNetwork(`{"http":"80"}`), withNetwork(`{"http":null}`),
			withHandle("1", "null"), withHandle("-9223372036854775808", `""`), withHandle("1", `"QQ=="`),
			withHandle("1", `"QR=="`), withHandle("1", `"QQ"`), withHandle("1", `"QQ==QQ=="`), withHandle("1", `"Q\nQ=="`),
			withHandle("1", `"Q\rQ=="`), withHandle("1", `"Q\u0051=="`), withHandle("1", `"ab/+"`), withHandle("1", `"ab\/+"`),
			withHandle("1", `"-_=="`), withHandle("1", `[1,2]`), withHandle("1", `"QQ==","DriverState":null`),
			withHandle("1", "\"Q\nQ==\""), withHandle("1", "\"Q\rQ==\""), withHandle("1.5", "null"), withHandle("null", "null"),
		} {
			sameAsJSON[interfaces.LocalState](t, []byte(c))
		}
	})
	t.Run("plain values take the hand path", rapid.MakeCheck(func(t *rapid.T) {
		ts := genJSONTaskState(true).Draw(t, "ts")
		b := encodable(t, ts)
		r := reader{b: b}
		if r.taskState(); !r.end() {
			t.Fatalf("%s: read by json.Unmarshal, not by hand (stopped at %d)", b, r.i)
		}
		b, _ = json.Marshal(&structs.AllocState{TaskStates: map[string]*structs.TaskState{"web": ts, "": nil}})
		r = reader{b: b}
		if r.allocState(); !r.end() {
			t.Fatalf("%s: read by json.Unmarshal, not by hand (stopped at %d)", b, r.i)
		}
		b = appendedLocalState(t, genJSONLocalState(true).Draw(t, "ls"))
		r = reader{b: b}
		if r.localState(); !r.end() {
			t.Fatalf("%s: read by json.Unmarshal, not by hand (stopped at %d)", b, r.i)
		}
	}))
}

// FuzzUnmarshalIsJSON is TestUnmarshalIsJSON's check on any input.
func FuzzUnmarshalIsJSON(f *testing.F) {
	ts := structs.NewTaskState()
	ts.AppendEvent(structs.NewTaskEvent(structs.TaskStarted, time.Unix(1, 2)).SetMessage("started"))
	ls := &interfaces.LocalState{
		Hooks:         map[string]*interfaces.HookState{"task_dir": {PrestartDone: true, Env: map[string]string{"A": "1"}}, "x": nil},
		DriverNetwork: &interfaces.DriverNetwork{PortMap: map[string]int{"http": 8080}, IP: "10.0.0.2"},
		TaskHandle:    &drivers.TaskHandle{Version: 1, Driver: "mock", TaskID: "a/web", DriverState: []byte{0, 1, 0xfe, 0xff}},
	}
	for _, v := range []any{ts, &structs.AllocState{ClientStatus: "running", TaskStates: map[string]*structs.TaskState{"web": ts}}, ls} {
		b, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("null"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sameAsJSON[structs.TaskState](t, b)
		sameAsJSON[structs.AllocState](t, b)
		sameAsJSON[interfaces.LocalState](t, b)
	})
}
