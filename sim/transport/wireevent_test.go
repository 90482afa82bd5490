package transport

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// TestTaskEventCopierMatchesReflective: copyTaskEvent gives exactly what
// the field-by-field copier gives for the same event, and shares nothing
// with its source; both match JSON (mustCopyLikeJSON).
func TestTaskEventCopierMatchesReflective(t *testing.T) {
	b := copierBuilder{building: map[reflect.Type]*copyFunc{}}
	reflective := b.structCopier(taskEventType)
	str := rapid.OneOf(rapid.String(), rapid.SampledFrom([]string{"", "ok", "a\xffb", "\xc3"}))
	rapid.Check(t, func(t *rapid.T) {
		e := structs.TaskEvent{
			Type: str.Draw(t, "type"), Time: rapid.Int64().Draw(t, "time"), Message: str.Draw(t, "message"),
			DisplayMessage: str.Draw(t, "display"), FailsTask: rapid.Bool().Draw(t, "fails"),
			KillReason: str.Draw(t, "kill"), ExitCode: rapid.Int().Draw(t, "exit"), Signal: rapid.Int().Draw(t, "signal"),
		}
		switch rapid.IntRange(0, 2).Draw(t, "details") {
		case 1:
			e.Details = map[string]string{}
		case 2:
			e.Details = rapid.MapOf(str, str).Draw(t, "map")
		}
		var fast, slow structs.TaskEvent
		src := reflect.ValueOf(&e).Elem()
		errFast := copyTaskEvent(reflect.ValueOf(&fast).Elem(), src, 0)
		errSlow := reflective(reflect.ValueOf(&slow).Elem(), src, 0)
		if (errFast == nil) != (errSlow == nil) || !reflect.DeepEqual(fast, slow) {
			t.Fatalf("copyTaskEvent gave %#v (%v), the reflective copier %#v (%v)", fast, errFast, slow, errSlow)
		}
		if e.Details != nil && fast.Details != nil {
			fast.Details["\x00probe"] = "x"
			if _, shared := e.Details["\x00probe"]; shared {
				t.Fatal("the copy shares Details with its source")
			}
		}
	})
	mustCopyLikeJSON(t, &structs.TaskState{Events: []*structs.TaskEvent{{Type: "Started", Details: map[string]string{"a": "\xff"}}, nil}})
}

// TestTaskStateCopierMatchesReflective: copyTaskState gives exactly what
// the field-by-field copier gives (values and slice capacities), shares
// no event or map with its source, and falls back to JSON where the
// reflective copier does.
func TestTaskStateCopierMatchesReflective(t *testing.T) {
	b := copierBuilder{building: map[reflect.Type]*copyFunc{}}
	reflective := b.structCopier(taskStateType)
	str := rapid.OneOf(rapid.String(), rapid.SampledFrom([]string{"", "running", "a\xffb"}))
	when := rapid.SampledFrom([]time.Time{{}, time.Date(2024, 6, 14, 6, 0, 0, 5, time.UTC),
		time.Date(2024, 6, 14, 6, 0, 0, 0, time.FixedZone("x", 3600)), time.Now().UTC(), time.Date(10001, 1, 1, 0, 0, 0, 0, time.UTC)})
	rapid.Check(t, func(t *rapid.T) {
		s := structs.TaskState{
			State: str.Draw(t, "state"), Failed: rapid.Bool().Draw(t, "failed"), Restarts: rapid.Uint64().Draw(t, "restarts"),
			LastRestart: when.Draw(t, "last"), StartedAt: when.Draw(t, "started"), FinishedAt: when.Draw(t, "finished"),
			Paused: structs.TaskScheduleState(str.Draw(t, "paused")),
		}
		switch rapid.IntRange(0, 2).Draw(t, "events") {
		case 1:
			s.Events = []*structs.TaskEvent{}
		case 2:
			for i := range rapid.IntRange(1, 12).Draw(t, "n") {
				if rapid.IntRange(0, 5).Draw(t, fmt.Sprint("nil", i)) == 0 {
					s.Events = append(s.Events, nil)
					continue
				}
				e := &structs.TaskEvent{Type: str.Draw(t, fmt.Sprint("type", i)), Time: rapid.Int64().Draw(t, fmt.Sprint("time", i))}
				if rapid.Bool().Draw(t, fmt.Sprint("details", i)) {
					e.Details = rapid.MapOf(str, str).Draw(t, fmt.Sprint("map", i))
				}
				s.Events = append(s.Events, e)
			}
		}
		var fast, slow structs.TaskState
		src := reflect.ValueOf(&s).Elem()
		errFast := copyTaskState(reflect.ValueOf(&fast).Elem(), src, 0)
		errSlow := reflective(reflect.ValueOf(&slow).Elem(), src, 0)
		if (errFast == nil) != (errSlow == nil) {
			t.Fatalf("copyTaskState's error %v, the reflective copier's %v", errFast, errSlow)
		}
		if errFast != nil {
			return // wireCopy declines the whole value: what was copied is dropped
		}
		if !reflect.DeepEqual(fast, slow) || cap(fast.Events) != cap(slow.Events) {
			t.Fatalf("copyTaskState gave %#v, the reflective copier %#v", fast, slow)
		}
		for i, e := range fast.Events {
			if e != nil && e == s.Events[i] {
				t.Fatalf("event %d is shared with the source", i)
			}
			if e != nil && e.Details != nil {
				e.Details["\x00probe"] = "x"
				if _, shared := s.Events[i].Details["\x00probe"]; shared {
					t.Fatalf("event %d shares Details with its source", i)
				}
			}
		}
	})
	mustCopyLikeJSON(t, &map[string]*structs.TaskState{"t": {State: "dead", StartedAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		Events: []*structs.TaskEvent{{Type: "Started", Details: map[string]string{}}, nil, {Type: "Bad\xff"}}}})
}

// TestGrownCapIsJSONs: a slice decoded by encoding/json has grownCap's
// capacity, for every length up to past the memo's bound.
func TestGrownCapIsJSONs(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 5, 9, 10, 17, 100, 257, 1000, 1025, 1300} {
		var events []*structs.TaskEvent
		var ints []int
		must.NoError(t, json.Unmarshal([]byte("["+strings.TrimSuffix(strings.Repeat("null,", n), ",")+"]"), &events))
		must.NoError(t, json.Unmarshal([]byte("["+strings.TrimSuffix(strings.Repeat("1,", n), ",")+"]"), &ints))
		must.Eq(t, cap(events), grownCap(taskEventSliceType, n), must.Sprintf("[]*TaskEvent of %d", n))
		must.Eq(t, cap(ints), grownCap(reflect.TypeFor[[]int](), n), must.Sprintf("[]int of %d", n))
	}
}
