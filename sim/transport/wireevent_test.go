package transport

import (
	"reflect"
	"testing"

	"github.com/allocsim/allocsim/model/structs"
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
