package transport

import (
	"reflect"
	"unicode/utf8"

	"github.com/allocsim/allocsim/model/structs"
)

var taskEventType = reflect.TypeFor[structs.TaskEvent]()

// copyTaskEvent is the copier of structs.TaskEvent without reflection:
// the bulk of a pull reply is task events (every task keeps its last 10).
// It gives what the field-by-field copier gives (TestWireCopyMatchesJSON,
// TestTaskEventCopierMatchesReflective): every field as is, Details copied
// as a map[string]string, and the whole event through JSON when a string
// is not valid UTF-8 (JSON replaces the bad bytes).
func copyTaskEvent(dst, src reflect.Value, depth int) error {
	var s *structs.TaskEvent
	if src.CanAddr() {
		s = src.Addr().Interface().(*structs.TaskEvent)
	} else {
		v := src.Interface().(structs.TaskEvent)
		s = &v
	}
	for _, str := range [...]string{s.Type, s.Message, s.DisplayMessage, s.RestartReason, s.SetupError, s.DriverError,
		s.KillReason, s.KillError, s.FailedSibling, s.TaskSignal, s.TaskSignalReason, s.ValidationError} {
		if !utf8.ValidString(str) {
			return jsonCopy(dst, src, depth)
		}
	}
	d := dst.Addr().Interface().(*structs.TaskEvent)
	*d = *s
	d.Details = nil
	if s.Details != nil {
		if depth >= maxWireDepth {
			return errTooDeep
		}
		m, ok := cloneStringMap(s.Details)
		if !ok {
			return jsonCopy(dst, src, depth)
		}
		d.Details = m
	}
	return nil
}
