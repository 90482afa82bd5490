package state

import "github.com/allocsim/allocsim/internal/allocjson"

// value is what the DB hands a backend to store: flat bytes, or a rope
// (allocjson.Ref) of the bytes an encoder wrote and encodings it
// referenced, which nothing ever changes (the task states put frozen, a
// memoised job). The memory store keeps a rope as it is, so that an
// alloc and its acknowledged state do not each hold a copy of the task
// states the store already keeps; bbolt stores the spliced bytes.
type value struct {
	flat []byte
	refs []allocjson.Ref
}

// flatValue is b as a value.
func flatValue(b []byte) value { return value{flat: b} }

// bytes returns the whole encoding: flat itself when v has no refs (nil
// for the zero value), else a new splice.
func (v value) bytes() []byte {
	if len(v.refs) == 0 {
		return v.flat
	}
	return allocjson.Splice(make([]byte, 0, allocjson.RopeLen(v.flat, v.refs)), v.flat, v.refs)
}

// clone returns the whole encoding in memory of its own (nil for the
// zero value).
func (v value) clone() []byte {
	if len(v.refs) == 0 {
		if v.flat == nil {
			return nil
		}
		return append(make([]byte, 0, len(v.flat)), v.flat...)
	}
	return v.bytes()
}
