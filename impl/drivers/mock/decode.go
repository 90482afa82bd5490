package mock

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
)

// Lenient decoders for Config values: JSON gives float64 or json.Number,
// HCL and Go literals give ints, people write strings.

func durationValue(v any) (time.Duration, error) {
	var d time.Duration
	switch v := v.(type) {
	case string:
		parsed, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			ns, nerr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if nerr != nil {
				return 0, fmt.Errorf("invalid duration %q", v)
			}
			parsed = time.Duration(ns)
		}
		d = parsed
	case time.Duration:
		d = v
	default:
		ns, err := intValue(v)
		if err != nil {
			return 0, fmt.Errorf("want a duration string or integer nanoseconds, got %T", v)
		}
		d = time.Duration(ns)
	}
	if d < 0 {
		return 0, fmt.Errorf("negative duration %s", d)
	}
	return d, nil
}

func intValue(v any) (int64, error) {
	switch v := v.(type) {
	case int:
		return int64(v), nil
	case int8:
		return int64(v), nil
	case int16:
		return int64(v), nil
	case int32:
		return int64(v), nil
	case int64:
		return v, nil
	case uint:
		return uintValue(uint64(v))
	case uint8:
		return int64(v), nil
	case uint16:
		return int64(v), nil
	case uint32:
		return int64(v), nil
	case uint64:
		return uintValue(v)
	case float32:
		return floatValue(float64(v))
	case float64:
		return floatValue(v)
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n, nil
		}
		f, err := v.Float64()
		if err != nil {
			return 0, fmt.Errorf("invalid integer %q", v.String())
		}
		return floatValue(f)
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid integer %q", v)
		}
		return n, nil
	default:
		return 0, fmt.Errorf("want an integer, got %T", v)
	}
}

func uintValue(u uint64) (int64, error) {
	if u > math.MaxInt64 {
		return 0, fmt.Errorf("not an integer: %v", u)
	}
	return int64(u), nil
}

func floatValue(f float64) (int64, error) {
	if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, fmt.Errorf("not an integer: %v", f)
	}
	return int64(f), nil
}

func boolValue(v any) (bool, error) {
	switch v := v.(type) {
	case bool:
		return v, nil
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return false, fmt.Errorf("invalid boolean %q", v)
		}
		return b, nil
	default:
		return false, fmt.Errorf("want a boolean, got %T", v)
	}
}

func stringValue(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("want a string, got %T", v)
	}
	return s, nil
}

// signalValue decodes exit_signal: a number or a signal name.
func signalValue(v any) (int, error) {
	if s, ok := v.(string); ok {
		if _, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err != nil {
			_, n, err := drivers.ParseSignal(s)
			return n, err
		}
	}
	n, err := intValue(v)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, fmt.Errorf("negative signal %d", n)
	}
	return int(n), nil
}

// signalListValue decodes a list of signal names (a list, or one string
// with comma-separated names) into sorted, distinct canonical names.
// SIGKILL is refused: it can be neither trapped nor ignored.
func signalListValue(v any) ([]string, error) {
	var raw []string
	switch v := v.(type) {
	case string:
		for _, s := range strings.Split(v, ",") {
			if strings.TrimSpace(s) != "" {
				raw = append(raw, s)
			}
		}
	case []string:
		raw = v
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("want a list of signal names, got %T", v)
			}
			raw = append(raw, s)
		}
	default:
		return nil, fmt.Errorf("want a list of signal names, got %T", v)
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range raw {
		canon, n, err := drivers.ParseSignal(s)
		if err != nil {
			return nil, err
		}
		if n == drivers.SIGKILL {
			return nil, errors.New("SIGKILL cannot be trapped or ignored")
		}
		if !seen[canon] {
			seen[canon] = true
			out = append(out, canon)
		}
	}
	sort.Strings(out)
	return out, nil
}
