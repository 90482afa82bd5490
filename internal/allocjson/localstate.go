package allocjson

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// AppendLocalState appends json.Marshal(ls)'s bytes to b (see
// AppendTaskState): the hooks' states by hand, the driver network and
// task handle by encoding/json (a value encodes alike alone and nested).
// encoding/json spent most of a local state's encoding on the hook maps:
// one allocation per key and value visited, 10 % of the allocations of
// BenchmarkClients100x50. Anything the hand encoder does not write as
// encoding/json would falls back to json.Marshal(ls).
func AppendLocalState(b []byte, ls *interfaces.LocalState) ([]byte, error) {
	if ls == nil {
		return appendMarshal(b, ls)
	}
	network, err := json.Marshal(ls.DriverNetwork)
	if err != nil {
		return appendMarshal(b, ls)
	}
	handle, err := json.Marshal(ls.TaskHandle)
	if err != nil {
		return appendMarshal(b, ls)
	}
	return appendHand(b, ls, func(b []byte) ([]byte, bool) { return appendLocalState(b, ls, network, handle) })
}

func appendLocalState(b []byte, ls *interfaces.LocalState, network, handle []byte) ([]byte, bool) {
	ok := true
	b = append(b, `{"Hooks":`...)
	if ls.Hooks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		var inline [16]string
		names := inline[:0]
		for name := range ls.Hooks {
			names = append(names, name)
		}
		slices.Sort(names)
		for i, name := range names {
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
	b = append(b, network...)
	b = append(b, `,"TaskHandle":`...)
	b = append(b, handle...)
	b = append(b, `,"RunComplete":`...)
	b = strconv.AppendBool(b, ls.RunComplete)
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
