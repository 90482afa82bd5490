package transport

import (
	"math"
	"reflect"
	"unicode/utf8"
)

// copyAny copies the value of an `any` as JSON decodes it into an `any`:
// strings, bools and finite float64s as is, ints as float64, and
// map[string]any and []any recursively; any other dynamic type goes
// through JSON.
func copyAny(dst, src reflect.Value, depth int) error {
	if src.IsNil() {
		return nil
	}
	v, ok := genericCopy(src.Interface(), depth)
	if !ok {
		return jsonCopy(dst, src, depth)
	}
	if v != nil {
		dst.Set(reflect.ValueOf(v))
	}
	return nil
}

// genericCopy returns what JSON makes of x inside an `any`; ok is false
// for anything it does not know (or too deep).
func genericCopy(x any, depth int) (any, bool) {
	if depth >= maxWireDepth {
		return nil, false
	}
	switch v := x.(type) {
	case nil:
		return nil, true
	case string:
		return v, utf8.ValidString(v)
	case bool:
		return v, true
	case float64:
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case map[string]any:
		if v == nil {
			return nil, true
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			c, ok := genericCopy(e, depth+1)
			if !ok || !utf8.ValidString(k) {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	case []any:
		if v == nil {
			return nil, true
		}
		out := make([]any, 0) // grown by append, as encoding/json does
		for _, e := range v {
			c, ok := genericCopy(e, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, c)
		}
		return out, true
	}
	return nil, false
}
