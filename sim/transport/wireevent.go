package transport

import (
	"reflect"
	"time"
	"unicode/utf8"

	"github.com/allocsim/allocsim/model/structs"
)

var (
	taskEventType      = reflect.TypeFor[structs.TaskEvent]()
	taskStateType      = reflect.TypeFor[structs.TaskState]()
	taskEventSliceType = reflect.TypeFor[[]*structs.TaskEvent]()
)

// copyTaskEvent is the copier of structs.TaskEvent without reflection:
// the bulk of a pull reply is task events (every task keeps its last 10).
// It gives what the field-by-field copier gives (TestWireCopyMatchesJSON,
// TestTaskEventCopierMatchesReflective): every field as is, Details copied
// as a map[string]string, and the whole event through JSON when a string
// is not valid UTF-8 (JSON replaces the bad bytes).
func copyTaskEvent(dst, src reflect.Value, depth int) error {
	s, d := addrOf[structs.TaskEvent](src), dst.Addr().Interface().(*structs.TaskEvent)
	ok, err := cloneTaskEvent(d, s, depth)
	if !ok {
		*d = structs.TaskEvent{}
		return jsonCopy(dst, src, depth)
	}
	return err
}

// addrOf is a pointer to src's value of type T: its address when it has
// one, else a copy's (the copiers only read it).
func addrOf[T any](src reflect.Value) *T {
	if src.CanAddr() {
		return src.Addr().Interface().(*T)
	}
	v := src.Interface().(T)
	return &v
}

// cloneTaskEvent copies *s into the zero *d as copyTaskEvent does; ok is
// false, and *d to be reset, when the event must go through JSON.
func cloneTaskEvent(d, s *structs.TaskEvent, depth int) (ok bool, err error) {
	for _, str := range [...]string{s.Type, s.Message, s.DisplayMessage, s.RestartReason, s.SetupError, s.DriverError,
		s.KillReason, s.KillError, s.FailedSibling, s.TaskSignal, s.TaskSignalReason, s.ValidationError} {
		if !utf8.ValidString(str) {
			return false, nil
		}
	}
	*d = *s
	d.Details = nil
	if s.Details != nil {
		if depth >= maxWireDepth {
			return true, errTooDeep
		}
		m, ok := cloneStringMap(s.Details)
		if !ok {
			return false, nil
		}
		d.Details = m
	}
	return true, nil
}

// copyTaskState is the copier of structs.TaskState without reflection,
// giving what the field-by-field copier gives (TestTaskStateCopierMatchesReflective):
// the times as copyTime copies them, the events in one backing array
// (a fresh event each, as JSON decodes them) in a slice of the capacity
// JSON's decoder leaves, and the whole state through JSON when a string
// or a time is one JSON does not keep as it is.
func copyTaskState(dst, src reflect.Value, depth int) error {
	s := addrOf[structs.TaskState](src)
	if !utf8.ValidString(s.State) || !utf8.ValidString(string(s.Paused)) ||
		!plainTime(s.LastRestart) || !plainTime(s.StartedAt) || !plainTime(s.FinishedAt) {
		return jsonCopy(dst, src, depth)
	}
	d := dst.Addr().Interface().(*structs.TaskState)
	*d = *s
	d.LastRestart, d.StartedAt, d.FinishedAt = s.LastRestart.Round(0), s.StartedAt.Round(0), s.FinishedAt.Round(0)
	d.Events = nil
	if s.Events == nil {
		return nil
	}
	// The slice, its pointers and their events are entered at depth,
	// depth+1 and depth+2, as sliceCopier and pointerCopier enter them.
	if depth >= maxWireDepth {
		return errTooDeep
	}
	n := len(s.Events)
	events := make([]*structs.TaskEvent, n, grownCap(taskEventSliceType, n))
	live := 0
	for _, e := range s.Events {
		if e != nil {
			live++
		}
	}
	if live > 0 && depth+1 >= maxWireDepth {
		return errTooDeep
	}
	backing := make([]structs.TaskEvent, live)
	for i, e := range s.Events {
		if e == nil {
			continue
		}
		ev := &backing[0]
		backing = backing[1:]
		ok, err := cloneTaskEvent(ev, e, depth+2)
		if !ok {
			*ev = structs.TaskEvent{}
			err = jsonCopy(reflect.ValueOf(ev).Elem(), reflect.ValueOf(e).Elem(), depth+2)
		}
		if err != nil {
			return err
		}
		events[i] = ev
	}
	d.Events = events
	return nil
}

// plainTime: a time copyTime keeps as it is (UTC, years 0-9999).
func plainTime(t time.Time) bool {
	y := t.Year()
	return t.Location() == time.UTC && y >= 0 && y <= 9999
}
