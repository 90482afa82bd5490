package mock

import (
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
)

// taskSpec is a task's decoded Config (see the package doc for the keys).
// It is persisted in the handle, so its JSON names are stable.
type taskSpec struct {
	RunFor                time.Duration `json:"RunFor"`
	ExitCode              int           `json:"ExitCode"`
	ExitSignal            int           `json:"ExitSignal"`
	ExitErrMsg            string        `json:"ExitErrMsg"`
	StartError            string        `json:"StartError"`
	StartErrorRecoverable bool          `json:"StartErrorRecoverable"`
	StartBlockFor         time.Duration `json:"StartBlockFor"`
	KillAfter             time.Duration `json:"KillAfter"`
	SignalError           string        `json:"SignalError"`
	ExitOnSignals         []string      `json:"ExitOnSignals"`
	IgnoreSignals         []string      `json:"IgnoreSignals"`
}

// specField decodes one Config key into a taskSpec.
type specField struct {
	key    string
	decode func(s *taskSpec, v any) error
}

// specFields in a fixed order, so the first bad key reported is stable.
var specFields = []specField{
	{"run_for", func(s *taskSpec, v any) (err error) { s.RunFor, err = durationValue(v); return }},
	{"exit_code", func(s *taskSpec, v any) error {
		n, err := intValue(v)
		s.ExitCode = int(n)
		return err
	}},
	{"exit_signal", func(s *taskSpec, v any) (err error) { s.ExitSignal, err = signalValue(v); return }},
	{"exit_err_msg", func(s *taskSpec, v any) (err error) { s.ExitErrMsg, err = stringValue(v); return }},
	{"start_error", func(s *taskSpec, v any) (err error) { s.StartError, err = stringValue(v); return }},
	{"start_error_recoverable", func(s *taskSpec, v any) (err error) { s.StartErrorRecoverable, err = boolValue(v); return }},
	{"start_block_for", func(s *taskSpec, v any) (err error) { s.StartBlockFor, err = durationValue(v); return }},
	{"kill_after", func(s *taskSpec, v any) (err error) { s.KillAfter, err = durationValue(v); return }},
	{"signal_error", func(s *taskSpec, v any) (err error) { s.SignalError, err = stringValue(v); return }},
	{"exit_on_signals", func(s *taskSpec, v any) (err error) { s.ExitOnSignals, err = signalListValue(v); return }},
	{"ignore_signals", func(s *taskSpec, v any) (err error) { s.IgnoreSignals, err = signalListValue(v); return }},
}

// decodeSpec decodes a task's Config. Absent and null keys keep their zero
// value; unknown keys are ignored (DATA-1). The error names the first bad
// key in specFields order.
func decodeSpec(cfg map[string]any) (taskSpec, error) {
	var s taskSpec
	for _, f := range specFields {
		v, ok := cfg[f.key]
		if !ok || v == nil {
			continue
		}
		if err := f.decode(&s, v); err != nil {
			return taskSpec{}, fmt.Errorf("invalid mock driver config key %q: %w", f.key, err)
		}
	}
	for _, sig := range s.IgnoreSignals {
		if s.traps(sig) {
			return taskSpec{}, fmt.Errorf("invalid mock driver config key %q: %w", "ignore_signals", fmt.Errorf("exit_on_signals and ignore_signals both list %s", sig))
		}
	}
	return s, nil
}

// traps reports whether the task exits cleanly on signal canon.
func (s *taskSpec) traps(canon string) bool { return slices.Contains(s.ExitOnSignals, canon) }

// ignores reports whether signal canon leaves the task untouched: listed
// in ignore_signals, or not terminating by default and not trapped.
func (s *taskSpec) ignores(canon string) bool {
	return slices.Contains(s.IgnoreSignals, canon) || (!s.traps(canon) && !drivers.TerminatesByDefault(canon))
}

// naturalExit is the exit the task makes by itself, nil if it runs until
// stopped (run_for 0).
func (s *taskSpec) naturalExit() *exitPlan {
	if s.RunFor <= 0 {
		return nil
	}
	return &exitPlan{After: s.RunFor, Result: exitRecord{
		ExitCode: s.ExitCode, Signal: s.ExitSignal, Err: s.ExitErrMsg,
	}}
}

// signalResult is how the task ends kill_after after a terminating signal
// it does not ignore: cleanly if trapped, else killed by it.
func (s *taskSpec) signalResult(canon string, num int) *drivers.ExitResult {
	if s.traps(canon) {
		return &drivers.ExitResult{}
	}
	return &drivers.ExitResult{Signal: num}
}
