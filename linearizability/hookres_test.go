package linearizability

import (
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

func TestCheckHookResources(t *testing.T) {
	onlyA := map[string]string{"a": "/csi/a"}
	cases := []struct {
		name string
		ops  []Op
		want Verdict
	}{
		{"empty history", nil, Ok},
		{"get before any set sees the empty map", []Op{
			get(0, 0, 1, ab, "a"),
		}, Ok},
		{"sequential set then get", []Op{
			set(0, 0, 10, fullAB),
			getSrc(1, 20, 30, ab, "", fullAB),
			get(1, 40, 50, ab, ""),
		}, Ok},
		{"get overlapping the set sees the empty map", []Op{
			set(0, 10, 20, fullAB),
			get(1, 15, 25, ab, "a"),
		}, Ok},
		{"get overlapping the set sees the complete map", []Op{
			set(0, 10, 20, fullAB),
			get(1, 5, 15, ab, ""),
		}, Ok},
		{"touching intervals overlap (closed)", []Op{
			set(0, 10, 20, fullAB),
			get(1, 20, 30, ab, "a"),
		}, Ok},
		{"a complete map of fewer aliases is not partial", []Op{
			set(0, 0, 10, onlyA),
			getSrc(1, 20, 30, ab, "b", onlyA),
		}, Ok},
		{"a later set replaces the whole map", []Op{
			set(0, 0, 10, fullAB),
			set(0, 20, 30, map[string]string{"a": "/csi/a2"}),
			getSrc(1, 40, 50, ab, "b", map[string]string{"a": "/csi/a2"}),
		}, Ok},
		{"unsorted aliases are checked sorted", []Op{
			set(0, 0, 10, onlyA),
			get(1, 20, 30, []string{"b", "a"}, "b"),
		}, Ok},
		{"a task with no CSI volumes misses nothing", []Op{
			get(1, 0, 1, nil, ""),
		}, Ok},

		{"partial map: b missing though only {a,b} was set", []Op{
			set(0, 10, 20, fullAB),
			get(1, 12, 18, ab, "b"),
		}, Illegal},
		{"stale: a get invoked after the set returned sees the empty map", []Op{
			set(0, 10, 20, fullAB),
			get(1, 21, 30, ab, "a"),
		}, Illegal},
		{"empty map after a complete one was seen", []Op{
			set(0, 0, 100, fullAB),
			get(1, 10, 20, ab, ""),
			get(2, 30, 40, ab, "a"),
		}, Illegal},
		{"wrong source", []Op{
			set(0, 0, 10, fullAB),
			getSrc(1, 20, 30, ab, "", map[string]string{"a": "/csi/a", "b": "/elsewhere"}),
		}, Illegal},
		{"sources of an alias the task does not mount", []Op{
			set(0, 0, 10, fullAB),
			getSrc(1, 20, 30, []string{"a"}, "", fullAB),
		}, Illegal},
		{"sources past the first missing alias", []Op{
			set(0, 0, 10, map[string]string{"b": "/csi/b"}),
			getSrc(1, 20, 30, ab, "a", map[string]string{"b": "/csi/b"}),
		}, Illegal},
		{"missing an alias the task does not mount", []Op{
			get(1, 0, 1, ab, "c"),
		}, Illegal},
		{"a map no set produced: a setter building the map in place", []Op{
			// HOOKRES-4: the reader saw {a} while the map was filled in;
			// that is legal only if {a} was itself set.
			set(0, 0, 10, fullAB),
			set(0, 20, 30, fullAB),
			get(1, 12, 18, ab, "b"),
		}, Illegal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := CheckHookResources([]Partition{{Key: "alloc1/0", Ops: tc.ops}}, Options{})
			must.NoError(t, err)
			must.EqOp(t, tc.want, r.Verdict, must.Sprint(r))
			if tc.want == Illegal {
				must.EqOp(t, "alloc1/0", r.Key)
			}
		})
	}
}

// An Open set may take effect at any point after its call, or never; once
// it took effect it stays.
func TestHookResourcesOpenSet(t *testing.T) {
	cases := []struct {
		name string
		ops  []Op
		want Verdict
	}{
		{"never took effect", []Op{
			set(0, 10, Open, fullAB),
			get(1, 100, 110, ab, "a"),
			get(1, 200, 210, ab, "a"),
		}, Ok},
		{"took effect late", []Op{
			set(0, 10, Open, fullAB),
			get(1, 100, 110, ab, "a"),
			get(1, 200, 210, ab, ""),
		}, Ok},
		{"took effect, then undone", []Op{
			set(0, 10, Open, fullAB),
			get(1, 100, 110, ab, ""),
			get(1, 200, 210, ab, "a"),
		}, Illegal},
		{"no effect before its call", []Op{
			get(1, 0, 5, ab, ""),
			set(0, 10, Open, fullAB),
		}, Illegal},
		{"an open set still sets a complete map", []Op{
			set(0, 10, Open, fullAB),
			get(1, 100, 110, ab, "b"),
		}, Illegal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := CheckHookResources([]Partition{{Key: "alloc1/0", Ops: tc.ops}}, Options{})
			must.NoError(t, err)
			must.EqOp(t, tc.want, r.Verdict, must.Sprint(r))
		})
	}
}

func TestCheckHookResourcesRejectsMalformed(t *testing.T) {
	cases := []struct {
		name  string
		parts []Partition
		want  string
	}{
		{"empty key", []Partition{{Ops: []Op{get(0, 0, 1, ab, "a")}}}, "empty key"},
		{"duplicate key", []Partition{{Key: "k"}, {Key: "k"}}, "duplicate key"},
		{"server view input", []Partition{{Key: "k", Ops: []Op{read(0, 0, 1, "k", "")}}}, "want a SetMounts or GetMounts"},
		{"get without MountsSeen", []Partition{{Key: "k", Ops: []Op{{Input: GetMounts{Aliases: ab}}}}}, "want a MountsSeen"},
		{"set with an output", []Partition{{Key: "k", Ops: []Op{{Input: SetMounts{}, Output: "error"}}}}, "want nil"},
		{"return before call", []Partition{{Key: "k", Ops: []Op{get(0, 5, 4, ab, "a")}}}, "return 4 before call 5"},
		{"open call", []Partition{{Key: "k", Ops: []Op{get(0, Open, Open, ab, "a")}}}, "call time is Open"},
		{"negative client", []Partition{{Key: "k", Ops: []Op{get(-1, 0, 1, ab, "a")}}}, "negative client"},
		{"open annotation start", []Partition{{Key: "k", Annotations: []Annotation{{Start: Open}}}}, "start time is Open"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CheckHookResources(tc.parts, Options{})
			must.ErrorContains(t, err, tc.want)
			must.StrHasPrefix(t, "check hook resources: ", err.Error())
		})
	}
}

func TestDescribeHookResources(t *testing.T) {
	cases := []struct {
		op   Op
		want string
	}{
		{set(0, 0, 1, map[string]string{"b": "/y", "a": "/x"}), `set {"a": "/x", "b": "/y"}`},
		{set(0, 0, 1, nil), `set {}`},
		{get(0, 0, 1, []string{"b", "a"}, ""), `get ["a" "b"] -> all present`},
		{get(0, 0, 1, ab, "b"), `get ["a" "b"] -> missing "b"`},
		{getSrc(0, 0, 1, ab, "", fullAB), `get ["a" "b"] -> {"a": "/csi/a", "b": "/csi/b"}`},
		{getSrc(0, 0, 1, ab, "b", map[string]string{"a": "/x"}), `get ["a" "b"] -> missing "b" after {"a": "/x"}`},
	}
	for _, tc := range cases {
		must.EqOp(t, tc.want, describeHookResOp(tc.op.Input, tc.op.Output))
	}
	// Quoting keeps the canonical state unambiguous.
	tricky := newMountsState(map[string]string{`a": "b`: "c"})
	plain := newMountsState(map[string]string{"a": `b", "c`})
	must.NotEqOp(t, tricky.canon, plain.canon)
	must.False(t, hookResModel.Equal(tricky, plain))
	must.True(t, hookResModel.Equal(newMountsState(fullAB), newMountsState(map[string]string{"b": "/csi/b", "a": "/csi/a"})))
	must.True(t, strings.HasPrefix(hookResModel.DescribeState(hookResModel.Init()), "{}"))
}

// The model never mutates the maps it is given.
func TestHookResourcesStepIsPure(t *testing.T) {
	m := map[string]string{"a": "/x"}
	_, s := hookResStep(hookResModel.Init(), SetMounts{Mounts: m}, nil)
	m["b"] = "/y"
	must.EqOp(t, `{"a": "/x"}`, s.(mountsState).canon)
	must.MapLen(t, 1, s.(mountsState).m)
}
