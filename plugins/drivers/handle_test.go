package drivers

import (
	"testing"

	"github.com/shoenig/test/must"
)

// state is a driver's state as a test encodes it.
type state struct {
	PID int `json:"pid"`
}

// TestHandleRoundTrip: what EncodeHandle writes, DecodeHandle reads back
// (STATE-1 handle, STATE-4 recovery).
func TestHandleRoundTrip(t *testing.T) {
	h, err := EncodeHandle("raw_exec", 3, "a/web", state{PID: 42})
	must.NoError(t, err)
	must.Eq(t, &TaskHandle{Version: 3, Driver: "raw_exec", TaskID: "a/web", DriverState: []byte(`{"pid":42}`)}, h)
	var got state
	must.NoError(t, DecodeHandle(h, "raw_exec", 3, &got))
	must.Eq(t, state{PID: 42}, got)
}

// TestHandleErrors: each envelope check fails with its own message.
func TestHandleErrors(t *testing.T) {
	_, err := EncodeHandle("mock_driver", 1, "a/web", map[string]any{"f": func() {}})
	must.EqError(t, err, "encode driver state: json: unsupported type: func()")

	cases := []struct {
		name    string
		handle  TaskHandle
		wantErr string
	}{
		{"other driver", TaskHandle{Version: 1, Driver: "docker", DriverState: []byte("{}")},
			`handle of driver "docker", want "mock_driver"`},
		{"other version", TaskHandle{Version: 2, Driver: "mock_driver", DriverState: []byte("{}")},
			"unsupported handle version 2, want 1"},
		{"bad JSON", TaskHandle{Version: 1, Driver: "mock_driver", DriverState: []byte("{")},
			"decode driver state: unexpected end of JSON input"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var st state
			must.EqError(t, DecodeHandle(&tc.handle, "mock_driver", 1, &st), tc.wantErr)
		})
	}
}
