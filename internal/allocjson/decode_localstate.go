package allocjson

import (
	"encoding/base64"
	"strconv"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// localState reads a task runner's local state as AppendLocalState
// writes it: the hooks' states by hand, then the driver network and the
// task handle as json.Marshal writes them (fields in order, map keys
// sorted, DriverState in padded standard base64). A task runner reads
// its local state on every restore, and json.Unmarshal's reflective
// decoding of it was 2 % of a conformance check's CPU.
//
// Maps are read as json.Unmarshal reads them: null is a nil map, {} an
// empty one, and of a key given twice the last value counts (each value
// is decoded afresh, so nothing of the first one is left).
func (r *reader) localState() *interfaces.LocalState {
	if r.null() {
		return nil
	}
	ls := &interfaces.LocalState{}
	r.lit(`{"Hooks":`)
	if !r.null() {
		ls.Hooks = map[string]*interfaces.HookState{}
		r.object(func(name string) { ls.Hooks[name] = r.hookState() })
	}
	r.lit(`,"DriverNetwork":`)
	ls.DriverNetwork = r.driverNetwork()
	r.lit(`,"TaskHandle":`)
	ls.TaskHandle = r.taskHandle()
	r.lit(`,"RunComplete":`)
	ls.RunComplete = r.boolean()
	r.lit("}")
	return ls
}

func (r *reader) hookState() *interfaces.HookState {
	if r.null() {
		return nil
	}
	h := &interfaces.HookState{}
	r.lit(`{"PrestartDone":`)
	h.PrestartDone = r.boolean()
	r.lit(`,"Data":`)
	h.Data = r.stringMap()
	r.lit(`,"Env":`)
	h.Env = r.stringMap()
	r.lit("}")
	return h
}

func (r *reader) driverNetwork() *interfaces.DriverNetwork {
	if r.null() {
		return nil
	}
	n := &interfaces.DriverNetwork{}
	r.lit(`{"PortMap":`)
	if !r.null() {
		n.PortMap = map[string]int{}
		r.object(func(label string) { n.PortMap[label] = int(r.int(strconv.IntSize)) })
	}
	r.lit(`,"IP":`)
	n.IP = r.str()
	r.lit(`,"AutoAdvertise":`)
	n.AutoAdvertise = r.boolean()
	r.lit("}")
	return n
}

func (r *reader) taskHandle() *drivers.TaskHandle {
	if r.null() {
		return nil
	}
	h := &drivers.TaskHandle{}
	r.lit(`{"Version":`)
	h.Version = int(r.int(strconv.IntSize))
	r.lit(`,"Driver":`)
	h.Driver = r.str()
	r.lit(`,"TaskID":`)
	h.TaskID = r.str()
	r.lit(`,"DriverState":`)
	if !r.null() {
		h.DriverState = r.base64()
	}
	r.lit("}")
	return h
}

// base64 reads a quoted string of padded standard base64 into a new
// slice, as json.Unmarshal reads a []byte: "" is an empty, non-nil
// slice. json.Unmarshal unquotes first and its decoder skips \r and \n;
// json.Marshal writes neither nor any escape, so a string with an escape
// is not canonical, and one without cannot hold a raw \r or \n (quoted
// rejects control characters): what the decoder reads here is exactly
// what json.Unmarshal's reads.
func (r *reader) base64() []byte {
	q, escaped := r.quoted()
	if r.bad || escaped {
		r.bad = true
		return nil
	}
	q = q[1 : len(q)-1]
	b := make([]byte, base64.StdEncoding.DecodedLen(len(q)))
	n, err := base64.StdEncoding.Decode(b, q)
	if err != nil {
		r.bad = true
		return nil
	}
	return b[:n]
}
