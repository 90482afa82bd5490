//go:build linux

package rawexec

import (
	"testing"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

// TestDecodeSpec: the Config keys (package doc); every bad value fails
// with an error naming the key; unknown keys are ignored (DATA-1).
func TestDecodeSpec(t *testing.T) {
	cases := []struct {
		name    string
		config  map[string]any
		want    taskSpec
		wantErr string
	}{
		{name: "command only", config: map[string]any{"command": "sleep"},
			want: taskSpec{Command: "sleep"}},
		{name: "args as JSON list", config: map[string]any{"command": "sh", "args": []any{"-c", "exit 0"}},
			want: taskSpec{Command: "sh", Args: []string{"-c", "exit 0"}}},
		{name: "args as Go list", config: map[string]any{"command": "sh", "args": []string{"-c"}},
			want: taskSpec{Command: "sh", Args: []string{"-c"}}},
		{name: "null args", config: map[string]any{"command": "sh", "args": nil},
			want: taskSpec{Command: "sh"}},
		{name: "unknown key ignored", config: map[string]any{"command": "sh", "image": 3},
			want: taskSpec{Command: "sh"}},
		{name: "missing command", config: map[string]any{"args": []any{"x"}},
			wantErr: `invalid raw_exec config key "command": missing required string`},
		{name: "nil config", config: nil,
			wantErr: `invalid raw_exec config key "command": missing required string`},
		{name: "null command", config: map[string]any{"command": nil},
			wantErr: `invalid raw_exec config key "command": missing required string`},
		{name: "command not a string", config: map[string]any{"command": 7},
			wantErr: `invalid raw_exec config key "command": want a string, got int`},
		{name: "empty command", config: map[string]any{"command": ""},
			wantErr: `invalid raw_exec config key "command": empty string`},
		{name: "args a string", config: map[string]any{"command": "sh", "args": "-c"},
			wantErr: `invalid raw_exec config key "args": want a list of strings, got string`},
		{name: "args element a number", config: map[string]any{"command": "sh", "args": []any{"-c", 1.5}},
			wantErr: `invalid raw_exec config key "args": element 1: want a string, got float64`},
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
				t.Errorf("decodeSpec(%v) mismatch (-want +got):\n%s", tc.config, diff)
			}
		})
	}
}

// TestStartBadConfig: a bad Config fails StartTask, unrecoverable (AR-7
// rule 5), naming the key, and starts nothing.
func TestStartBadConfig(t *testing.T) {
	d := newDriver(t, Config{})
	cases := []struct {
		config  map[string]any
		wantErr string
	}{
		{map[string]any{}, `start task "a/web": invalid raw_exec config key "command": missing required string`},
		{map[string]any{"command": []any{"sh"}}, `start task "a/web": invalid raw_exec config key "command": want a string, got []interface {}`},
		{map[string]any{"command": "sh", "args": map[string]any{}}, `start task "a/web": invalid raw_exec config key "args": want a list of strings, got map[string]interface {}`},
	}
	for _, tc := range cases {
		_, err := d.StartTask(&drivers.TaskConfig{ID: "a/web", Config: tc.config})
		must.EqError(t, err, tc.wantErr)
		must.False(t, drivers.IsRecoverable(err))
	}
	_, err := d.WaitTask(t.Context(), "a/web")
	must.ErrorIs(t, err, drivers.ErrTaskNotFound)
}

// TestTaskEnv: PATH comes from the driver's config, the task's Env is
// merged over it, and the result is sorted.
func TestTaskEnv(t *testing.T) {
	must.Eq(t, []string{"PATH=/p"}, taskEnv(nil, "/p", nil))
	must.Eq(t, []string{"A=1", "PATH=/mine", "Z=2"}, taskEnv(nil, "/p", map[string]string{"Z": "2", "PATH": "/mine", "A": "1"}))
	// The base is under PATH and the task's Env.
	base := map[string]string{"HOME": "/h", "PATH": "/base", "A": "0"}
	must.Eq(t, []string{"A=1", "HOME=/h", "PATH=/p"}, taskEnv(base, "/p", map[string]string{"A": "1"}))
	must.Eq(t, "/h", base["HOME"], must.Sprint("the base is not modified"))
	must.Eq(t, "/base", base["PATH"])
	must.Eq(t, "/mine", envValue([]string{"A=1", "PATH=/mine"}, "PATH"))
	must.Eq(t, "", envValue([]string{"A=1"}, "PATH"))
}

// TestParseProcStat: state and start time are found after the command
// name, whatever it holds.
func TestParseProcStat(t *testing.T) {
	line := "42 (a) b (c)) S 1 42 42 0 -1 4194304 102 0 0 0 0 0 0 0 20 0 1 0 241480 3133440 414 0\n"
	state, start, err := parseProcStat(42, []byte(line))
	must.NoError(t, err)
	must.Eq(t, byte('S'), state)
	must.Eq(t, uint64(241480), start)

	_, _, err = parseProcStat(42, []byte("42 no name"))
	must.EqError(t, err, "parse /proc/42/stat: no command name")
	_, _, err = parseProcStat(42, []byte("42 (x) S 1 2"))
	must.EqError(t, err, "parse /proc/42/stat: 5 fields")
	_, _, err = parseProcStat(42, []byte("42 (x) S 1 42 42 0 -1 4194304 102 0 0 0 0 0 0 0 20 0 1 0 soon 3133440"))
	must.ErrorContains(t, err, "parse /proc/42/stat start time: ")
}
