package state

import (
	"encoding"
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"sync"
)

// same reports whether a and b, of one type, certainly have the same JSON
// encoding: it compares everything encoding/json reads, strictly (nil and
// empty maps and slices differ, times must be identical, floats
// bit-identical), so a false answer may be wrong but a true one never is.
// It is reflect.DeepEqual restricted to what JSON sees and compiled per
// type, several times faster on the allocs it is used on (allocMemo).
func same(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !va.IsValid() || !vb.IsValid() || va.Type() != vb.Type() {
		return false
	}
	return samerFor(va.Type())(va, vb, 0)
}

// sameFunc compares two values of one type; depth counts the pointers,
// maps, slices and interfaces entered, so that a cyclic value compares
// false instead of recursing forever.
type sameFunc func(a, b reflect.Value, depth int) bool

const maxSameDepth = 256

var (
	samers   sync.Map // reflect.Type -> sameFunc
	samersMu sync.Mutex
)

func samerFor(t reflect.Type) sameFunc {
	if f, ok := samers.Load(t); ok {
		return f.(sameFunc)
	}
	samersMu.Lock()
	defer samersMu.Unlock()
	b := samerBuilder{building: map[reflect.Type]*sameFunc{}}
	return b.samer(t)
}

// samerBuilder builds comparers; building holds the types in progress so
// that a recursive type refers to its own comparer through a pointer.
type samerBuilder struct {
	building map[reflect.Type]*sameFunc
}

func (b *samerBuilder) samer(t reflect.Type) sameFunc {
	if f, ok := samers.Load(t); ok {
		return f.(sameFunc)
	}
	if p, ok := b.building[t]; ok {
		return func(x, y reflect.Value, depth int) bool { return (*p)(x, y, depth) }
	}
	f := new(sameFunc)
	b.building[t] = f
	*f = b.build(t)
	samers.Store(t, *f)
	return *f
}

func (b *samerBuilder) build(t reflect.Type) sameFunc {
	if marshalsItself(t) {
		// A type that encodes itself (time.Time, say) may encode from
		// anything it holds: compare all of it.
		if t.Comparable() && t.Kind() != reflect.Interface {
			return func(x, y reflect.Value, _ int) bool { return x.Equal(y) }
		}
		return func(x, y reflect.Value, _ int) bool {
			return x.CanInterface() && y.CanInterface() && reflect.DeepEqual(x.Interface(), y.Interface())
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(x, y reflect.Value, _ int) bool { return x.Bool() == y.Bool() }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(x, y reflect.Value, _ int) bool { return x.Int() == y.Int() }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(x, y reflect.Value, _ int) bool { return x.Uint() == y.Uint() }
	case reflect.Float32, reflect.Float64:
		return func(x, y reflect.Value, _ int) bool {
			return math.Float64bits(x.Float()) == math.Float64bits(y.Float())
		}
	case reflect.String:
		return func(x, y reflect.Value, _ int) bool { return x.String() == y.String() }
	case reflect.Pointer:
		return b.pointerSamer(t)
	case reflect.Interface:
		return interfaceSame
	case reflect.Map:
		return b.mapSamer(t)
	case reflect.Slice:
		return b.sliceSamer(t)
	case reflect.Array:
		elem := b.samer(t.Elem())
		return func(x, y reflect.Value, depth int) bool {
			for i := 0; i < x.Len(); i++ {
				if !elem(x.Index(i), y.Index(i), depth) {
					return false
				}
			}
			return true
		}
	case reflect.Struct:
		return b.structSamer(t)
	}
	return func(reflect.Value, reflect.Value, int) bool { return false } // chan, func, ...: JSON fails on them
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// marshalsItself reports whether t or *t is a JSON or text marshaler
// (an interface type is compared through its dynamic value instead).
func marshalsItself(t reflect.Type) bool {
	if t.Kind() == reflect.Interface {
		return false
	}
	p := reflect.PointerTo(t)
	return t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType) ||
		p.Implements(jsonMarshalerType) || p.Implements(textMarshalerType)
}

func (b *samerBuilder) pointerSamer(t reflect.Type) sameFunc {
	elem := b.samer(t.Elem())
	return func(x, y reflect.Value, depth int) bool {
		if x.IsNil() || y.IsNil() {
			return x.IsNil() == y.IsNil()
		}
		if x.Pointer() == y.Pointer() {
			return true
		}
		return depth < maxSameDepth && elem(x.Elem(), y.Elem(), depth+1)
	}
}

func interfaceSame(x, y reflect.Value, depth int) bool {
	if x.IsNil() || y.IsNil() {
		return x.IsNil() == y.IsNil()
	}
	ex, ey := x.Elem(), y.Elem()
	if ex.Type() != ey.Type() || depth >= maxSameDepth {
		return false
	}
	return samerFor(ex.Type())(ex, ey, depth+1)
}

var stringMapType = reflect.TypeFor[map[string]string]()

func (b *samerBuilder) mapSamer(t reflect.Type) sameFunc {
	elem := b.samer(t.Elem())
	return func(x, y reflect.Value, depth int) bool {
		if x.IsNil() || y.IsNil() {
			return x.IsNil() == y.IsNil()
		}
		if x.Len() != y.Len() || depth >= maxSameDepth {
			return false
		}
		if t == stringMapType && x.CanInterface() && y.CanInterface() {
			// Without reflection: event details, hook data (the common
			// case, and MapIndex would allocate a copy of each value).
			return maps.Equal(x.Interface().(map[string]string), y.Interface().(map[string]string))
		}
		// One key and one value holder for the whole map: Key and Value
		// would allocate a copy of each (strings, interfaces).
		k, v := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		for it := x.MapRange(); it.Next(); {
			k.SetIterKey(it)
			v.SetIterValue(it)
			w := y.MapIndex(k)
			if !w.IsValid() || !elem(v, w, depth+1) {
				return false
			}
		}
		return true
	}
}

func (b *samerBuilder) sliceSamer(t reflect.Type) sameFunc {
	elem := b.samer(t.Elem())
	return func(x, y reflect.Value, depth int) bool {
		if x.IsNil() || y.IsNil() {
			return x.IsNil() == y.IsNil()
		}
		if x.Len() != y.Len() || depth >= maxSameDepth {
			return false
		}
		for i := 0; i < x.Len(); i++ {
			if !elem(x.Index(i), y.Index(i), depth+1) {
				return false
			}
		}
		return true
	}
}

// structSamer compares the fields JSON reads: the exported ones and the
// embedded ones (whose exported fields JSON promotes). Fields of plain
// scalar kinds are compared in the loop itself, without a call.
func (b *samerBuilder) structSamer(t reflect.Type) sameFunc {
	type field struct {
		index int
		kind  reflect.Kind // a scalar kind, or Invalid: use same
		same  sameFunc
	}
	var fields []field
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() && !sf.Anonymous {
			continue
		}
		f := field{index: i, same: b.samer(sf.Type)}
		switch k := sf.Type.Kind(); k {
		case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			if !marshalsItself(sf.Type) {
				f.kind = k
			}
		}
		fields = append(fields, f)
	}
	return func(x, y reflect.Value, depth int) bool {
		for _, f := range fields {
			fx, fy := x.Field(f.index), y.Field(f.index)
			var eq bool
			switch f.kind {
			case reflect.String:
				eq = fx.String() == fy.String()
			case reflect.Bool:
				eq = fx.Bool() == fy.Bool()
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				eq = fx.Int() == fy.Int()
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				eq = fx.Uint() == fy.Uint()
			default:
				eq = f.same(fx, fy, depth)
			}
			if !eq {
				return false
			}
		}
		return true
	}
}
