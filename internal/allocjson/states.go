package allocjson

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/allocsim/allocsim/model/structs"
)

// AppendTaskState and AppendAllocState append json.Marshal's bytes for a
// task state and an acknowledged state to b (Alloc returns an alloc's),
// written field by field instead of by reflection: a client writes one
// at every task state change and every acknowledgement, and
// encoding/json's reflective encoding of their events (sorting each
// Details map's keys) was most of the state DB's CPU in
// BenchmarkClients100x50. Whatever the hand encoder does not write
// exactly as encoding/json would (a string with a character JSON
// escapes, a time MarshalJSON rejects) sends the whole value to
// json.Marshal, so the bytes are json.Marshal's in every case
// (TestHandEncodingIsMarshal). On error b is returned as it was.
// Appending lets the state DB encode into a scratch buffer that its
// memory store copies into the memory of the value it replaces.
//
// reuse, if not nil, holds encodings the encoder copies instead of
// writing them again (Reuse). AppendTaskState also appends to spans, if
// not nil, where each of ts's events lies in the result (none when the
// whole value went to json.Marshal), so that a caller can offer those
// bytes back through a Reuse.
func AppendTaskState(b []byte, allocID, task string, ts *structs.TaskState, reuse Reuse, spans *[]EventSpan) ([]byte, error) {
	n, k := len(b), 0
	if spans != nil {
		k = len(*spans)
	}
	out, ok := appendTaskState(b, task, ts, reuser{r: reuse, alloc: allocID}, spans)
	if ok {
		return out, nil
	}
	if spans != nil {
		*spans = (*spans)[:k]
	}
	return appendMarshal(out[:n], ts)
}

// AppendAllocState appends json.Marshal(s)'s bytes to b (see
// AppendTaskState).
func AppendAllocState(b []byte, allocID string, s *structs.AllocState, reuse Reuse) ([]byte, error) {
	return appendHand(b, s, func(b []byte) ([]byte, bool) { return appendAllocState(b, s, reuser{r: reuse, alloc: allocID}) })
}

// Reuse is what an encoder may copy instead of writing: the encodings
// (json.Marshal's bytes) of task states and events that nothing ever
// changes, by the alloc and task they belong to. Each method appends the
// encoding it has for that pointer to b and reports true, or returns b
// as it was and false; it copies before it returns, so its holder may
// reuse the memory of an encoding it no longer offers. The state DB
// offers the task states a task runner put frozen
// (state.DB.PutFrozenTaskState): the alloc and the acknowledged state
// written next hold the very same task states, and the task's next
// state the same events but one.
type Reuse interface {
	AppendTaskState(b []byte, allocID, task string, ts *structs.TaskState) ([]byte, bool)
	AppendEvent(b []byte, allocID, task string, e *structs.TaskEvent) ([]byte, bool)
}

// reuser is a Reuse (or none) with the alloc whose states are encoded;
// with refs, r is a Lender whose encodings it references there instead
// of copying them (refs.go).
type reuser struct {
	r     Reuse
	alloc string
	refs  *[]Ref
}

func (u reuser) taskState(b []byte, task string, ts *structs.TaskState) ([]byte, bool) {
	switch {
	case u.r == nil:
		return b, false
	case u.refs != nil:
		return u.lend(b, u.r.(Lender).TaskStateEnc(u.alloc, task, ts))
	}
	return u.r.AppendTaskState(b, u.alloc, task, ts)
}

func (u reuser) event(b []byte, task string, e *structs.TaskEvent) ([]byte, bool) {
	switch {
	case u.r == nil:
		return b, false
	case u.refs != nil:
		return u.lend(b, u.r.(Lender).EventEnc(u.alloc, task, e))
	}
	return u.r.AppendEvent(b, u.alloc, task, e)
}

// EventSpan is where one event's encoding lies in an encoded task
// state: b[Start:End].
type EventSpan struct {
	Event      *structs.TaskEvent
	Start, End int
}

// appendHand appends what write writes to b, or, if that is not exactly
// encoding/json's encoding of v, json.Marshal(v).
func appendHand(b []byte, v any, write func([]byte) ([]byte, bool)) ([]byte, error) {
	n := len(b)
	out, ok := write(b)
	if ok {
		return out, nil
	}
	return appendMarshal(out[:n], v)
}

// appendMarshal appends json.Marshal(v) to b; on error b is returned as
// it was.
func appendMarshal(b []byte, v any) ([]byte, error) {
	enc, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, enc...), nil
}

// encodeBufs holds the buffers Alloc and ListLen write in.
var encodeBufs = sync.Pool{New: func() any {
	// Most encodings fit: a fresh buffer does not grow step by step.
	b := make([]byte, 0, 8<<10)
	return &b
}}

// maxPooledBuf caps the buffers kept for reuse.
const maxPooledBuf = 64 << 10

// pooled runs write on an empty pooled buffer and returns a copy of what
// it wrote, of exactly its length, as json.Marshal's bytes are (the
// state DB's memo and store keep them).
func pooled(write func([]byte) ([]byte, error)) ([]byte, error) {
	buf := encodeBufs.Get().(*[]byte)
	b, err := write((*buf)[:0])
	var out []byte
	if err == nil {
		// make then copy, which the compiler allocates without zeroing;
		// append to nil cleared the size class's tail first (6 % of a
		// state-heavy check's CPU).
		out = make([]byte, len(b))
		copy(out, b)
	}
	if cap(b) <= maxPooledBuf {
		*buf = b
		encodeBufs.Put(buf)
	}
	return out, err
}

func appendAllocState(b []byte, s *structs.AllocState, reuse reuser) ([]byte, bool) {
	if s == nil {
		return append(b, "null"...), true
	}
	ok := true
	b = append(b, `{"ClientStatus":`...)
	b, ok = appendString(b, s.ClientStatus, ok)
	b = append(b, `,"ClientDescription":`...)
	b, ok = appendString(b, s.ClientDescription, ok)
	b = append(b, `,"TaskStates":`...)
	b, ok = appendTaskStates(b, s.TaskStates, reuse, ok)
	if !ok {
		return b, false
	}
	b, ok = appendStatuses(b, s.DeploymentStatus, s.NetworkStatus)
	return append(b, '}'), ok
}

// appendTaskStates writes a TaskStates map, its keys sorted.
func appendTaskStates(b []byte, states map[string]*structs.TaskState, reuse reuser, ok bool) ([]byte, bool) {
	if states == nil {
		return append(b, "null"...), ok
	}
	b = append(b, '{')
	var inline [8]string
	for i, name := range sortedKeys(inline[:0], states) {
		if i > 0 {
			b = append(b, ',')
		}
		b, ok = appendString(b, name, ok)
		b = append(b, ':')
		var tsOK bool
		b, tsOK = appendTaskState(b, name, states[name], reuse, nil)
		ok = ok && tsOK
	}
	return append(b, '}'), ok
}

// appendStatuses writes the DeploymentStatus and NetworkStatus fields
// (each with its leading comma) as encoding/json does: they are rare and
// small, so these are encoding/json's own bytes.
func appendStatuses(b []byte, ds *structs.AllocDeploymentStatus, ns *structs.AllocNetworkStatus) ([]byte, bool) {
	for _, f := range []struct {
		key string
		v   any
	}{{`,"DeploymentStatus":`, ds}, {`,"NetworkStatus":`, ns}} {
		enc, err := json.Marshal(f.v)
		if err != nil {
			return b, false
		}
		b = append(append(b, f.key...), enc...)
	}
	return b, true
}

// appendTaskState writes ts, copying from reuse what it has (the whole
// state when recording no spans, else its events).
func appendTaskState(b []byte, task string, ts *structs.TaskState, reuse reuser, spans *[]EventSpan) ([]byte, bool) {
	if ts == nil {
		return append(b, "null"...), true
	}
	if spans == nil {
		if out, ok := reuse.taskState(b, task, ts); ok {
			return out, true
		}
	}
	ok := true
	b = append(b, `{"State":`...)
	b, ok = appendString(b, ts.State, ok)
	b = append(b, `,"Failed":`...)
	b = strconv.AppendBool(b, ts.Failed)
	b = append(b, `,"Restarts":`...)
	b = strconv.AppendUint(b, ts.Restarts, 10)
	b = append(b, `,"LastRestart":`...)
	b, ok = appendTime(b, ts.LastRestart, ok)
	b = append(b, `,"StartedAt":`...)
	b, ok = appendTime(b, ts.StartedAt, ok)
	b = append(b, `,"FinishedAt":`...)
	b, ok = appendTime(b, ts.FinishedAt, ok)
	b = append(b, `,"Events":`...)
	if ts.Events == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range ts.Events {
			if i > 0 {
				b = append(b, ',')
			}
			start := len(b)
			var reused bool
			if b, reused = reuse.event(b, task, e); !reused {
				b, ok = appendTaskEvent(b, e, ok)
			}
			if spans != nil {
				*spans = append(*spans, EventSpan{Event: e, Start: start, End: len(b)})
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"Paused":`...)
	b, ok = appendString(b, string(ts.Paused), ok)
	return append(b, '}'), ok
}

func appendTaskEvent(b []byte, e *structs.TaskEvent, ok bool) ([]byte, bool) {
	if e == nil {
		return append(b, "null"...), ok
	}
	b = append(b, `{"Type":`...)
	b, ok = appendString(b, e.Type, ok)
	b = append(b, `,"Time":`...)
	b = strconv.AppendInt(b, e.Time, 10)
	b = append(b, `,"Message":`...)
	b, ok = appendString(b, e.Message, ok)
	b = append(b, `,"DisplayMessage":`...)
	b, ok = appendString(b, e.DisplayMessage, ok)
	b = append(b, `,"Details":`...)
	b, ok = appendStringMap(b, e.Details, ok)
	b = append(b, `,"FailsTask":`...)
	b = strconv.AppendBool(b, e.FailsTask)
	b = append(b, `,"RestartReason":`...)
	b, ok = appendString(b, e.RestartReason, ok)
	b = append(b, `,"SetupError":`...)
	b, ok = appendString(b, e.SetupError, ok)
	b = append(b, `,"DriverError":`...)
	b, ok = appendString(b, e.DriverError, ok)
	b = append(b, `,"ExitCode":`...)
	b = strconv.AppendInt(b, int64(e.ExitCode), 10)
	b = append(b, `,"Signal":`...)
	b = strconv.AppendInt(b, int64(e.Signal), 10)
	b = append(b, `,"KillReason":`...)
	b, ok = appendString(b, e.KillReason, ok)
	b = append(b, `,"KillTimeout":`...)
	b = strconv.AppendInt(b, int64(e.KillTimeout), 10)
	b = append(b, `,"KillError":`...)
	b, ok = appendString(b, e.KillError, ok)
	b = append(b, `,"StartDelay":`...)
	b = strconv.AppendInt(b, e.StartDelay, 10)
	b = append(b, `,"FailedSibling":`...)
	b, ok = appendString(b, e.FailedSibling, ok)
	b = append(b, `,"TaskSignal":`...)
	b, ok = appendString(b, e.TaskSignal, ok)
	b = append(b, `,"TaskSignalReason":`...)
	b, ok = appendString(b, e.TaskSignalReason, ok)
	b = append(b, `,"ValidationError":`...)
	b, ok = appendString(b, e.ValidationError, ok)
	return append(b, '}'), ok
}

// sortedKeys appends m's keys to buf and sorts them, as encoding/json
// orders a map's keys; a caller passes a stack array's empty slice, so
// that a small map's keys take no allocation.
func sortedKeys[V any](buf []string, m map[string]V) []string {
	for k := range m {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}

// appendStringMap writes m with its keys sorted, as encoding/json does.
func appendStringMap(b []byte, m map[string]string, ok bool) ([]byte, bool) {
	if m == nil {
		return append(b, "null"...), ok
	}
	b = append(b, '{')
	var inline [8]string
	for i, k := range sortedKeys(inline[:0], m) {
		if i > 0 {
			b = append(b, ',')
		}
		b, ok = appendString(b, k, ok)
		b = append(b, ':')
		b, ok = appendString(b, m[k], ok)
	}
	return append(b, '}'), ok
}

// appendString writes s quoted as encoding/json does when s is ASCII
// without control characters other than newline, carriage return and
// tab: `"` and `\` escaped with a backslash, those three as \n, \r, \t,
// and the HTML characters <, >, & as \u003c, \u003e, \u0026. Any other
// string (DEL, other control characters, non-ASCII) clears ok (the caller
// falls back to json.Marshal); once ok is false nothing is checked any
// more.
func appendString(b []byte, s string, ok bool) ([]byte, bool) {
	b = append(b, '"')
	if !ok {
		b = append(b, s...)
		return append(b, '"'), false
	}
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
			continue
		}
		esc := stringEscapes[c]
		if esc == "" {
			b = append(b, s[start:]...)
			return append(b, '"'), false
		}
		b = append(b, s[start:i]...)
		b = append(b, esc...)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"'), ok
}

// stringEscapes are encoding/json's escapes that appendString writes.
var stringEscapes = [256]string{
	'"': `\"`, '\\': `\\`, '\n': `\n`, '\r': `\r`, '\t': `\t`,
	'<': `\u003c`, '>': `\u003e`, '&': `\u0026`,
}

// appendTime writes t as its MarshalJSON does (RFC 3339 with nanoseconds,
// quoted); a time MarshalJSON rejects clears ok.
func appendTime(b []byte, t time.Time, ok bool) ([]byte, bool) {
	b = append(b, '"')
	if enc, err := t.AppendText(b); err == nil {
		b = enc
	} else {
		ok = false // AppendText returned nil: b stays as it was
	}
	return append(b, '"'), ok
}
