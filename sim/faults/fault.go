package faults

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Fault is one entry of a plan. Which fields matter depends on the class
// (its parameters): per-call classes use Rate (and Max, Recoverable,
// Until), timed ones At and For.
type Fault struct {
	Class Class
	// Rate is the probability that one call is hit, in (0, 1].
	Rate float64
	// Max bounds an injected delay, latency or time-to-exit.
	Max time.Duration
	// Recoverable marks injected start failures recoverable.
	Recoverable bool
	// Until is the offset from the run's start after which a per-call
	// fault no longer fires; zero means never (it does not heal).
	Until time.Duration
	// At is a timed fault's offset from the run's start.
	At time.Duration
	// For is a partition's length, a crash's restart delay or a clock
	// jump's size.
	For time.Duration
	// Key, if set, narrows a state DB write failure to writes of that
	// STATE-1 key ("acknowledged_state", "task_state", ...).
	Key string
}

// String prints the fault as one plan line: the class, then key=value
// per parameter in the class's order (optional ones only when set).
func (f Fault) String() string {
	parts := []string{string(f.Class)}
	info := classes[f.Class]
	for _, p := range f.Class.params() {
		if slices.Contains(info.optional, p) && f.isZero(p) {
			continue
		}
		parts = append(parts, p+"="+f.value(p))
	}
	return strings.Join(parts, " ")
}

func (f Fault) value(p string) string {
	switch p {
	case ParamRate:
		return strconv.FormatFloat(f.Rate, 'g', -1, 64)
	case ParamMax:
		return f.Max.String()
	case ParamRecoverable:
		return strconv.FormatBool(f.Recoverable)
	case ParamUntil:
		return f.Until.String()
	case ParamAt:
		return f.At.String()
	case ParamFor:
		return f.For.String()
	case ParamKey:
		return f.Key
	}
	return ""
}

func (f Fault) isZero(p string) bool { return f.value(p) == Fault{}.value(p) }

func (f *Fault) set(p, v string) error {
	var err error
	switch p {
	case ParamRate:
		f.Rate, err = strconv.ParseFloat(v, 64)
		if err == nil && (f.Rate <= 0 || f.Rate > 1) {
			err = fmt.Errorf("rate must be in (0, 1]")
		}
	case ParamMax:
		f.Max, err = parseDuration(v)
	case ParamRecoverable:
		f.Recoverable, err = strconv.ParseBool(v)
	case ParamUntil:
		f.Until, err = parseDuration(v)
	case ParamAt:
		f.At, err = parseDuration(v)
	case ParamFor:
		f.For, err = parseDuration(v)
	case ParamKey:
		f.Key = v
		if v == "" {
			err = fmt.Errorf("empty key")
		}
	}
	return err
}

func parseDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err == nil && d < 0 {
		err = fmt.Errorf("negative duration")
	}
	return d, err
}

// ParseFault parses one plan line (String's format).
func ParseFault(s string) (Fault, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return Fault{}, fmt.Errorf("unknown fault class %q", "")
	}
	f := Fault{Class: Class(fields[0])}
	if !f.Class.Known() {
		return Fault{}, fmt.Errorf("unknown fault class %q", fields[0])
	}
	params := f.Class.params()
	seen := map[string]bool{}
	for _, tok := range fields[1:] {
		k, v, ok := strings.Cut(tok, "=")
		if !ok {
			return Fault{}, fmt.Errorf("fault %s: %q is not key=value", f.Class, tok)
		}
		if !slices.Contains(params, k) {
			return Fault{}, fmt.Errorf("fault %s: unknown parameter %q", f.Class, k)
		}
		if err := f.set(k, v); err != nil {
			return Fault{}, fmt.Errorf("fault %s: bad %s=%q: %w", f.Class, k, v, err)
		}
		seen[k] = true
	}
	for _, p := range classes[f.Class].required {
		if !seen[p] {
			return Fault{}, fmt.Errorf("fault %s: missing %s", f.Class, p)
		}
	}
	return f, nil
}

// MarshalJSON encodes the fault as its plan line.
func (f Fault) MarshalJSON() ([]byte, error) { return json.Marshal(f.String()) }

// UnmarshalJSON decodes a plan line.
func (f *Fault) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("decode fault: %w", err)
	}
	parsed, err := ParseFault(s)
	if err != nil {
		return err
	}
	*f = parsed
	return nil
}

// End is the offset after which the fault no longer acts: At+For for a
// timed fault, Until for a per-call one; zero for a per-call fault that
// never heals.
func (f Fault) End() time.Duration {
	if f.Class.Timed() {
		return f.At + f.For
	}
	return f.Until
}

// activeAt reports whether a per-call fault may fire at offset off.
func (f Fault) activeAt(off time.Duration) bool { return f.Until == 0 || off < f.Until }
