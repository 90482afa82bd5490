package structs

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/shoenig/test/must"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	must.NoError(t, err)
	return string(b)
}

// roundTrip decodes a's encoding into a fresh alloc, as the state DB's
// memo does.
func roundTrip(t *testing.T, a *Allocation) *Allocation {
	t.Helper()
	var out *Allocation
	must.NoError(t, json.Unmarshal([]byte(mustJSON(t, a)), &out))
	return out
}

// sameJSONAlloc is a small alloc of the shape the day benchmark persists.
func sameJSONAlloc() *Allocation {
	job := &Job{ID: "day", TaskGroups: []*TaskGroup{{Name: "g", Count: 2, Tasks: []*Task{{
		Name: "t1", Driver: "mock_driver", Config: map[string]any{"kill_after": "1s", "n": 1.5},
		Schedule: &schedule.Schedule{Cron: &schedule.Cron{Start: "0 6 * * * *", End: "0 7", Timezone: "UTC"}},
	}}}}}
	job.Canonicalize()
	ev := NewTaskEvent(TaskStarted, t0).SetExitCode(0)
	ev.PopulateDisplayMessage()
	return &Allocation{ID: "a", Name: "day.g[0]", JobID: "day", Job: job, TaskGroup: "g", ClientStatus: "running",
		TaskStates: map[string]*TaskState{"t1": {State: TaskStateRunning, StartedAt: t0, Events: []*TaskEvent{ev}}}}
}

// TestSameJSON: the comparers agree with a JSON round trip and see the
// differences JSON sees, including those == or reflect.DeepEqual would
// miss or get wrong.
func TestSameJSON(t *testing.T) {
	cases := []struct {
		name   string
		change func(a *Allocation)
		want   bool
	}{
		{"unchanged", func(*Allocation) {}, true},
		{"client status", func(a *Allocation) { a.ClientStatus = "complete" }, false},
		{"index", func(a *Allocation) { a.ModifyIndex++ }, false},
		{"nil vs empty task states", func(a *Allocation) { a.TaskStates = map[string]*TaskState{} }, false},
		{"task state renamed", func(a *Allocation) { a.TaskStates = map[string]*TaskState{"t2": a.TaskStates["t1"]} }, false},
		{"nil task state", func(a *Allocation) { a.TaskStates["t1"] = nil }, false},
		{"event appended", func(a *Allocation) {
			a.TaskStates["t1"].AppendEvent(NewTaskEvent(TaskKilling, t0.Add(time.Second)))
		}, false},
		{"nil vs empty events", func(a *Allocation) { a.TaskStates["t1"].Events = []*TaskEvent{} }, false},
		{"event detail", func(a *Allocation) { a.TaskStates["t1"].Events[0].Details["exit_code"] = "1" }, false},
		{"nil vs empty details", func(a *Allocation) { a.TaskStates["t1"].Events[0].Details = nil }, false},
		{"event time", func(a *Allocation) { a.TaskStates["t1"].Events[0].Time++ }, false},
		{"same instant, other zone", func(a *Allocation) {
			a.TaskStates["t1"].StartedAt = t0.In(time.FixedZone("CEST", 2*3600))
		}, false},
		{"paused", func(a *Allocation) { a.TaskStates["t1"].Paused = TaskScheduleStateForceRun }, false},
		{"deployment status", func(a *Allocation) { a.DeploymentStatus = &AllocDeploymentStatus{} }, false},
		{"healthy nil vs false", func(a *Allocation) {
			no := false
			a.DeploymentStatus = &AllocDeploymentStatus{Healthy: &no}
		}, false},
		{"network status", func(a *Allocation) { a.NetworkStatus = &AllocNetworkStatus{Address: "10.0.0.1"} }, false},
		{"job", func(a *Allocation) { a.Job = nil }, false},
		{"config string", func(a *Allocation) { a.Job.TaskGroups[0].Tasks[0].Config["kill_after"] = "2s" }, false},
		{"config int vs float", func(a *Allocation) { a.Job.TaskGroups[0].Tasks[0].Config["n"] = 1 }, false},
		{"config negative zero", func(a *Allocation) { a.Job.TaskGroups[0].Tasks[0].Config["n"] = math.Copysign(0, -1) }, false},
		{"config nested", func(a *Allocation) {
			a.Job.TaskGroups[0].Tasks[0].Config["args"] = []any{"x", map[string]any{"k": nil}}
		}, false},
		{"config unknown type", func(a *Allocation) { a.Job.TaskGroups[0].Tasks[0].Config["d"] = time.Second }, false},
		{"cron", func(a *Allocation) { a.Job.TaskGroups[0].Tasks[0].Schedule.Cron.Timezone = "Europe/Paris" }, false},
		{"restart attempts", func(a *Allocation) { *a.Job.TaskGroups[0].RestartPolicy.Attempts = 9 }, false},
		{"volumes nil vs empty", func(a *Allocation) { a.Job.TaskGroups[0].Volumes = map[string]*VolumeRequest{} }, false},
		{"meta", func(a *Allocation) { a.Job.Meta = map[string]string{"k": "v"} }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := sameJSONAlloc()
			back := roundTrip(t, base)
			changed := roundTrip(t, base)
			changed.Job.TaskGroups[0].Tasks[0].Config = map[string]any{"kill_after": "1s", "n": 1.5}
			c.change(changed)
			must.Eq(t, c.want, base.SameJSON(changed))
			must.Eq(t, c.want, changed.SameJSON(base))
			must.Eq(t, c.want, back.SameJSON(changed))
			if c.want {
				must.Eq(t, mustJSON(t, base), mustJSON(t, changed))
			}
		})
	}
}

func TestSameJSONNil(t *testing.T) {
	a := sameJSONAlloc()
	must.True(t, (*Allocation)(nil).SameJSON(nil))
	must.False(t, a.SameJSON(nil))
	must.False(t, (*Allocation)(nil).SameJSON(a))
	must.True(t, a.SameJSON(a))
	must.True(t, (*TaskState)(nil).SameJSON(nil))
	must.False(t, (*TaskState)(nil).SameJSON(NewTaskState()))
	must.True(t, (*TaskEvent)(nil).SameJSON(nil))
	must.False(t, NewTaskEvent(TaskStarted, t0).SameJSON(nil))
}

// TestSameJSONSeesEveryField is the guard of the comparers: an alloc
// with every field set (every pointer non-nil, every map and slice
// holding an entry, or, in a second pass, those of scalars empty) compares same to its
// JSON round trip, and each single change JSON can see (a scalar
// changed, a time moved or put in another zone, a pointer, map or slice
// made nil, emptied or grown) makes it compare different. A field added
// to any type of the alloc is reached by reflection, so a comparer that
// does not look at it fails here.
func TestSameJSONSeesEveryField(t *testing.T) {
	for _, empty := range []bool{false, true} {
		t.Run(fmt.Sprintf("empty=%v", empty), func(t *testing.T) {
			full := &Allocation{}
			fill(reflect.ValueOf(full).Elem(), empty)
			base := roundTrip(t, full) // an empty omitempty map comes back nil
			enc := mustJSON(t, base)
			must.True(t, base.SameJSON(roundTrip(t, base)), must.Sprint("a full alloc must compare same to its round trip"))
			tried := 0
			for target := 0; ; target++ {
				c := roundTrip(t, base)
				p := &perturber{target: target}
				p.visit("Allocation", reflect.ValueOf(c).Elem(), func(reflect.Value) {})
				if p.did == "" {
					break
				}
				if mustJSON(t, c) == enc {
					continue // a change JSON does not see (omitempty)
				}
				tried++
				if base.SameJSON(c) || c.SameJSON(base) {
					t.Errorf("SameJSON after %s = true, want false", p.did)
				}
			}
			must.Greater(t, 40, tried)
		})
	}
	t.Run("nil vs empty", func(t *testing.T) {
		full := &Allocation{}
		fill(reflect.ValueOf(full).Elem(), false)
		tried := 0
		for target := 0; ; target++ {
			emptied, nilled := roundTrip(t, full), roundTrip(t, full)
			pe, pn := &perturber{target: target, only: "empty"}, &perturber{target: target, only: "nil"}
			pe.visit("Allocation", reflect.ValueOf(emptied).Elem(), func(reflect.Value) {})
			pn.visit("Allocation", reflect.ValueOf(nilled).Elem(), func(reflect.Value) {})
			if pe.did == "" || pn.did == "" {
				must.Eq(t, pe.did, pn.did)
				break
			}
			if mustJSON(t, emptied) == mustJSON(t, nilled) {
				continue // omitempty
			}
			tried++
			if emptied.SameJSON(nilled) || nilled.SameJSON(emptied) {
				t.Errorf("SameJSON of %s and %s = true, want false", pe.did, pn.did)
			}
		}
		must.Greater(t, 10, tried)
	})
}

var timeType = reflect.TypeFor[time.Time]()

// fill sets every field below v: strings "s", numbers 1 (floats 1.5),
// bools true, times t0, pointers to filled values, maps and slices with
// one filled entry (with empty, those of scalars are empty instead),
// interfaces (Config values) a JSON-shaped
// tree.
func fill(v reflect.Value, empty bool) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), empty)
	case reflect.Slice:
		if empty && !holdsStructs(v.Type()) {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), empty)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		if empty && !holdsStructs(v.Type()) {
			return
		}
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, empty)
		fill(e, empty)
		v.SetMapIndex(k, e)
	case reflect.Interface:
		v.Set(reflect.ValueOf(map[string]any{"s": "x", "f": 1.5, "b": true, "z": nil,
			"l": []any{"y", 2.5}, "m": map[string]any{"k": "v"}}))
	case reflect.Struct:
		if v.Type() == timeType {
			v.Set(reflect.ValueOf(t0))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), empty)
			}
		}
	default:
		panic(fmt.Sprintf("fill: unexpected kind %s", v.Kind()))
	}
}

// holdsStructs reports whether a slice or map type holds structs or
// pointers to them (time.Time aside).
func holdsStructs(t reflect.Type) bool {
	e := t.Elem()
	if e.Kind() == reflect.Pointer {
		e = e.Elem()
	}
	return e.Kind() == reflect.Struct && e != timeType
}

// perturber walks a value in a fixed order, counting the single changes
// it could make, and makes the target-th one (did names it); with only
// set, it counts only the changes of that name ("nil", "empty": those
// of maps and slices).
type perturber struct {
	target, n int
	only      string
	did       string
}

// visit offers the changes of v and of everything below it; set replaces
// v (v itself may not be settable: a map value).
func (p *perturber) visit(path string, v reflect.Value, set func(reflect.Value)) {
	try := func(what string, nv reflect.Value) {
		if p.only != "" && what != p.only {
			return
		}
		if p.n == p.target {
			set(nv)
			p.did = path + ": " + what
		}
		p.n++
	}
	with := func(f func(nv reflect.Value)) reflect.Value {
		nv := reflect.New(v.Type()).Elem()
		f(nv)
		return nv
	}
	switch v.Kind() {
	case reflect.String:
		try("string", with(func(nv reflect.Value) { nv.SetString(v.String() + "x") }))
	case reflect.Bool:
		try("flip", with(func(nv reflect.Value) { nv.SetBool(!v.Bool()) }))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		try("+1", with(func(nv reflect.Value) { nv.SetInt(v.Int() + 1) }))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		try("+1", with(func(nv reflect.Value) { nv.SetUint(v.Uint() + 1) }))
	case reflect.Float32, reflect.Float64:
		try("+1", with(func(nv reflect.Value) { nv.SetFloat(v.Float() + 1) }))
		try("-0", with(func(nv reflect.Value) { nv.SetFloat(math.Copysign(0, -1)) }))
	case reflect.Pointer:
		if v.IsNil() {
			try("new", reflect.New(v.Type().Elem()))
			return
		}
		try("nil pointer", reflect.Zero(v.Type()))
		p.visit(path, v.Elem(), func(nv reflect.Value) { v.Elem().Set(nv) })
	case reflect.Slice:
		p.collection(path, v, try)
		for i := range v.Len() {
			e := v.Index(i)
			p.visit(fmt.Sprintf("%s[%d]", path, i), e, func(nv reflect.Value) { e.Set(nv) })
		}
	case reflect.Map:
		p.collection(path, v, try)
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			p.visit(fmt.Sprintf("%s[%q]", path, k.String()), e, func(nv reflect.Value) { e.Set(nv) })
			v.SetMapIndex(k, e)
		}
	case reflect.Interface:
		if v.IsNil() {
			try("non-nil", with(func(nv reflect.Value) { nv.Set(reflect.ValueOf("x")) }))
			return
		}
		e := reflect.New(v.Elem().Type()).Elem()
		e.Set(v.Elem())
		p.visit(path, e, func(nv reflect.Value) { e.Set(nv) })
		set(e)
		try("int", with(func(nv reflect.Value) { nv.Set(reflect.ValueOf(7)) }))
	case reflect.Struct:
		if v.Type() == timeType {
			tm := v.Interface().(time.Time)
			try("+1ns", reflect.ValueOf(tm.Add(1)))
			try("zone", reflect.ValueOf(tm.In(time.FixedZone("X", 3600))))
			return
		}
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			if !sf.IsExported() {
				continue
			}
			f := v.Field(i)
			p.visit(path+"."+sf.Name, f, func(nv reflect.Value) { f.Set(nv) })
		}
	}
}

// collection offers a slice's or map's own changes: nil, emptied, grown
// by a zero entry.
func (p *perturber) collection(path string, v reflect.Value, try func(string, reflect.Value)) {
	if v.IsNil() && v.Kind() == reflect.Slice {
		try("empty", reflect.MakeSlice(v.Type(), 0, 0))
	}
	if v.IsNil() {
		try("empty", reflect.MakeMap(v.Type()))
		return
	}
	try("nil", reflect.Zero(v.Type()))
	if v.Kind() == reflect.Slice {
		try("empty", reflect.MakeSlice(v.Type(), 0, 0))
		try("grown", reflect.Append(v, reflect.Zero(v.Type().Elem())))
		return
	}
	try("empty", reflect.MakeMap(v.Type()))
	grown := reflect.MakeMap(v.Type())
	for it := v.MapRange(); it.Next(); {
		grown.SetMapIndex(it.Key(), it.Value())
	}
	grown.SetMapIndex(reflect.ValueOf("zz").Convert(v.Type().Key()), reflect.Zero(v.Type().Elem()))
	try("grown", grown)
}
