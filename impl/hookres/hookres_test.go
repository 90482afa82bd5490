package hookres

import (
	"encoding/json"
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

type mounts = map[string]*interfaces.CSIMountPoint

// TestCSIMounts checks HOOKRES-2 step by step: each row runs steps on fresh
// hook resources and compares the final GetCSIMounts with want.
func TestCSIMounts(t *testing.T) {
	cases := []struct {
		name  string
		new   func() *HookResources
		steps func(h *HookResources)
		want  mounts
	}{
		{
			name:  "new is empty (HOOKRES-2)",
			new:   New,
			steps: func(*HookResources) {},
			want:  mounts{},
		},
		{
			name:  "zero value is empty (HOOKRES-1)",
			new:   func() *HookResources { return new(HookResources) },
			steps: func(*HookResources) {},
			want:  mounts{},
		},
		{
			name: "set then get",
			new:  New,
			steps: func(h *HookResources) {
				h.SetCSIMounts(mounts{"data": {Source: "/mnt/data"}, "dev": {Source: "/dev/sdb", IsDevice: true}})
			},
			want: mounts{"data": {Source: "/mnt/data"}, "dev": {Source: "/dev/sdb", IsDevice: true}},
		},
		{
			name: "set replaces, never merges (HOOKRES-2)",
			new:  New,
			steps: func(h *HookResources) {
				h.SetCSIMounts(mounts{"a": {Source: "/a"}, "b": {Source: "/b"}})
				h.SetCSIMounts(mounts{"c": {Source: "/c"}})
			},
			want: mounts{"c": {Source: "/c"}},
		},
		{
			name: "set nil stores the empty map",
			new:  New,
			steps: func(h *HookResources) {
				h.SetCSIMounts(mounts{"a": {Source: "/a"}})
				h.SetCSIMounts(nil)
			},
			want: mounts{},
		},
		{
			name: "nil entries are dropped (HOOKRES-3)",
			new:  New,
			steps: func(h *HookResources) {
				h.SetCSIMounts(mounts{"a": {Source: "/a"}, "nil": nil})
			},
			want: mounts{"a": {Source: "/a"}},
		},
		{
			name: "mutating the argument after set does not leak in (HOOKRES-4)",
			new:  New,
			steps: func(h *HookResources) {
				arg := mounts{"a": {Source: "/a"}, "b": {Source: "/b"}}
				h.SetCSIMounts(arg)
				arg["a"].Source = "/changed"
				arg["a"].IsDevice = true
				delete(arg, "b")
				arg["new"] = &interfaces.CSIMountPoint{Source: "/new"}
			},
			want: mounts{"a": {Source: "/a"}, "b": {Source: "/b"}},
		},
		{
			name: "mutating a returned map does not leak in (HOOKRES-4)",
			new:  New,
			steps: func(h *HookResources) {
				h.SetCSIMounts(mounts{"a": {Source: "/a"}, "b": {Source: "/b"}})
				got := h.GetCSIMounts()
				got["a"].Source = "/changed"
				got["b"] = nil
				got["new"] = &interfaces.CSIMountPoint{Source: "/new"}
				delete(got, "a")
			},
			want: mounts{"a": {Source: "/a"}, "b": {Source: "/b"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.new()
			tc.steps(h)
			got := h.GetCSIMounts()
			must.NotNil(t, got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("GetCSIMounts() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGetReturnsFreshCopies checks that two getters never share a map or a
// mount point (HOOKRES-1: getters return deep copies).
func TestGetReturnsFreshCopies(t *testing.T) {
	h := New()
	h.SetCSIMounts(mounts{"a": {Source: "/a"}})
	first, second := h.GetCSIMounts(), h.GetCSIMounts()
	must.True(t, first["a"] != second["a"], must.Sprint("two GetCSIMounts share a *CSIMountPoint"))
	first["x"] = &interfaces.CSIMountPoint{}
	must.MapNotContainsKey(t, second, "x")
}

// TestCSIMountPointJSON pins the JSON field names used in traces (DATA-1
// style: Go field names).
func TestCSIMountPointJSON(t *testing.T) {
	cases := []struct {
		in   interfaces.CSIMountPoint
		want string
	}{
		{interfaces.CSIMountPoint{}, `{"Source":"","IsDevice":false}`},
		{interfaces.CSIMountPoint{Source: "/dev/sdb", IsDevice: true}, `{"Source":"/dev/sdb","IsDevice":true}`},
	}
	for _, tc := range cases {
		b, err := json.Marshal(tc.in)
		must.NoError(t, err)
		must.EqOp(t, tc.want, string(b))
		var back interfaces.CSIMountPoint
		must.NoError(t, json.Unmarshal(b, &back))
		must.EqOp(t, tc.in, back)
	}
}
