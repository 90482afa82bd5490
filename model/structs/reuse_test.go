package structs

import (
	"reflect"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// setField sets field i of the struct v points to to a value that differs
// from the zero value.
func setField(t *testing.T, v reflect.Value, i int) {
	t.Helper()
	f := v.Elem().Field(i)
	switch f.Kind() {
	case reflect.String:
		f.SetString("x")
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Int, reflect.Int64:
		f.SetInt(1)
	case reflect.Uint64:
		f.SetUint(1)
	case reflect.Map:
		f.Set(reflect.ValueOf(map[string]string{"k": "v"}))
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), 0, 0))
	case reflect.Struct:
		f.Set(reflect.ValueOf(t0))
	default:
		t.Fatalf("field %s of kind %s: teach this test to set it", v.Elem().Type().Field(i).Name, f.Kind())
	}
}

// A copy may share an event or task state only if it equals it in every
// field: a field added to either struct must be compared.
func TestSameJSONComparesEveryEventField(t *testing.T) {
	typ := reflect.TypeFor[TaskEvent]()
	for i := range typ.NumField() {
		e := new(TaskEvent)
		setField(t, reflect.ValueOf(e), i)
		must.False(t, e.SameJSON(new(TaskEvent)), must.Sprint(typ.Field(i).Name))
		must.True(t, e.SameJSON(e.Copy()), must.Sprint(typ.Field(i).Name))
	}
	must.False(t, (&TaskEvent{Details: map[string]string{}}).SameJSON(&TaskEvent{}), must.Sprint("an empty map is not nil"))
	typ = reflect.TypeFor[TaskState]()
	for i := range typ.NumField() {
		s := new(TaskState)
		setField(t, reflect.ValueOf(s), i)
		must.False(t, sameTaskState(s, new(TaskState)), must.Sprint(typ.Field(i).Name))
		must.True(t, sameTaskState(s, s.Copy()), must.Sprint(typ.Field(i).Name))
	}
	must.False(t, sameTaskState(&TaskState{LastRestart: t0}, &TaskState{LastRestart: t0.In(time.FixedZone("x", 0))}),
		must.Sprint("a copy keeps a time's location"))
}

// A copy reusing an earlier one equals a plain copy and shares nothing
// with the alloc it copies.
func TestCopyReusingEqualsCopy(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		drawState := func(label string) *TaskState {
			s := NewTaskState()
			for i := range rapid.IntRange(0, 14).Draw(rt, label+" events") {
				at := t0.Add(time.Duration(rapid.IntRange(0, i).Draw(rt, label+" at")) * time.Second)
				e := NewTaskEvent(rapid.SampledFrom([]string{TaskStarted, TaskRestarting, TaskTerminated}).Draw(rt, label+" type"), at)
				if rapid.Bool().Draw(rt, label+" message") {
					e.SetMessage("m")
				}
				s.AppendEvent(e)
			}
			if rapid.Bool().Draw(rt, label+" running") {
				s.SetState(TaskStateRunning, t0)
			}
			return s
		}
		prevState := drawState("prev")
		cur := &Allocation{ID: "a", TaskStates: map[string]*TaskState{"web": prevState.Copy(), "db": drawState("db")}}
		if rapid.Bool().Draw(rt, "changed") {
			cur.TaskStates["web"].AppendEvent(NewTaskEvent(TaskKilling, t0.Add(time.Hour)))
		}
		prev := &Allocation{ID: "a", TaskStates: map[string]*TaskState{"web": prevState}}
		got := cur.CopySkipJobReusing(prev)
		must.Eq(t, cur.CopySkipJob(), got)
		must.Eq(t, cur.Stripped(), cur.StrippedReusing(prev))
		state := cur.ClientStateReusing(prev.ClientState())
		must.Eq(t, cur.ClientState(), state)
		for name, ts := range state.TaskStates {
			must.NotEq(t, reflect.ValueOf(cur.TaskStates[name]).Pointer(), reflect.ValueOf(ts).Pointer())
		}
		for name, ts := range got.TaskStates {
			must.NotEq(t, reflect.ValueOf(cur.TaskStates[name]).Pointer(), reflect.ValueOf(ts).Pointer())
			for i, e := range ts.Events {
				must.NotEq(t, reflect.ValueOf(cur.TaskStates[name].Events[i]).Pointer(), reflect.ValueOf(e).Pointer())
			}
		}
	})
}
