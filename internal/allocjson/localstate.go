package allocjson

import (
	"encoding/base64"
	"strconv"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// AppendLocalState appends json.Marshal(ls)'s bytes to b (see
// AppendTaskState), by hand. encoding/json spent most of a local state's
// encoding on the hook maps (one allocation per key and value visited, 10 %
// of the allocations of BenchmarkClients100x50), and its reflective
// encoding of the driver network and task handle, written on every
// local_state write, was 1 % of a conformance check's CPU. Anything the
// hand encoder does not write as encoding/json would falls back to
// json.Marshal(ls).
func AppendLocalState(b []byte, ls *interfaces.LocalState) ([]byte, error) {
	if ls == nil {
		return appendMarshal(b, ls)
	}
	return appendHand(b, ls, func(b []byte) ([]byte, bool) { return appendLocalState(b, ls) })
}

func appendLocalState(b []byte, ls *interfaces.LocalState) ([]byte, bool) {
	ok := true
	b = append(b, `{"Hooks":`...)
	if ls.Hooks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		var inline [16]string
		for i, name := range sortedKeys(inline[:0], ls.Hooks) {
			if i > 0 {
				b = append(b, ',')
			}
			b, ok = appendString(b, name, ok)
			b = append(b, ':')
			b, ok = appendHookState(b, ls.Hooks[name], ok)
		}
		b = append(b, '}')
	}
	b = append(b, `,"DriverNetwork":`...)
	b, ok = appendDriverNetwork(b, ls.DriverNetwork, ok)
	b = append(b, `,"TaskHandle":`...)
	b, ok = appendTaskHandle(b, ls.TaskHandle, ok)
	b = append(b, `,"RunComplete":`...)
	b = strconv.AppendBool(b, ls.RunComplete)
	return append(b, '}'), ok
}

// appendDriverNetwork writes n as encoding/json does: PortMap's keys
// sorted, its ints in decimal.
func appendDriverNetwork(b []byte, n *interfaces.DriverNetwork, ok bool) ([]byte, bool) {
	if n == nil {
		return append(b, "null"...), ok
	}
	b = append(b, `{"PortMap":`...)
	if n.PortMap == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		var inline [8]string
		for i, k := range sortedKeys(inline[:0], n.PortMap) {
			if i > 0 {
				b = append(b, ',')
			}
			b, ok = appendString(b, k, ok)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(n.PortMap[k]), 10)
		}
		b = append(b, '}')
	}
	b = append(b, `,"IP":`...)
	b, ok = appendString(b, n.IP, ok)
	b = append(b, `,"AutoAdvertise":`...)
	b = strconv.AppendBool(b, n.AutoAdvertise)
	return append(b, '}'), ok
}

// appendTaskHandle writes h as encoding/json does: DriverState, a
// []byte, in standard base64 with padding (null when nil).
func appendTaskHandle(b []byte, h *drivers.TaskHandle, ok bool) ([]byte, bool) {
	if h == nil {
		return append(b, "null"...), ok
	}
	b = append(b, `{"Version":`...)
	b = strconv.AppendInt(b, int64(h.Version), 10)
	b = append(b, `,"Driver":`...)
	b, ok = appendString(b, h.Driver, ok)
	b = append(b, `,"TaskID":`...)
	b, ok = appendString(b, h.TaskID, ok)
	b = append(b, `,"DriverState":`...)
	if h.DriverState == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, h.DriverState)
		b = append(b, '"')
	}
	return append(b, '}'), ok
}

func appendHookState(b []byte, h *interfaces.HookState, ok bool) ([]byte, bool) {
	if h == nil {
		return append(b, "null"...), ok
	}
	b = append(b, `{"PrestartDone":`...)
	b = strconv.AppendBool(b, h.PrestartDone)
	b = append(b, `,"Data":`...)
	b, ok = appendStringMap(b, h.Data, ok)
	b = append(b, `,"Env":`...)
	b, ok = appendStringMap(b, h.Env, ok)
	return append(b, '}'), ok
}
