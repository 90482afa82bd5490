package allocjson

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// genJSONLocalState draws local states with nil, empty and filled maps
// at every level (hooks, a hook's Data and Env, a port map), nil hook
// entries, and task handles whose DriverState is nil, empty or binary.
func genJSONLocalState(plain bool) *rapid.Generator[*interfaces.LocalState] {
	strMap := func(t *rapid.T, label string) map[string]string {
		return rapid.OneOf(rapid.Just[map[string]string](nil),
			rapid.MapOfN(genJSONText(plain), genJSONText(plain), 0, 4)).Draw(t, label)
	}
	hook := rapid.OneOf(rapid.Just[*interfaces.HookState](nil), rapid.Custom(func(t *rapid.T) *interfaces.HookState {
		return &interfaces.HookState{PrestartDone: rapid.Bool().Draw(t, "done"), Data: strMap(t, "data"), Env: strMap(t, "env")}
	}))
	network := rapid.OneOf(rapid.Just[*interfaces.DriverNetwork](nil), rapid.Custom(func(t *rapid.T) *interfaces.DriverNetwork {
		return &interfaces.DriverNetwork{
			PortMap: rapid.OneOf(rapid.Just[map[string]int](nil),
				rapid.MapOfN(genJSONText(plain), rapid.Int(), 0, 4)).Draw(t, "ports"),
			IP: genJSONText(plain).Draw(t, "ip"), AutoAdvertise: rapid.Bool().Draw(t, "advertise"),
		}
	}))
	handle := rapid.OneOf(rapid.Just[*drivers.TaskHandle](nil), rapid.Custom(func(t *rapid.T) *drivers.TaskHandle {
		return &drivers.TaskHandle{
			Version: rapid.Int().Draw(t, "version"), Driver: genJSONText(plain).Draw(t, "driver"),
			TaskID: genJSONText(plain).Draw(t, "task_id"),
			DriverState: rapid.OneOf(rapid.Just[[]byte](nil), rapid.Just([]byte{}),
				rapid.SliceOfN(rapid.Byte(), 0, 16)).Draw(t, "driver_state"),
		}
	}))
	return rapid.OneOf(rapid.Just[*interfaces.LocalState](nil), rapid.Custom(func(t *rapid.T) *interfaces.LocalState {
		return &interfaces.LocalState{
			Hooks: rapid.OneOf(rapid.Just[map[string]*interfaces.HookState](nil),
				rapid.MapOfN(genJSONText(plain), hook, 0, 4)).Draw(t, "hooks"),
			DriverNetwork: network.Draw(t, "network"), TaskHandle: handle.Draw(t, "handle"),
			RunComplete: rapid.Bool().Draw(t, "complete"),
		}
	}))
}

// appendedLocalState is AppendLocalState(nil, ls), which a local state
// cannot fail.
func appendedLocalState(t interface{ Fatalf(string, ...any) }, ls *interfaces.LocalState) []byte {
	b, err := AppendLocalState(nil, ls)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// benchLocalState is a local state as a mock driver's task leaves it
// after a start: its prestart hooks done, one with an environment, and
// the driver's state, JSON, in the handle.
func benchLocalState(b *testing.B) *interfaces.LocalState {
	state, err := json.Marshal(map[string]any{
		"Task":      map[string]any{"ID": "8f1c3a52-0d6e-4b7a-9c3e-1f2a3b4c5d6e/web", "Name": "web", "AllocID": "8f1c3a52-0d6e-4b7a-9c3e-1f2a3b4c5d6e"},
		"StartedAt": "2024-01-01T00:00:00Z",
		"Plan":      map[string]any{"After": 30000000000, "Result": map[string]any{"ExitCode": 0, "Signal": 0, "OOMKilled": false, "Err": ""}},
	})
	if err != nil {
		b.Fatal(err)
	}
	return &interfaces.LocalState{
		Hooks: map[string]*interfaces.HookState{
			"validate": {PrestartDone: true},
			"task_dir": {PrestartDone: true, Env: map[string]string{
				"NOMAD_ALLOC_DIR": "/alloc", "NOMAD_TASK_DIR": "/local", "NOMAD_SECRETS_DIR": "/secrets"}},
			"volumes": {PrestartDone: true, Data: map[string]string{}},
			"pause":   nil,
		},
		TaskHandle: &drivers.TaskHandle{Version: 1, Driver: "mock_driver",
			TaskID: "8f1c3a52-0d6e-4b7a-9c3e-1f2a3b4c5d6e/web", DriverState: state},
	}
}

// BenchmarkUnmarshalLocalState reads back a task runner's local state,
// as every restore does, by hand (Unmarshal) and by json.Unmarshal.
func BenchmarkUnmarshalLocalState(b *testing.B) {
	data := appendedLocalState(b, benchLocalState(b))
	if r := (reader{b: data}); r.localState() == nil || !r.end() {
		b.Fatalf("%s: not read by hand", data)
	}
	b.Run("Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Unmarshal[interfaces.LocalState](data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var ls *interfaces.LocalState
			if err := json.Unmarshal(data, &ls); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAppendLocalState: the hand encoding of a local state against
// json.Marshal's.
func BenchmarkAppendLocalState(b *testing.B) {
	ls := benchLocalState(b)
	b.Run("AppendLocalState", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 4096)
		for b.Loop() {
			var err error
			if buf, err = AppendLocalState(buf[:0], ls); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(ls); err != nil {
				b.Fatal(err)
			}
		}
	})
}
