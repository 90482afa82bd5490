package transport

import (
	"encoding"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"reflect"
	"sync"
	"time"
	"unicode/utf8"
)

// wireCopy sets *dst to exactly what json.Unmarshal(json.Marshal(src), dst)
// would set it to, without producing the text: the values are copied
// along their JSON mapping, so maps, slices and pointers are fresh (the
// two sides of the wire still share no mutable memory) and everything
// JSON loses is lost here too (unexported fields, `json:"-"` fields,
// monotonic clock readings, Go types inside an `any`). A value whose JSON
// form is not a plain field-by-field copy (custom marshalers, tag options,
// invalid UTF-8, ...) goes through encoding/json on its own.
//
// src and dst must be non-nil pointers of one type and *dst must be zero;
// ok is false, and *dst untouched, when they are not or when any part of
// the copy fails: the caller then copies through JSON as a whole, which
// reports the error exactly as before.
func wireCopy(src, dst any) (ok bool) {
	sv, dv := reflect.ValueOf(src), reflect.ValueOf(dst)
	if sv.Kind() != reflect.Pointer || sv.IsNil() || dv.Type() != sv.Type() || dv.IsNil() || !dv.Elem().IsZero() {
		return false
	}
	t := sv.Type().Elem()
	tmp := reflect.New(t).Elem()
	if err := copierFor(t)(tmp, sv.Elem(), 0); err != nil {
		return false
	}
	dv.Elem().Set(tmp)
	return true
}

// copyFunc copies src into dst, a settable zero value of the same type,
// as a JSON round trip would. depth counts the pointers, maps, slices and
// interfaces entered, so that a cyclic value fails instead of recursing
// forever (JSON fails on it too).
type copyFunc func(dst, src reflect.Value, depth int) error

// maxWireDepth bounds depth; a deeper value is copied through JSON as a
// whole (which reports a cycle).
const maxWireDepth = 256

var errTooDeep = errors.New("wire copy: value nested too deeply")

var (
	copiers   sync.Map // reflect.Type -> copyFunc
	copiersMu sync.Mutex
)

// copierFor returns the cached copier of t, building it on first use.
func copierFor(t reflect.Type) copyFunc {
	if f, ok := copiers.Load(t); ok {
		return f.(copyFunc)
	}
	copiersMu.Lock()
	defer copiersMu.Unlock()
	b := copierBuilder{building: map[reflect.Type]*copyFunc{}}
	return b.copier(t)
}

// copierBuilder builds copiers; building holds the types in progress so
// that a recursive type refers to its own copier through a pointer.
type copierBuilder struct {
	building map[reflect.Type]*copyFunc
}

func (b *copierBuilder) copier(t reflect.Type) copyFunc {
	if f, ok := copiers.Load(t); ok {
		return f.(copyFunc)
	}
	if p, ok := b.building[t]; ok {
		return func(dst, src reflect.Value, depth int) error { return (*p)(dst, src, depth) }
	}
	f := new(copyFunc)
	b.building[t] = f
	*f = b.build(t)
	copiers.Store(t, *f)
	return *f
}

var (
	timeType            = reflect.TypeFor[time.Time]()
	jsonMarshalerType   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// hasJSONMethods reports whether t or *t marshals or unmarshals itself.
func hasJSONMethods(t reflect.Type) bool {
	for _, x := range []reflect.Type{t, reflect.PointerTo(t)} {
		if x.Implements(jsonMarshalerType) || x.Implements(jsonUnmarshalerType) ||
			x.Implements(textMarshalerType) || x.Implements(textUnmarshalerType) {
			return true
		}
	}
	return false
}

func (b *copierBuilder) build(t reflect.Type) copyFunc {
	if t == timeType {
		return copyTime
	}
	if hasJSONMethods(t) {
		return jsonCopy
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(dst, src reflect.Value, _ int) error { dst.SetBool(src.Bool()); return nil }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(dst, src reflect.Value, _ int) error { dst.SetInt(src.Int()); return nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(dst, src reflect.Value, _ int) error { dst.SetUint(src.Uint()); return nil }
	case reflect.Float32, reflect.Float64:
		return copyFloat
	case reflect.String:
		return copyString
	case reflect.Pointer:
		return b.pointerCopier(t)
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return copyAny
		}
		return jsonCopy
	case reflect.Map:
		return b.mapCopier(t)
	case reflect.Slice:
		return b.sliceCopier(t)
	case reflect.Array:
		return b.arrayCopier(t)
	case reflect.Struct:
		return b.structCopier(t)
	}
	return jsonCopy // complex, chan, func, unsafe pointer: JSON fails on them
}

// jsonCopy copies one value through encoding/json. The source is
// marshalled through its address when it has one, as a whole-value
// Marshal would (pointer-receiver marshalers apply then).
func jsonCopy(dst, src reflect.Value, _ int) error {
	var v any
	if src.CanAddr() {
		v = src.Addr().Interface()
	} else {
		v = src.Interface()
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, dst.Addr().Interface())
}

// copyTime: a UTC time in years 0-9999 comes back from JSON as the same
// instant in UTC without its monotonic reading; any other goes through
// JSON (an offset may come back as time.Local, a year outside fails).
func copyTime(dst, src reflect.Value, depth int) error {
	// TypeAssert and the pointer to dst box nothing: Interface and
	// ValueOf allocated a time.Time each, per time copied.
	t, _ := reflect.TypeAssert[time.Time](src)
	if y := t.Year(); t.Location() != time.UTC || y < 0 || y > 9999 {
		return jsonCopy(dst, src, depth)
	}
	*dst.Addr().Interface().(*time.Time) = t.Round(0)
	return nil
}

// copyFloat: JSON writes the shortest text that parses back to the same
// float; NaN and infinities fail to marshal.
func copyFloat(dst, src reflect.Value, depth int) error {
	f := src.Float()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return jsonCopy(dst, src, depth)
	}
	dst.SetFloat(f)
	return nil
}

// copyString: valid UTF-8 round-trips as is; JSON replaces invalid bytes.
func copyString(dst, src reflect.Value, depth int) error {
	s := src.String()
	if !utf8.ValidString(s) {
		return jsonCopy(dst, src, depth)
	}
	dst.SetString(s)
	return nil
}

// pointerCopier: nil stays nil, anything else is a fresh pointer to a copy
// of the element. A pointer to something that may encode as null (a
// pointer, map, slice, interface or self-marshalling type) would come
// back nil from JSON, so it goes through JSON.
func (b *copierBuilder) pointerCopier(t reflect.Type) copyFunc {
	et := t.Elem()
	switch et.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return jsonCopy
	}
	if et != timeType && hasJSONMethods(et) {
		return jsonCopy
	}
	elem := b.copier(et)
	return func(dst, src reflect.Value, depth int) error {
		if src.IsNil() {
			return nil
		}
		if depth >= maxWireDepth {
			return errTooDeep
		}
		p := reflect.New(et)
		if err := elem(p.Elem(), src.Elem(), depth+1); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	}
}

// mapCopier copies string-keyed maps into a fresh map; other keys (and
// keys with text methods) go through JSON, as does a map with an invalid
// UTF-8 key (JSON would replace it, possibly merging two keys).
func (b *copierBuilder) mapCopier(t reflect.Type) copyFunc {
	kt := t.Key()
	if kt.Kind() != reflect.String || hasJSONMethods(kt) {
		return jsonCopy
	}
	switch t {
	case reflect.TypeFor[map[string]string]():
		return copyStringMap
	case reflect.TypeFor[map[string]any]():
		return copyAnyMap
	}
	et := t.Elem()
	elem := b.copier(et)
	return func(dst, src reflect.Value, depth int) error {
		if src.IsNil() {
			return nil
		}
		if depth >= maxWireDepth {
			return errTooDeep
		}
		m := reflect.MakeMapWithSize(t, src.Len())
		// One key and one value holder per map, not per entry
		// (MapIter.Key and reflect.New allocated each): SetMapIndex
		// stores copies of them, and v is zeroed for the next copy.
		k, v := reflect.New(kt).Elem(), reflect.New(et).Elem()
		for it := src.MapRange(); it.Next(); {
			k.SetIterKey(it)
			if !utf8.ValidString(k.String()) {
				return jsonCopy(dst, src, depth)
			}
			v.SetZero()
			if err := elem(v, it.Value(), depth+1); err != nil {
				return err
			}
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
		return nil
	}
}

// copyStringMap is mapCopier's for map[string]string, without reflection
// per entry: invalid UTF-8 (which JSON replaces) goes through JSON.
func copyStringMap(dst, src reflect.Value, depth int) error {
	if src.IsNil() {
		return nil
	}
	if depth >= maxWireDepth {
		return errTooDeep
	}
	out, ok := cloneStringMap(src.Interface().(map[string]string))
	if !ok {
		return jsonCopy(dst, src, depth)
	}
	dst.Set(reflect.ValueOf(out))
	return nil
}

// cloneStringMap copies a non-nil map[string]string; ok is false when a
// key or value is not valid UTF-8 (JSON would replace the bad bytes).
func cloneStringMap(in map[string]string) (out map[string]string, ok bool) {
	for k, v := range in {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return nil, false
		}
	}
	if len(in) == 0 {
		return map[string]string{}, true
	}
	return maps.Clone(in), true
}

// copyAnyMap is mapCopier's for map[string]any: genericCopy of the whole
// map (what JSON decodes into an `any` is what it decodes into a
// map[string]any's values), JSON when it declines.
func copyAnyMap(dst, src reflect.Value, depth int) error {
	if src.IsNil() {
		return nil
	}
	v, ok := genericCopy(src.Interface(), depth)
	if !ok {
		return jsonCopy(dst, src, depth)
	}
	dst.Set(reflect.ValueOf(v))
	return nil
}

// sliceCopier: nil stays nil, empty is a fresh empty slice, and a
// non-empty one has the capacity encoding/json leaves (grownCap). Byte
// slices (base64 in JSON) go through JSON.
func (b *copierBuilder) sliceCopier(t reflect.Type) copyFunc {
	et := t.Elem()
	if et.Kind() == reflect.Uint8 {
		return jsonCopy
	}
	elem := b.copier(et)
	return func(dst, src reflect.Value, depth int) error {
		if src.IsNil() {
			return nil
		}
		if depth >= maxWireDepth {
			return errTooDeep
		}
		n := src.Len()
		dst.Set(reflect.MakeSlice(t, n, grownCap(t, n)))
		for i := 0; i < n; i++ {
			if err := elem(dst.Index(i), src.Index(i), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
}

func (b *copierBuilder) arrayCopier(t reflect.Type) copyFunc {
	elem := b.copier(t.Elem())
	return func(dst, src reflect.Value, depth int) error {
		for i := 0; i < src.Len(); i++ {
			if err := elem(dst.Index(i), src.Index(i), depth); err != nil {
				return err
			}
		}
		return nil
	}
}

// grownCap is the capacity encoding/json's decoder leaves a slice of
// type t with after n elements: it grows a nil slice one element at a
// time (reflect.Value.Grow(1) whenever it is full). Computed once per
// type and length up to grownCapMemo, and allocated once by the callers.
func grownCap(t reflect.Type, n int) int {
	if n == 0 {
		return 0
	}
	k := grownKey{t, n}
	if n <= grownCapMemo {
		if c, ok := grownCaps.Load(k); ok {
			return c.(int)
		}
	}
	v := reflect.New(t).Elem()
	for i := 0; i < n; i++ {
		if i >= v.Cap() {
			v.Grow(1)
		}
		v.SetLen(i + 1)
	}
	if n <= grownCapMemo {
		grownCaps.Store(k, v.Cap())
	}
	return v.Cap()
}

// grownCapMemo bounds the lengths grownCap remembers.
const grownCapMemo = 1024

type grownKey struct {
	t reflect.Type
	n int
}

var grownCaps sync.Map // grownKey -> int
