package trace_test

import (
	"encoding/json"
	"testing"

	"github.com/allocsim/allocsim/sim/trace"
	"pgregory.net/rapid"
)

// Text is a rapid generator of strings json.Marshal escapes in every way
// (quotes, backslashes, HTML characters, control characters, non-ASCII,
// invalid UTF-8, U+2028), for the tests of hand encoders.
func Text() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		// Mostly strings the hand encoder writes (one that it does not
		// sends the whole value to json.Marshal).
		if rapid.IntRange(0, 9).Draw(t, "exotic") > 0 {
			return rapid.SampledFrom([]string{"", "a", "b", "run", "a b", `"q"`, `back\slash`, "<a>&", "line\nfeed\r\t"}).Draw(t, "text")
		}
		return rapid.OneOf(rapid.SampledFrom([]string{"\x00\x1f\x7f", "é", "日本", "\xff", "\u2028"}), rapid.String()).Draw(t, "text")
	})
}

// value draws what a record's Data holds: the kinds Encode writes by
// hand, nested, and some it does not.
func value(t *rapid.T, depth int) any {
	kinds := 9
	if depth > 2 {
		kinds = 6
	}
	switch rapid.IntRange(0, kinds).Draw(t, "kind") {
	case 0:
		return Text().Draw(t, "string")
	case 1:
		return rapid.Bool().Draw(t, "bool")
	case 2:
		return rapid.Int().Draw(t, "int")
	case 3:
		return rapid.Uint64().Draw(t, "uint64")
	case 4:
		if rapid.Bool().Draw(t, "nil") {
			return []string(nil)
		}
		return rapid.SliceOf(Text()).Draw(t, "strings")
	case 5:
		if rapid.Bool().Draw(t, "nil") {
			return map[string]string(nil)
		}
		return rapid.MapOf(Text(), Text()).Draw(t, "string map")
	case 6:
		if rapid.IntRange(0, 4).Draw(t, "unknown") > 0 {
			return rapid.SampledFrom([]any{nil, map[string]bool{"b": true, "a": false}, map[string]uint64{"x": 7, "c": 1},
				map[string]bool(nil)}).Draw(t, "known")
		}
		return rapid.SampledFrom([]any{nil, 1.5, struct{ A int }{1}, map[string]bool{"b": true, "a": false},
			map[string]uint64{"x": 7}, map[string]bool(nil), int64(-3), []int{1}}).Draw(t, "other")
	default:
		if rapid.Bool().Draw(t, "nil") {
			return map[string]any(nil)
		}
		m := map[string]any{}
		for range rapid.IntRange(0, 4).Draw(t, "members") {
			m[Text().Draw(t, "key")] = value(t, depth+1)
		}
		return m
	}
}

// TestEncodeIsMarshal: Encode writes what json.Marshal writes, whatever
// it writes by hand and whatever it hands to json.Marshal.
func TestEncodeIsMarshal(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		v := value(rt, 0)
		want, err := json.Marshal(v)
		if err != nil {
			rt.Skip("json.Marshal rejects it")
		}
		if got := trace.Encode(v); string(got) != string(want) && !(v == nil && got == nil) {
			rt.Fatalf("Encode(%#v) = %s, json.Marshal = %s", v, got, want)
		}
	})
}
