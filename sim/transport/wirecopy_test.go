package transport

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/state/statetest"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// viaJSON is what the network did before wireCopy: a JSON round trip into
// a fresh value of src's type.
func viaJSON(src any) (any, error) {
	out := reflect.New(reflect.TypeOf(src).Elem()).Interface()
	b, err := json.Marshal(src)
	if err != nil {
		return nil, err
	}
	return out, json.Unmarshal(b, out)
}

// viaWire is wireCopy into a fresh value; ok as wireCopy's.
func viaWire(src any) (any, bool) {
	out := reflect.New(reflect.TypeOf(src).Elem()).Interface()
	return out, wireCopy(src, out)
}

// shape lists every slice's length and capacity and every pointer's,
// map's, slice's and interface's nil-ness, in a fixed walk order: what
// reflect.DeepEqual does not compare.
func shape(v reflect.Value, out *[]string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		*out = append(*out, fmt.Sprint(v.IsNil()))
		if !v.IsNil() {
			shape(v.Elem(), out)
		}
	case reflect.Slice:
		*out = append(*out, fmt.Sprint(v.IsNil(), v.Len(), v.Cap()))
		for i := 0; i < v.Len(); i++ {
			shape(v.Index(i), out)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			shape(v.Index(i), out)
		}
	case reflect.Map:
		*out = append(*out, fmt.Sprint(v.IsNil(), v.Len()))
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmpStrings(fmt.Sprint(a), fmt.Sprint(b)) })
		for _, k := range keys {
			shape(v.MapIndex(k), out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				shape(v.Field(i), out)
			}
		}
	}
}

func cmpStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func shapeOf(v any) []string {
	var out []string
	shape(reflect.ValueOf(v), &out)
	return out
}

// tester is what both *testing.T and *rapid.T are.
type tester interface {
	Helper()
	Fatalf(format string, args ...any)
}

// mustCopyLikeJSON checks that wireCopy gives exactly the JSON round
// trip's value, sharing no mutable memory with src, or declines where
// JSON fails.
func mustCopyLikeJSON(t tester, src any) {
	t.Helper()
	want, jerr := viaJSON(src)
	got, ok := viaWire(src)
	if jerr != nil {
		must.False(t, ok, must.Sprintf("JSON fails (%v) but wireCopy succeeded", jerr))
		return
	}
	must.True(t, ok, must.Sprint("wireCopy declined a value JSON copies"))
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("wireCopy differs from JSON:\n%s", cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })))
	}
	must.Eq(t, shapeOf(want), shapeOf(got))
	mustShareNothing(t, src, got)
}

// mutable collects what a value reaches that a holder could change: the
// target of every pointer and the backing array of every slice, as
// address ranges, and every map, through exported fields (JSON's) and
// interfaces. Strings are immutable, and zero-size values hold nothing.
type mutable struct {
	ranges [][2]uintptr
	maps   map[uintptr]bool
}

func (m *mutable) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if size := v.Type().Elem().Size(); size > 0 {
			m.ranges = append(m.ranges, [2]uintptr{v.Pointer(), v.Pointer() + size})
		}
		m.walk(v.Elem())
	case reflect.Interface:
		if !v.IsNil() {
			m.walk(v.Elem())
		}
	case reflect.Slice:
		if size := v.Type().Elem().Size(); v.Cap() > 0 && size > 0 {
			m.ranges = append(m.ranges, [2]uintptr{v.Pointer(), v.Pointer() + uintptr(v.Cap())*size})
		}
		for i := 0; i < v.Len(); i++ {
			m.walk(v.Index(i))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			m.walk(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		if m.maps == nil {
			m.maps = map[uintptr]bool{}
		}
		m.maps[v.Pointer()] = true
		for it := v.MapRange(); it.Next(); {
			m.walk(it.Value())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				m.walk(v.Field(i))
			}
		}
	}
}

// mustShareNothing fails t if copy reaches any pointer target, slice
// backing array or map that src reaches: a change through the copy
// would change src.
func mustShareNothing(t tester, src, copy any) {
	t.Helper()
	var s, c mutable
	s.walk(reflect.ValueOf(src))
	c.walk(reflect.ValueOf(copy))
	for p := range c.maps {
		if s.maps[p] {
			t.Fatalf("the copy shares a map with its source")
		}
	}
	for _, cr := range c.ranges {
		for _, sr := range s.ranges {
			if cr[0] < sr[1] && sr[0] < cr[1] {
				t.Fatalf("the copy shares memory with its source (%#x-%#x and %#x-%#x)", cr[0], cr[1], sr[0], sr[1])
			}
		}
	}
}

type inner struct {
	A string
	b int // unexported: dropped
}

type embedded struct {
	Region string
}

type tricky struct {
	Named   string `json:"renamed"`
	Skipped string `json:"-"`
	//lint:ignore SA5008 JSON names this field "-": the case is tested
	Dash      string `json:"-,"`
	Hidden    int
	hidden    int
	Ptr       *inner
	NilPtr    *inner
	PtrPtr    **inner
	PtrMap    *map[string]int
	Slice     []inner
	Empty     []string
	Nil       []string
	Bytes     []byte
	Array     [3]int8
	Map       map[string]*inner
	IntKeys   map[int]string
	Any       any
	Float32   float32
	Float64   float64
	Uint      uint64
	When      time.Time
	WhenPtr   *time.Time
	Dur       time.Duration
	Raw       json.RawMessage
	Iface     fmt.Stringer
	Recursive *tricky
	embedded
}

type collide struct {
	Name string
	NAME string `json:"name"`
}

// ambiguous has two fields of one JSON name at one depth (promoted from
// two embedded structs): JSON drops both.
type ambiguous struct {
	ambA
	ambB
}

type ambA struct{ X string }
type ambB struct{ X string }

// ptrMarshaler marshals itself only through a pointer: JSON uses that
// where the value is addressable (a field), not where it is not (a map
// value).
type ptrMarshaler struct{ V int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`{"V":42}`), nil }

type withPtrMarshaler struct {
	Field ptrMarshaler
	Map   map[string]ptrMarshaler
}

// withHidden promotes the exported fields of an unexported embedded
// struct, which JSON copies.
type withHidden struct {
	hiddenEmb
}

type hiddenEmb struct {
	When time.Time
	Zone time.Time
	N    int
}

type withChan struct{ C chan int }

type withOmit struct {
	Omit  []string `json:",omitempty"`
	Inner tricky
}

// omitAll has an omitempty field of every kind encoding/json tests.
type omitAll struct {
	S    string            `json:"s,omitempty"`
	B    bool              `json:"b,omitempty"`
	I    int               `json:"i,omitempty"`
	U    uint8             `json:"u,omitempty"`
	F    float64           `json:"f,omitempty"`
	P    *inner            `json:"p,omitempty"`
	A    any               `json:"a,omitempty"`
	M    map[string]string `json:"m,omitempty"`
	L    []int             `json:"l,omitempty"`
	Arr  [2]int            `json:"arr,omitempty"`
	Arr0 [0]int            `json:"arr0,omitempty"`
	St   inner             `json:"st,omitempty"`
	T    time.Time         `json:"t,omitempty"`
}

// typedMaps has the map types the copier copies without reflection.
type typedMaps struct {
	Strings map[string]string
	Anys    map[string]any
}

// withStringOpt has a tag option the copier does not map (JSON quotes the
// number).
type withStringOpt struct {
	N int `json:"n,string"`
}

func TestWireCopyMatchesJSON(t *testing.T) {
	p := &inner{A: "p"}
	zone := time.FixedZone("X", 3600)
	cases := map[string]any{
		"empty struct": &tricky{},
		"full": &tricky{
			Named: "n", Skipped: "s", Dash: "d", Hidden: 1, hidden: 2, Ptr: &inner{A: "a", b: 3},
			PtrPtr: &p, PtrMap: &map[string]int{"x": 1}, Slice: []inner{{A: "1"}, {A: "2"}, {A: "3"}, {A: "4"}, {A: "5"}},
			Empty: []string{}, Bytes: []byte("bytes"), Array: [3]int8{1, -2, 3},
			Map: map[string]*inner{"a": {A: "x"}, "nil": nil}, IntKeys: map[int]string{3: "c", -1: "m"},
			Any:     map[string]any{"s": "x", "i": 3, "i64": int64(1) << 60, "f": 1.5, "b": true, "n": nil, "l": []any{1, "a", []any{}}, "m": map[string]any{}},
			Float32: 0.1, Float64: math.Copysign(0, -1), Uint: math.MaxUint64,
			When: time.Date(2024, 6, 14, 9, 0, 0, 1, time.UTC), Dur: time.Second, Raw: json.RawMessage(`{"k": 1}`),
			embedded: embedded{Region: "r"},
		},
		"nil pointee":          &tricky{PtrPtr: new(*inner), PtrMap: new(map[string]int)},
		"zoned time":           &tricky{When: time.Date(2024, 6, 14, 9, 0, 0, 0, zone)},
		"time pointer zoned":   &tricky{WhenPtr: ptr(time.Date(2024, 1, 1, 0, 0, 0, 0, zone))},
		"time pointer utc":     &tricky{WhenPtr: ptr(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))},
		"year 10000":           &tricky{When: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		"NaN":                  &tricky{Float64: math.NaN()},
		"Inf in any":           &tricky{Any: math.Inf(1)},
		"float32 in any":       &tricky{Any: float32(0.1)},
		"uint in any":          &tricky{Any: uint(7)},
		"struct in any":        &tricky{Any: inner{A: "x"}},
		"nil map in any":       &tricky{Any: map[string]any(nil)},
		"nil slice in any":     &tricky{Any: []any(nil)},
		"typed nil in any":     &tricky{Any: (*inner)(nil)},
		"interface":            &tricky{Iface: time.Second},
		"invalid utf8":         &tricky{Named: "a\xffb", Map: map[string]*inner{"k": {A: "\xc3"}}},
		"invalid utf8 key":     &tricky{Map: map[string]*inner{"\xff": {}, "\xfe": {A: "2"}}},
		"invalid utf8 in any":  &tricky{Any: map[string]any{"\xff": "\xfe"}},
		"invalid utf8 any key": &tricky{Any: map[string]any{"\xff": "ok", "\xfe": "ok too"}},
		"recursive":            &tricky{Recursive: &tricky{Recursive: &tricky{Named: "deep"}}},
		"colliding names":      &collide{Name: "a", NAME: "b"},
		"chan":                 &withChan{C: make(chan int)},
		"unexported embedded": &withHidden{hiddenEmb{When: time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC),
			Zone: time.Date(2024, 1, 2, 3, 4, 5, 6, time.FixedZone("Z", -3600)), N: 7}},
		"ambiguous names":     &ambiguous{ambA{X: "a"}, ambB{X: "b"}},
		"pointer marshaler":   &withPtrMarshaler{Field: ptrMarshaler{V: 1}, Map: map[string]ptrMarshaler{"k": {V: 2}}},
		"omitempty":           &withOmit{Omit: []string{}, Inner: tricky{Empty: []string{}}},
		"omitempty all empty": &omitAll{M: map[string]string{}, L: []int{}},
		"omitempty all set": &omitAll{S: "s", B: true, I: -1, U: 2, F: 0.5, P: &inner{A: "p"}, A: "x",
			M: map[string]string{"k": ""}, L: []int{0}, Arr: [2]int{}, St: inner{}, T: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
		"string option": &withStringOpt{N: 3},
		"typed maps": &typedMaps{Strings: map[string]string{"a": "b", "": ""},
			Anys: map[string]any{"i": 3, "l": []any{int64(2), "x"}, "m": map[string]any{"k": nil}, "f": 0.25}},
		"typed maps empty":     &typedMaps{Strings: map[string]string{}, Anys: map[string]any{}},
		"typed maps invalid":   &typedMaps{Strings: map[string]string{"k": "\xff"}, Anys: map[string]any{"\xfe": 1, "u": uint8(3)}},
		"job with omitempty":   &structs.Job{ID: "j", Meta: map[string]string{}, ParentID: "p", Dispatched: true},
		"nil chan":             &withChan{},
		"update request":       &structs.AllocUpdateRequest{Alloc: []*structs.Allocation{{ID: "a"}}, WriteRequest: structs.WriteRequest{Region: "global"}},
		"pull request":         &structs.NodeClientAllocsRequest{NodeID: "n", QueryOptions: structs.QueryOptions{MinQueryIndex: 3}},
		"empty pull reply":     &structs.NodeClientAllocsIndexResponse{Allocs: map[string]uint64{}},
		"pull reply":           &structs.NodeClientAllocsIndexResponse{Allocs: map[string]uint64{"a": 3, "b": 0}, Index: 4},
		"fetch request":        &structs.AllocsGetRequest{AllocIDs: []string{"a", "b"}},
		"empty fetch reply":    &structs.AllocsGetResponse{Allocs: []*structs.Allocation{}},
		"pause state response": &structs.AllocGetPauseStateResponse{ScheduleState: structs.TaskScheduleStateForcePause},
	}
	for name, v := range cases {
		t.Run(name, func(t *testing.T) { mustCopyLikeJSON(t, v) })
	}
}

func ptr[V any](v V) *V { return &v }

func TestWireCopyCycleDeclines(t *testing.T) {
	loop := &tricky{}
	loop.Recursive = loop
	_, ok := viaWire(loop)
	must.False(t, ok)
	_, err := viaJSON(loop)
	must.Error(t, err)
}

func TestWireCopyPreconditions(t *testing.T) {
	src := &inner{A: "x"}
	must.False(t, wireCopy(src, &inner{A: "not zero"})) // JSON would merge into it
	must.False(t, wireCopy(src, &tricky{}))             // another type
	must.False(t, wireCopy((*inner)(nil), &inner{}))    // nil source
	must.False(t, wireCopy(inner{A: "x"}, &inner{}))    // not a pointer
	must.False(t, wireCopy(src, (*inner)(nil)))         // nil destination
	dst := &inner{}
	must.True(t, wireCopy(src, dst))
	must.Eq(t, "x", dst.A)
}

// TestWireCopyShares checks that the copy shares no mutable memory with
// its source.
func TestWireCopySharesNothing(t *testing.T) {
	src := &tricky{Ptr: &inner{A: "a"}, Slice: []inner{{A: "s"}}, Map: map[string]*inner{"k": {A: "m"}},
		Any: map[string]any{"l": []any{"x"}}}
	got, ok := viaWire(src)
	must.True(t, ok)
	dst := got.(*tricky)
	dst.Ptr.A, dst.Slice[0].A, dst.Map["k"].A = "changed", "changed", "changed"
	dst.Any.(map[string]any)["l"].([]any)[0] = "changed"
	must.Eq(t, "a", src.Ptr.A)
	must.Eq(t, "s", src.Slice[0].A)
	must.Eq(t, "m", src.Map["k"].A)
	must.Eq(t, "x", src.Any.(map[string]any)["l"].([]any)[0].(string))
}

// TestWireCopyAllocsProperty: every RPC shape that carries allocs copies
// exactly as through JSON, sharing nothing with its source, whatever the
// allocs hold.
func TestWireCopyAllocsProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(0, 4).Draw(rt, "allocs")
		var allocs []*structs.Allocation
		if n > 0 || rapid.Bool().Draw(rt, "empty") {
			allocs = []*structs.Allocation{}
		}
		for i := range n {
			a := statetest.GenAllocation(fmt.Sprintf("a%d", i)).Draw(rt, "alloc")
			if rapid.Bool().Draw(rt, "odd") {
				a.ClientDescription += "\xff" // invalid UTF-8
				a.Job.TaskGroups[0].Tasks[0].Config["pi"] = float32(3.14)
			}
			allocs = append(allocs, a)
		}
		mustCopyLikeJSON(rt, &structs.AllocsGetResponse{Allocs: allocs, Index: rapid.Uint64().Draw(rt, "index")})
		mustCopyLikeJSON(rt, &structs.AllocUpdateRequest{Alloc: allocs})
	})
}

// TestWireFields: the test types above are copied field by field (not
// declined into JSON), under the names JSON gives them.
func TestWireFields(t *testing.T) {
	var b copierBuilder
	b.building = map[reflect.Type]*copyFunc{}
	fields, ok := b.wireFields(reflect.TypeFor[tricky](), nil)
	must.True(t, ok)
	must.True(t, uniqueNames(fields))
	var names []string
	for _, f := range fields {
		names = append(names, f.name)
	}
	must.Eq(t, []string{"renamed", "-", "Hidden", "Ptr", "NilPtr", "PtrPtr", "PtrMap", "Slice", "Empty", "Nil",
		"Bytes", "Array", "Map", "IntKeys", "Any", "Float32", "Float64", "Uint", "When", "WhenPtr", "Dur", "Raw",
		"Iface", "Recursive", "Region"}, names)
	// Region is promoted from the last field, the embedded struct.
	must.Eq(t, []int{reflect.TypeFor[tricky]().NumField() - 1, 0}, fields[len(fields)-1].index)

	fields, ok = b.wireFields(reflect.TypeFor[withOmit](), nil)
	must.True(t, ok)
	must.True(t, fields[0].omitEmpty)
	must.False(t, fields[1].omitEmpty)
	_, ok = b.wireFields(reflect.TypeFor[withStringOpt](), nil)
	must.False(t, ok)
	// A struct whose JSON fields are all its fields is assigned whole, its
	// strings checked and its deep fields copied again.
	for _, tt := range []struct {
		typ   reflect.Type
		whole bool
		deep  int
	}{
		{reflect.TypeFor[omitAll](), true, 10},           // all but B, I, U
		{reflect.TypeFor[structs.TaskEvent](), true, 13}, // 12 strings and Details
		{reflect.TypeFor[tricky](), false, 0},            // unexported, skipped and promoted fields
	} {
		fields, ok := b.wireFields(tt.typ, nil)
		must.True(t, ok)
		whole, deep := wholeStruct(tt.typ, fields)
		must.EqOp(t, tt.whole, whole, must.Sprint(tt.typ))
		must.EqOp(t, tt.deep, len(deep), must.Sprint(tt.typ))
	}
	fields, ok = b.wireFields(reflect.TypeFor[collide](), nil)
	must.True(t, ok)
	must.False(t, uniqueNames(fields))
}

// fatalRecorder is a tester that records its first failure.
type fatalRecorder struct{ msg string }

func (f *fatalRecorder) Helper() {}
func (f *fatalRecorder) Fatalf(format string, args ...any) {
	if f.msg == "" {
		f.msg = fmt.Sprintf(format, args...)
	}
}

// TestShareNothingFindsSharing: the sharing check the property relies on
// finds a shared pointer target, slice backing array and map.
func TestShareNothingFindsSharing(t *testing.T) {
	shared := &inner{A: "x"}
	backing := []inner{{A: "a"}, {A: "b"}}
	m := map[string]*inner{}
	for name, pair := range map[string][2]*tricky{
		"pointer": {{Ptr: shared}, {Ptr: shared}},
		"slice":   {{Slice: backing}, {Slice: backing[1:]}},
		"map":     {{Map: m}, {Map: m}},
		"any":     {{Any: map[string]any{"l": []any{"x"}}}, {}},
	} {
		if name == "any" {
			pair[1].Any = pair[0].Any
		}
		var f fatalRecorder
		mustShareNothing(&f, pair[0], pair[1])
		must.StrContains(t, f.msg, "the copy shares", must.Sprint(name))
	}
	var f fatalRecorder
	got, _ := viaWire(&tricky{Ptr: shared, Slice: backing, Map: m})
	mustShareNothing(&f, &tricky{Ptr: shared, Slice: backing, Map: m}, got)
	must.EqOp(t, "", f.msg)
}
