package allocjson

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// Unmarshal decodes data as json.Unmarshal(data, &out) does into a nil
// out *T, and returns out and json.Unmarshal's error. Task states,
// acknowledged states and task runners' local states, which a restoring
// client reads for every task of every alloc, are read by hand when data
// is exactly what the encoders of this package write (fields in order,
// ASCII strings with no \u escape but of ASCII, integers without
// fraction or exponent, no whitespace): such input has exactly one
// reading, and the hand reader gives json.Unmarshal's
// (TestUnmarshalIsJSON). Anything else, and every other type, goes to
// json.Unmarshal.
func Unmarshal[T any](data []byte) (*T, error) {
	var out *T
	switch p := any(&out).(type) {
	case **structs.TaskState:
		r := reader{b: data}
		if ts := r.taskState(); r.end() {
			*p = ts
			return out, nil
		}
	case **structs.AllocState:
		r := reader{b: data}
		if s := r.allocState(); r.end() {
			*p = s
			return out, nil
		}
	case **interfaces.LocalState:
		r := reader{b: data}
		if ls := r.localState(); r.end() {
			*p = ls
			return out, nil
		}
	}
	out = nil
	err := json.Unmarshal(data, &out)
	return out, err
}

// reader reads the canonical encoding of a value from b at i; at the
// first byte that is not canonical it sets bad, after which every read
// returns a zero value and reads nothing.
type reader struct {
	b   []byte
	i   int
	bad bool
}

// end reports whether everything was read and all of it was canonical.
func (r *reader) end() bool { return !r.bad && r.i == len(r.b) }

// lit reads s.
func (r *reader) lit(s string) {
	if r.bad || len(r.b)-r.i < len(s) || string(r.b[r.i:r.i+len(s)]) != s {
		r.bad = true
		return
	}
	r.i += len(s)
}

// null reads null if it comes next.
func (r *reader) null() bool {
	if !r.bad && len(r.b)-r.i >= 4 && string(r.b[r.i:r.i+4]) == "null" {
		r.i += 4
		return true
	}
	return false
}

// next reports whether c comes next, and reads it if so.
func (r *reader) next(c byte) bool {
	if !r.bad && r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// quoted reads a quoted string of ASCII characters and the escapes \",
// \\, \/, \b, \f, \n, \r, \t and \u00XX of ASCII, and returns it with its quotes, and whether
// it holds an escape.
func (r *reader) quoted() (raw []byte, escaped bool) {
	start := r.i
	if !r.next('"') {
		r.bad = true
		return nil, false
	}
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			return r.b[start:r.i], escaped
		case c == '\\' && r.i+1 < len(r.b) && unescapes[r.b[r.i+1]] != 0:
			r.i++
			escaped = true
		case c == '\\' && asciiU4(r.b[r.i+1:]) >= 0:
			r.i += 5
			escaped = true
		case c < 0x20 || c >= 0x80 || c == '\\':
			r.bad = true
			return nil, false
		}
	}
	r.bad = true
	return nil, false
}

// unescapes maps the character after a backslash to what the escape
// stands for (\uXXXX: asciiU4).
var unescapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// asciiU4 reads b as the uXXXX of a \uXXXX escape of an ASCII character
// and returns the character, or -1 if it is not one (json.Unmarshal
// reads the others).
func asciiU4(b []byte) int {
	if len(b) < 5 || b[0] != 'u' {
		return -1
	}
	n := 0
	for _, c := range b[1:5] {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | int(c-'A'+10)
		default:
			return -1
		}
	}
	if n >= 0x80 {
		return -1
	}
	return n
}

func (r *reader) str() string {
	q, escaped := r.quoted()
	if len(q) < 2 {
		return ""
	}
	q = q[1 : len(q)-1]
	if !escaped {
		return string(q)
	}
	out := make([]byte, 0, len(q))
	for i := 0; i < len(q); i++ {
		if q[i] == '\\' {
			if c := asciiU4(q[i+1:]); c >= 0 {
				out = append(out, byte(c))
				i += 5
				continue
			}
			i++
			out = append(out, unescapes[q[i]])
			continue
		}
		out = append(out, q[i])
	}
	return string(out)
}

// time reads a time as encoding/json does: by its UnmarshalJSON.
func (r *reader) time() time.Time {
	var t time.Time
	if q, _ := r.quoted(); r.bad || t.UnmarshalJSON(q) != nil {
		r.bad = true
	}
	return t
}

func (r *reader) boolean() bool {
	switch {
	case r.bad:
	case r.null():
		r.bad = true // null leaves a bool as it was: not canonical
	case len(r.b)-r.i >= 4 && string(r.b[r.i:r.i+4]) == "true":
		r.i += 4
		return true
	default:
		r.lit("false")
	}
	return false
}

// digits reads an integer literal without fraction or exponent,
// negative if signed allows.
func (r *reader) digits(signed bool) string {
	start := r.i
	if signed {
		r.next('-')
	}
	first := r.i
	for !r.bad && r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	if r.i == first || r.b[first] == '0' && r.i > first+1 {
		r.bad = true
		return ""
	}
	if r.i < len(r.b) && (r.b[r.i] == '.' || r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.bad = true
		return ""
	}
	return string(r.b[start:r.i])
}

// int reads an integer that fits in bits bits.
func (r *reader) int(bits int) int64 {
	s := r.digits(true)
	if r.bad {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		r.bad = true
	}
	return n
}

func (r *reader) uint() uint64 {
	s := r.digits(false)
	if r.bad {
		return 0
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		r.bad = true
	}
	return n
}

// object reads a JSON object's members, calling member after each key.
func (r *reader) object(member func(key string)) {
	r.lit("{")
	if r.next('}') {
		return
	}
	for !r.bad {
		key := r.str()
		r.lit(":")
		member(key)
		if r.next('}') {
			return
		}
		r.lit(",")
	}
}

func (r *reader) stringMap() map[string]string {
	if r.null() {
		return nil
	}
	m := map[string]string{}
	r.object(func(k string) { m[k] = r.str() })
	return m
}

func (r *reader) allocState() *structs.AllocState {
	if r.null() {
		return nil
	}
	s := &structs.AllocState{}
	r.lit(`{"ClientStatus":`)
	s.ClientStatus = r.str()
	r.lit(`,"ClientDescription":`)
	s.ClientDescription = r.str()
	r.lit(`,"TaskStates":`)
	if !r.null() {
		s.TaskStates = map[string]*structs.TaskState{}
		r.object(func(name string) { s.TaskStates[name] = r.taskState() })
	}
	// Statuses other than null are rare: json.Unmarshal reads them.
	r.lit(`,"DeploymentStatus":null,"NetworkStatus":null}`)
	return s
}

func (r *reader) taskState() *structs.TaskState {
	if r.null() {
		return nil
	}
	ts := &structs.TaskState{}
	r.lit(`{"State":`)
	ts.State = r.str()
	r.lit(`,"Failed":`)
	ts.Failed = r.boolean()
	r.lit(`,"Restarts":`)
	ts.Restarts = r.uint()
	r.lit(`,"LastRestart":`)
	ts.LastRestart = r.time()
	r.lit(`,"StartedAt":`)
	ts.StartedAt = r.time()
	r.lit(`,"FinishedAt":`)
	ts.FinishedAt = r.time()
	r.lit(`,"Events":`)
	if !r.null() {
		ts.Events = []*structs.TaskEvent{}
		r.lit("[")
		for !r.bad && !r.next(']') {
			if len(ts.Events) > 0 {
				r.lit(",")
			}
			ts.Events = append(ts.Events, r.taskEvent())
		}
	}
	r.lit(`,"Paused":`)
	ts.Paused = structs.TaskScheduleState(r.str())
	r.lit("}")
	return ts
}

func (r *reader) taskEvent() *structs.TaskEvent {
	if r.null() {
		return nil
	}
	e := &structs.TaskEvent{}
	r.lit(`{"Type":`)
	e.Type = r.str()
	r.lit(`,"Time":`)
	e.Time = r.int(64)
	r.lit(`,"Message":`)
	e.Message = r.str()
	r.lit(`,"DisplayMessage":`)
	e.DisplayMessage = r.str()
	r.lit(`,"Details":`)
	e.Details = r.stringMap()
	r.lit(`,"FailsTask":`)
	e.FailsTask = r.boolean()
	r.lit(`,"RestartReason":`)
	e.RestartReason = r.str()
	r.lit(`,"SetupError":`)
	e.SetupError = r.str()
	r.lit(`,"DriverError":`)
	e.DriverError = r.str()
	r.lit(`,"ExitCode":`)
	e.ExitCode = int(r.int(strconv.IntSize))
	r.lit(`,"Signal":`)
	e.Signal = int(r.int(strconv.IntSize))
	r.lit(`,"KillReason":`)
	e.KillReason = r.str()
	r.lit(`,"KillTimeout":`)
	e.KillTimeout = time.Duration(r.int(64))
	r.lit(`,"KillError":`)
	e.KillError = r.str()
	r.lit(`,"StartDelay":`)
	e.StartDelay = r.int(64)
	r.lit(`,"FailedSibling":`)
	e.FailedSibling = r.str()
	r.lit(`,"TaskSignal":`)
	e.TaskSignal = r.str()
	r.lit(`,"TaskSignalReason":`)
	e.TaskSignalReason = r.str()
	r.lit(`,"ValidationError":`)
	e.ValidationError = r.str()
	r.lit("}")
	return e
}
