package rawexec

import (
	"errors"
	"fmt"
)

// Config keys of a raw_exec task.
const (
	keyCommand = "command"
	keyArgs    = "args"
)

// taskSpec is a task's decoded Config.
type taskSpec struct {
	// Command is the program as the job spells it: a path, or a name
	// looked up in the task's PATH.
	Command string
	// Args are the arguments after the program name.
	Args []string
}

// decodeSpec decodes a task's Config: `command` is a required non-empty
// string, `args` an optional list of strings (null or absent: none).
// Unknown keys are ignored (DATA-1). An error names the key.
func decodeSpec(cfg map[string]any) (taskSpec, error) {
	var s taskSpec
	v, ok := cfg[keyCommand]
	if !ok || v == nil {
		return taskSpec{}, fmt.Errorf("invalid raw_exec config key %q: %w", keyCommand, errors.New("missing required string"))
	}
	cmd, ok := v.(string)
	if !ok {
		return taskSpec{}, fmt.Errorf("invalid raw_exec config key %q: %w", keyCommand, fmt.Errorf("want a string, got %T", v))
	}
	if cmd == "" {
		return taskSpec{}, fmt.Errorf("invalid raw_exec config key %q: %w", keyCommand, errors.New("empty string"))
	}
	s.Command = cmd
	if v, ok := cfg[keyArgs]; ok && v != nil {
		args, err := stringList(v)
		if err != nil {
			return taskSpec{}, fmt.Errorf("invalid raw_exec config key %q: %w", keyArgs, err)
		}
		s.Args = args
	}
	return s, nil
}

// stringList decodes a list of strings as JSON ([]any) or Go ([]string)
// gives it.
func stringList(v any) ([]string, error) {
	switch v := v.(type) {
	case []string:
		return append([]string(nil), v...), nil
	case []any:
		out := make([]string, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("element %d: want a string, got %T", i, e)
			}
			out[i] = s
		}
		return out, nil
	default:
		return nil, fmt.Errorf("want a list of strings, got %T", v)
	}
}
