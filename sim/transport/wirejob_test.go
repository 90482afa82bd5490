package transport

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/structs"
)

// fill sets every exported field below v (a settable value) to a drawn
// value: a string (with invalid, sometimes invalid UTF-8), a number, nil, empty or a
// few elements for pointers, slices and maps, and for an `any` a JSON
// value or an int. Walking the types by reflection, it reaches a field
// added to any of them, so a typed copier that does not copy it fails.
func fill(t *rapid.T, v reflect.Value, label string, depth int, invalid bool) {
	switch v.Kind() {
	case reflect.String:
		s := rapid.StringMatching(`[a-z]{0,3}`).Draw(t, label)
		if invalid && rapid.IntRange(0, 15).Draw(t, label+"!") == 0 {
			s += "\xff"
		}
		v.SetString(s)
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, label))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rapid.Int64Range(-3, 1<<40).Draw(t, label))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rapid.Uint64Range(0, 1<<40).Draw(t, label))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(rapid.Float64Range(-10, 10).Draw(t, label))
	case reflect.Pointer:
		if depth > 20 || rapid.IntRange(0, 4).Draw(t, label+"?") == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), label+"*", depth+1, invalid)
		v.Set(p)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(t, v.Field(i), label+"."+v.Type().Field(i).Name, depth, invalid)
			}
		}
	case reflect.Slice:
		switch n := rapid.IntRange(-1, 3).Draw(t, label+"#"); n {
		case -1:
		default:
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				fill(t, s.Index(i), fmt.Sprintf("%s[%d]", label, i), depth, invalid)
			}
			v.Set(s)
		}
	case reflect.Map:
		n := rapid.IntRange(-1, 2).Draw(t, label+"#")
		if n < 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for i := range n {
			k := reflect.New(v.Type().Key()).Elem()
			fill(t, k, fmt.Sprintf("%s{%d}", label, i), depth, invalid)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(t, e, fmt.Sprintf("%s[%d]", label, i), depth, invalid)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		vals := []any{nil, "x", true, 1.5, 7, map[string]any{"k": 2.5, "n": []any{"a", 3}}, []any{}}
		if invalid {
			vals = append(vals, "b\xffd", map[string]any{"f": math.NaN()})
		}
		if x := vals[rapid.IntRange(0, len(vals)-1).Draw(t, label)]; x != nil {
			v.Set(reflect.ValueOf(x))
		}
	}
}

// TestJobCopierMatchesReflective: copyJob gives exactly what the
// field-by-field copier gives (values, nil-ness and capacities), or
// declines where it fails, for jobs with every field filled; and it
// shares no pointer, slice or map with its source.
func TestJobCopierMatchesReflective(t *testing.T) {
	b := copierBuilder{building: map[reflect.Type]*copyFunc{}}
	reflective := b.structCopier(jobType)
	same := func(t *rapid.T, j *structs.Job) {
		var fast, slow structs.Job
		src := reflect.ValueOf(j).Elem()
		errFast := copyJob(reflect.ValueOf(&fast).Elem(), src, 3)
		errSlow := reflective(reflect.ValueOf(&slow).Elem(), src, 3)
		if (errFast == nil) != (errSlow == nil) {
			t.Fatalf("copyJob's error %v, the reflective copier's %v", errFast, errSlow)
		}
		if errFast != nil {
			return
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("copyJob gave %#v, the reflective copier %#v", fast, slow)
		}
		must.Eq(t, shapeOf(slow), shapeOf(fast))
		mustShareNothing(t, reflect.ValueOf(*j), reflect.ValueOf(fast), "job")
	}
	rapid.Check(t, func(t *rapid.T) {
		var j structs.Job
		// One check in 4 may hold strings or values JSON does not keep.
		invalid := rapid.IntRange(0, 3).Draw(t, "invalid") == 0
		fill(t, reflect.ValueOf(&j).Elem(), "job", 0, invalid)
		same(t, &j)
		if invalid {
			return
		}
		// Each string field in turn made invalid UTF-8, the rest valid.
		for _, sv := range stringFields(reflect.ValueOf(&j).Elem()) {
			old := sv.String()
			sv.SetString(old + "\xff")
			same(t, &j)
			sv.SetString(old)
		}
	})
	// Near the depth bound the job goes through JSON, as the reflective
	// copier's own fallbacks would take it.
	j := structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g", Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"n": 1}}}}}}
	var fast structs.Job
	must.NoError(t, copyJob(reflect.ValueOf(&fast).Elem(), reflect.ValueOf(&j).Elem(), maxWireDepth-2))
	must.Eq(t, 1.0, fast.TaskGroups[0].Tasks[0].Config["n"].(float64))
	mustCopyLikeJSON(t, &structs.Allocation{ID: "a", Job: &j})
}

// mustShareNothing fails if a pointer, non-empty slice or map reachable
// from got is also reachable at the same place from src.
func mustShareNothing(t *rapid.T, src, got reflect.Value, path string) {
	switch got.Kind() {
	case reflect.Pointer, reflect.Map:
		if got.IsNil() || src.IsNil() {
			return
		}
		if got.UnsafePointer() == src.UnsafePointer() {
			t.Fatalf("%s is shared with the source", path)
		}
		if got.Kind() == reflect.Pointer {
			mustShareNothing(t, src.Elem(), got.Elem(), path+"*")
			return
		}
		for _, k := range got.MapKeys() {
			if s := src.MapIndex(k); s.IsValid() {
				mustShareNothing(t, s, got.MapIndex(k), fmt.Sprintf("%s[%v]", path, k))
			}
		}
	case reflect.Slice:
		if got.Len() > 0 && src.Len() > 0 && got.UnsafePointer() == src.UnsafePointer() {
			t.Fatalf("%s is shared with the source", path)
		}
		for i := 0; i < min(got.Len(), src.Len()); i++ {
			mustShareNothing(t, src.Index(i), got.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Struct:
		for i := 0; i < got.NumField(); i++ {
			if got.Type().Field(i).IsExported() {
				mustShareNothing(t, src.Field(i), got.Field(i), path+"."+got.Type().Field(i).Name)
			}
		}
	case reflect.Interface:
		if !got.IsNil() && !src.IsNil() {
			mustShareNothing(t, src.Elem(), got.Elem(), path)
		}
	}
}

// stringFields lists the settable strings below v: struct fields,
// through pointers and slices (not map keys or values).
func stringFields(v reflect.Value) []reflect.Value {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			return []reflect.Value{v}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			return stringFields(v.Elem())
		}
	case reflect.Slice:
		var out []reflect.Value
		for i := 0; i < v.Len(); i++ {
			out = append(out, stringFields(v.Index(i))...)
		}
		return out
	case reflect.Map:
		var out []reflect.Value
		for _, k := range v.MapKeys() {
			if e := v.MapIndex(k); e.Kind() == reflect.Pointer {
				out = append(out, stringFields(e)...)
			}
		}
		return out
	case reflect.Struct:
		var out []reflect.Value
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				out = append(out, stringFields(v.Field(i))...)
			}
		}
		return out
	}
	return nil
}
