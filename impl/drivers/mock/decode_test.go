package mock

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

func TestDecodeSpec(t *testing.T) {
	cases := []struct {
		name    string
		config  map[string]any
		want    taskSpec
		wantErr string
	}{
		{name: "empty", config: nil, want: taskSpec{}},
		{name: "unknown keys and nulls ignored", config: map[string]any{"stdout_string": "hi", "run_for": nil}},
		{name: "duration string", config: map[string]any{"run_for": "10s"}, want: taskSpec{RunFor: 10 * time.Second}},
		{name: "duration float64 ns", config: map[string]any{"run_for": float64(2e9)}, want: taskSpec{RunFor: 2 * time.Second}},
		{name: "duration int ns", config: map[string]any{"kill_after": 1500}, want: taskSpec{KillAfter: 1500}},
		{name: "duration int64 string", config: map[string]any{"kill_after": "2500"}, want: taskSpec{KillAfter: 2500}},
		{name: "duration time.Duration", config: map[string]any{"start_block_for": 3 * time.Second}, want: taskSpec{StartBlockFor: 3 * time.Second}},
		{name: "duration json.Number", config: map[string]any{"run_for": json.Number("7")}, want: taskSpec{RunFor: 7}},
		{name: "exit code float64", config: map[string]any{"exit_code": 3.0}, want: taskSpec{ExitCode: 3}},
		{name: "exit code variants", config: map[string]any{"exit_code": int32(4)}, want: taskSpec{ExitCode: 4}},
		{name: "exit code uint", config: map[string]any{"exit_code": uint8(5)}, want: taskSpec{ExitCode: 5}},
		{name: "exit code string", config: map[string]any{"exit_code": " 6 "}, want: taskSpec{ExitCode: 6}},
		{name: "exit code json float", config: map[string]any{"exit_code": json.Number("2.0")}, want: taskSpec{ExitCode: 2}},
		{name: "exit code negative", config: map[string]any{"exit_code": -1}, want: taskSpec{ExitCode: -1}},
		{name: "exit signal number", config: map[string]any{"exit_signal": 9.0}, want: taskSpec{ExitSignal: 9}},
		{name: "exit signal name", config: map[string]any{"exit_signal": "SIGTERM"}, want: taskSpec{ExitSignal: 15}},
		{name: "exit signal numeric string", config: map[string]any{"exit_signal": "6"}, want: taskSpec{ExitSignal: 6}},
		{name: "strings", config: map[string]any{
			"exit_err_msg": "oops", "start_error": "no image", "signal_error": "no signals",
		}, want: taskSpec{ExitErrMsg: "oops", StartError: "no image", SignalError: "no signals"}},
		{name: "bool", config: map[string]any{"start_error_recoverable": true}, want: taskSpec{StartErrorRecoverable: true}},
		{name: "bool string", config: map[string]any{"start_error_recoverable": "true"}, want: taskSpec{StartErrorRecoverable: true}},
		{name: "signal list any", config: map[string]any{"exit_on_signals": []any{"sigterm", "INT", "SIGINT"}},
			want: taskSpec{ExitOnSignals: []string{"SIGINT", "SIGTERM"}}},
		{name: "signal list strings", config: map[string]any{"ignore_signals": []string{"SIGHUP"}},
			want: taskSpec{IgnoreSignals: []string{"SIGHUP"}}},
		{name: "signal list comma string", config: map[string]any{"exit_on_signals": "SIGTERM, SIGINT,"},
			want: taskSpec{ExitOnSignals: []string{"SIGINT", "SIGTERM"}}},

		{name: "bad duration", config: map[string]any{"run_for": "ten seconds"},
			wantErr: `invalid mock driver config key "run_for": invalid duration "ten seconds"`},
		{name: "negative duration", config: map[string]any{"kill_after": "-1s"},
			wantErr: `invalid mock driver config key "kill_after": negative duration -1s`},
		{name: "fractional ns", config: map[string]any{"start_block_for": 1.5},
			wantErr: `invalid mock driver config key "start_block_for": want a duration string or integer nanoseconds, got float64`},
		{name: "duration wrong type", config: map[string]any{"run_for": true},
			wantErr: `invalid mock driver config key "run_for": want a duration string or integer nanoseconds, got bool`},
		{name: "exit code fraction", config: map[string]any{"exit_code": 1.5},
			wantErr: `invalid mock driver config key "exit_code": not an integer: 1.5`},
		{name: "exit code huge uint", config: map[string]any{"exit_code": uint64(1 << 63)},
			wantErr: `invalid mock driver config key "exit_code": not an integer: 9223372036854775808`},
		{name: "exit code bad string", config: map[string]any{"exit_code": "three"},
			wantErr: `invalid mock driver config key "exit_code": invalid integer "three"`},
		{name: "exit code bad json", config: map[string]any{"exit_code": json.Number("x")},
			wantErr: `invalid mock driver config key "exit_code": invalid integer "x"`},
		{name: "exit code wrong type", config: map[string]any{"exit_code": []any{1}},
			wantErr: `invalid mock driver config key "exit_code": want an integer, got []interface {}`},
		{name: "exit signal unknown name", config: map[string]any{"exit_signal": "SIGNOPE"},
			wantErr: `invalid mock driver config key "exit_signal": unknown signal "SIGNOPE"`},
		{name: "exit signal negative", config: map[string]any{"exit_signal": -2},
			wantErr: `invalid mock driver config key "exit_signal": negative signal -2`},
		{name: "exit signal wrong type", config: map[string]any{"exit_signal": false},
			wantErr: `invalid mock driver config key "exit_signal": want an integer, got bool`},
		{name: "string wrong type", config: map[string]any{"start_error": 1},
			wantErr: `invalid mock driver config key "start_error": want a string, got int`},
		{name: "bool bad string", config: map[string]any{"start_error_recoverable": "maybe"},
			wantErr: `invalid mock driver config key "start_error_recoverable": invalid boolean "maybe"`},
		{name: "bool wrong type", config: map[string]any{"start_error_recoverable": 1},
			wantErr: `invalid mock driver config key "start_error_recoverable": want a boolean, got int`},
		{name: "signal list unknown", config: map[string]any{"exit_on_signals": []any{"SIGINT", "SIGFOO"}},
			wantErr: `invalid mock driver config key "exit_on_signals": unknown signal "SIGFOO"`},
		{name: "signal list non-string", config: map[string]any{"exit_on_signals": []any{2}},
			wantErr: `invalid mock driver config key "exit_on_signals": want a list of signal names, got []interface {}`},
		{name: "signal list wrong type", config: map[string]any{"ignore_signals": 2},
			wantErr: `invalid mock driver config key "ignore_signals": want a list of signal names, got int`},
		{name: "SIGKILL trapped", config: map[string]any{"exit_on_signals": []any{"SIGKILL"}},
			wantErr: `invalid mock driver config key "exit_on_signals": SIGKILL cannot be trapped or ignored`},
		{name: "both lists", config: map[string]any{"exit_on_signals": []any{"SIGINT"}, "ignore_signals": []any{"SIGINT"}},
			wantErr: `invalid mock driver config key "ignore_signals": exit_on_signals and ignore_signals both list SIGINT`},
		{name: "first bad key in key order", config: map[string]any{"kill_after": "x", "run_for": "y"},
			wantErr: `invalid mock driver config key "run_for": invalid duration "y"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeSpec(tc.config)
			if tc.wantErr != "" {
				must.EqError(t, err, tc.wantErr)
				return
			}
			must.NoError(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("decodeSpec(%v) mismatch (-want +got):\n%s", tc.config, diff)
			}
		})
	}
}

func TestSignalDisposition(t *testing.T) {
	s := taskSpec{ExitOnSignals: []string{"SIGINT", "SIGWINCH"}, IgnoreSignals: []string{"SIGHUP"}}
	cases := []struct {
		sig     string
		traps   bool
		ignores bool
	}{
		{"SIGINT", true, false},
		{"SIGWINCH", true, false}, // trapped beats "ignored by default"
		{"SIGHUP", false, true},
		{"SIGCHLD", false, true},
		{"SIGTERM", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.sig, func(t *testing.T) {
			must.Eq(t, tc.traps, s.traps(tc.sig))
			must.Eq(t, tc.ignores, s.ignores(tc.sig))
		})
	}
}
