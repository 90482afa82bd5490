package allocjson

// AppendString appends s as encoding/json writes a string, for the
// strings appendString handles (ASCII without control characters other
// than newline, carriage return and tab); any other string clears ok
// (and once ok is false nothing is checked any more): the caller falls
// back to encoding/json.
func AppendString(b []byte, s string, ok bool) ([]byte, bool) { return appendString(b, s, ok) }

// AppendStringMap appends m as encoding/json writes it (null, or its
// keys sorted), with AppendString's rule for its strings.
func AppendStringMap(b []byte, m map[string]string, ok bool) ([]byte, bool) {
	return appendStringMap(b, m, ok)
}
