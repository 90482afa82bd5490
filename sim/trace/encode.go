package trace

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/allocsim/allocsim/internal/allocjson"
)

// Encode encodes v for Record.Data as json.Marshal does; a value that
// cannot be encoded is recorded as its error, so tracing never fails a
// run. The kinds records carry most (strings, numbers, booleans, string
// slices, string-keyed maps of those, and Appenders) are written by
// hand: encoding/json's reflection was 3.6 % of a conformance check's
// CPU. What the hand encoder does not write as json.Marshal would (a
// string with a control character or non-ASCII text, a kind it does not
// know) goes to json.Marshal whole (TestEncodeIsMarshal).
func Encode(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	if b, ok := AppendValue(make([]byte, 0, 64), v, true); ok {
		return b
	}
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"encode_error": err.Error()})
	}
	return b
}

// An Appender appends its own json.Marshal encoding to b, with
// AppendValue's rule for ok. A type that implements it must encode alike
// either way (TestEncodeIsMarshal checks the simulator's).
type Appender interface {
	AppendJSON(b []byte, ok bool) ([]byte, bool)
}

// AppendValue appends v as json.Marshal encodes it when it can; ok false
// (given or returned) means the bytes are not that encoding and the
// caller falls back to json.Marshal. Once ok is false nothing more is
// checked.
func AppendValue(b []byte, v any, ok bool) ([]byte, bool) {
	if !ok {
		return b, false
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case string:
		return allocjson.AppendString(b, x, true)
	case bool:
		return strconv.AppendBool(b, x), true
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	case int64:
		return strconv.AppendInt(b, x, 10), true
	case uint64:
		return strconv.AppendUint(b, x, 10), true
	case []string:
		if x == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b, ok = allocjson.AppendString(b, s, ok)
		}
		return append(b, ']'), ok
	case map[string]string:
		return allocjson.AppendStringMap(b, x, true)
	case map[string]bool:
		return AppendMap(b, x, func(b []byte, v bool) ([]byte, bool) { return strconv.AppendBool(b, v), true })
	case map[string]uint64:
		return AppendMap(b, x, func(b []byte, v uint64) ([]byte, bool) { return strconv.AppendUint(b, v, 10), true })
	case map[string]any:
		return AppendMap(b, x, func(b []byte, v any) ([]byte, bool) { return AppendValue(b, v, true) })
	case Appender:
		return x.AppendJSON(b, true)
	}
	return b, false
}

// AppendMap appends m with its keys sorted, as json.Marshal does, each
// value by value (ok false: not as json.Marshal would).
func AppendMap[V any](b []byte, m map[string]V, value func([]byte, V) ([]byte, bool)) ([]byte, bool) {
	if m == nil {
		return append(b, "null"...), true
	}
	var inline [8]string
	keys := inline[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ok := true
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b, ok = allocjson.AppendString(b, k, ok)
		b = append(b, ':')
		if ok {
			b, ok = value(b, m[k])
		}
	}
	return append(b, '}'), ok
}

// AppendNonEmpty appends the members `,"key":"value"` of the key, value
// pairs kv (keys and values alternating) whose value is not empty, in
// order: string fields tagged omitempty after an object's first member.
// Keys must need no escaping; values follow AppendValue's rule for ok.
func AppendNonEmpty(b []byte, ok bool, kv ...string) ([]byte, bool) {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			b, ok = allocjson.AppendString(AppendField(b, kv[i], false), kv[i+1], ok)
		}
	}
	return b, ok
}

// AppendField appends an object member `"key":` (with the comma before
// it unless first); key must need no escaping.
func AppendField(b []byte, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}
