package linearizability

import (
	"testing"

	"github.com/shoenig/test/must"
)

func TestCheckServerView(t *testing.T) {
	const x = "alloc-x"
	cases := []struct {
		name string
		ops  []Op
		want Verdict
	}{
		{"nothing stored yet", []Op{read(0, 0, 1, x, "")}, Ok},
		{"sequential stores and reads", []Op{
			store(0, 0, 10, x, "pending#1"),
			read(1, 20, 30, x, "pending#1"),
			store(0, 40, 50, x, "running#2"),
			read(1, 60, 70, x, "running#2"),
		}, Ok},
		{"a read overlapping a store sees the old value", []Op{
			store(0, 0, 10, x, "pending#1"),
			store(0, 20, 30, x, "running#2"),
			read(1, 25, 35, x, "pending#1"),
		}, Ok},
		{"a read overlapping a store sees the new value", []Op{
			store(0, 0, 10, x, "pending#1"),
			store(0, 20, 30, x, "running#2"),
			read(1, 15, 25, x, "running#2"),
		}, Ok},
		{"an open store that never landed", []Op{
			store(0, 0, 10, x, "pending#1"),
			store(0, 20, Open, x, "running#2"),
			read(1, 100, 110, x, "pending#1"),
		}, Ok},
		{"an open store that landed", []Op{
			store(0, 0, 10, x, "pending#1"),
			store(0, 20, Open, x, "running#2"),
			read(1, 100, 110, x, "running#2"),
		}, Ok},

		{"a read after a completed store sees an older value", []Op{
			store(0, 0, 10, x, "pending#1"),
			store(0, 20, 30, x, "running#2"),
			read(1, 31, 40, x, "pending#1"),
		}, Illegal},
		{"nothing stored after a completed store", []Op{
			store(0, 0, 10, x, "pending#1"),
			read(1, 11, 20, x, ""),
		}, Illegal},
		{"a value never stored", []Op{
			store(0, 0, 10, x, "pending#1"),
			read(1, 11, 20, x, "running#2"),
		}, Illegal},
		{"newer then older, stores concurrent", []Op{
			store(0, 0, 10, x, "pending#1"),
			store(1, 0, 10, x, "running#2"),
			read(2, 20, 21, x, "running#2"),
			read(2, 22, 23, x, "pending#1"),
		}, Illegal},
		{"an open store that landed stays", []Op{
			store(0, 0, 1, x, "pending#1"),
			store(0, 2, Open, x, "running#2"),
			read(1, 5, 6, x, "running#2"),
			read(1, 7, 8, x, "pending#1"),
		}, Illegal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parts, err := PartitionServerView(tc.ops)
			must.NoError(t, err)
			r, err := CheckServerView(parts, Options{})
			must.NoError(t, err)
			must.EqOp(t, tc.want, r.Verdict, must.Sprint(r))
		})
	}
}

func TestPartitionServerView(t *testing.T) {
	ops := []Op{
		store(0, 0, 1, "b", "v1"),
		store(0, 0, 1, "a", "v1"),
		read(1, 2, 3, "b", "v1"),
	}
	parts, err := PartitionServerView(ops)
	must.NoError(t, err)
	must.SliceLen(t, 2, parts)
	must.EqOp(t, "a", parts[0].Key)
	must.SliceLen(t, 1, parts[0].Ops)
	must.EqOp(t, "b", parts[1].Key)
	must.Eq(t, []Op{ops[0], ops[2]}, parts[1].Ops)

	_, err = PartitionServerView([]Op{set(0, 0, 1, nil)})
	must.ErrorContains(t, err, "op 0: input")
}

func TestCheckServerViewRejectsMalformed(t *testing.T) {
	cases := []struct {
		name string
		ops  []Op
		want string
	}{
		{"alloc of another partition", []Op{read(0, 0, 1, "other", "")}, `alloc "other" in the partition of "x"`},
		{"empty value", []Op{store(0, 0, 1, "x", "")}, "store of an empty value"},
		{"store with an output", []Op{{Input: StoreState{Alloc: "x", Value: "v"}, Output: StateSeen{}}}, "want nil"},
		{"read without StateSeen", []Op{{Input: ReadState{Alloc: "x"}, Output: "v"}}, "want a StateSeen"},
		{"hook resources input", []Op{set(0, 0, 1, nil)}, "want a StoreState or ReadState"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CheckServerView([]Partition{{Key: "x", Ops: tc.ops}}, Options{})
			must.ErrorContains(t, err, tc.want)
		})
	}
}

func TestDescribeServerView(t *testing.T) {
	must.EqOp(t, `store "running#2"`, describeServerViewOp(StoreState{Alloc: "x", Value: "running#2"}, nil))
	must.EqOp(t, `read -> "running#2"`, describeServerViewOp(ReadState{Alloc: "x"}, StateSeen{Value: "running#2"}))
	must.EqOp(t, `read -> nothing`, describeServerViewOp(ReadState{Alloc: "x"}, StateSeen{}))
	must.EqOp(t, `nothing`, serverViewModel.DescribeState(serverViewModel.Init()))
}
