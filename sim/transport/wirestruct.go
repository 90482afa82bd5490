package transport

import (
	"reflect"
	"strings"
	"unicode/utf8"
)

// wireField is one field of a struct's JSON object: its index path (more
// than one index for a field promoted from an embedded struct) and its
// copier.
type wireField struct {
	index []int
	name  string
	copy  copyFunc
	// omitEmpty: the field is tagged omitempty, so JSON leaves it out, and
	// the decoded copy keeps its zero value, when it is empty.
	omitEmpty bool
}

// structCopier copies a struct's JSON fields. Structs that JSON does not
// map field by field (tag options other than omitempty, tagged or pointer or non-struct
// embedded fields, names that collide, unusual names) go through JSON.
func (b *copierBuilder) structCopier(t reflect.Type) copyFunc {
	fields, ok := b.wireFields(t, nil)
	if !ok || !uniqueNames(fields) {
		return jsonCopy
	}
	if whole, deep := wholeStruct(t, fields); whole {
		return wholeCopier(deep)
	}
	return func(dst, src reflect.Value, depth int) error {
		for _, f := range fields {
			var d, s reflect.Value
			if len(f.index) == 1 {
				d, s = dst.Field(f.index[0]), src.Field(f.index[0])
			} else {
				d, s = dst.FieldByIndex(f.index), src.FieldByIndex(f.index)
			}
			if f.omitEmpty && emptyValue(s) {
				continue
			}
			if err := f.copy(d, s, depth); err != nil {
				return err
			}
		}
		return nil
	}
}

// wholeStruct reports whether a struct's JSON fields are all its fields,
// none promoted: then it can be copied in one assignment and the fields
// JSON does not keep as they are fixed up after. deep lists those: a
// string (checked for valid UTF-8) and any field that is not a bool or an
// integer without JSON methods of its own.
func wholeStruct(t reflect.Type, fields []wireField) (bool, []deepField) {
	if len(fields) != t.NumField() {
		return false, nil
	}
	var deep []deepField
	for i, f := range fields {
		if len(f.index) != 1 || f.index[0] != i {
			return false, nil
		}
		ft := t.Field(i).Type
		switch {
		case hasJSONMethods(ft):
			deep = append(deep, deepField{wireField: f})
		case ft.Kind() == reflect.String:
			deep = append(deep, deepField{wireField: f, onlyString: true})
		case ft.Kind() == reflect.Bool, ft.Kind() >= reflect.Int && ft.Kind() <= reflect.Uintptr:
		default:
			deep = append(deep, deepField{wireField: f})
		}
	}
	return true, deep
}

// deepField is a field wholeCopier copies again after the assignment.
type deepField struct {
	wireField
	// onlyString: a string, kept as assigned when it is valid UTF-8.
	onlyString bool
}

// wholeCopier assigns the whole struct, then copies each deep field
// again into its zero value, as the field-by-field copier would (an
// omitempty field that is empty stays zero).
func wholeCopier(deep []deepField) copyFunc {
	return func(dst, src reflect.Value, depth int) error {
		dst.Set(src)
		for _, f := range deep {
			i := f.index[0]
			s := src.Field(i)
			if f.onlyString && utf8.ValidString(s.String()) {
				continue
			}
			d := dst.Field(i)
			d.SetZero()
			if f.omitEmpty && emptyValue(s) {
				continue
			}
			if err := f.copy(d, s, depth); err != nil {
				return err
			}
		}
		return nil
	}
}

// wireFields lists t's JSON fields, flattening untagged embedded structs;
// ok is false when the struct is not a plain mapping.
func (b *copierBuilder) wireFields(t reflect.Type, prefix []int) ([]wireField, bool) {
	var out []wireField
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if opts != "" && opts != "omitempty" {
			return nil, false
		}
		index := append(append([]int(nil), prefix...), i)
		if sf.Anonymous {
			if name != "" || sf.Type.Kind() != reflect.Struct || hasJSONMethods(sf.Type) {
				return nil, false
			}
			inner, ok := b.wireFields(sf.Type, index)
			if !ok {
				return nil, false
			}
			out = append(out, inner...)
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if !plainName(name) {
			return nil, false
		}
		out = append(out, wireField{index: index, name: name, copy: b.copier(sf.Type), omitEmpty: opts == "omitempty"})
	}
	return out, true
}

// plainName: ASCII letters, digits, '_' and '-' only.
func plainName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return s != ""
}

// uniqueNames: no two fields share a name, even ignoring case (JSON would
// drop or merge them).
func uniqueNames(fields []wireField) bool {
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		k := strings.ToLower(f.name)
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// emptyValue is encoding/json's test for leaving out an omitempty field:
// false, 0, a nil pointer or interface, an empty array, map, slice or
// string.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
