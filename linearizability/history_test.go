package linearizability

import (
	"testing"

	"github.com/shoenig/test/must"
)

func TestMaxInFlight(t *testing.T) {
	cases := []struct {
		name string
		ops  []Op
		want int
	}{
		{"empty", nil, 0},
		{"one", []Op{get(0, 0, 10, ab, "a")}, 1},
		{"sequential", []Op{get(0, 0, 10, ab, "a"), get(0, 11, 20, ab, "a")}, 1},
		{"touching intervals overlap (closed)", []Op{get(0, 0, 10, ab, "a"), get(1, 10, 20, ab, "a")}, 2},
		{"instantaneous ops at one instant", []Op{get(0, 5, 5, ab, "a"), get(1, 5, 5, ab, "a")}, 2},
		{"nested", []Op{get(0, 0, 100, ab, "a"), get(1, 10, 20, ab, "a"), get(2, 30, 40, ab, "a")}, 2},
		{"open stays in flight", []Op{
			set(0, 0, Open, fullAB), get(1, 10, 20, ab, "a"), get(2, 30, 40, ab, "a"), set(3, 35, Open, fullAB),
		}, 3},
		{"unsorted input", []Op{get(2, 30, 40, ab, "a"), get(0, 0, 35, ab, "a"), get(1, 36, 50, ab, "a")}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.EqOp(t, tc.want, MaxInFlight(tc.ops))
		})
	}
	must.EqOp(t, 24, MaxInFlight(ambiguous("x", 24).Ops))
}

func TestHorizon(t *testing.T) {
	must.EqOp(t, 0, horizon(nil, nil))
	ops := []Op{set(0, 10, Open, fullAB), get(1, 20, 30, ab, "a")}
	must.EqOp(t, 31, horizon(ops, nil))
	must.EqOp(t, 51, horizon(ops, []Annotation{{Start: 40, End: 50}}))
	must.EqOp(t, 61, horizon(ops, []Annotation{{Start: 60, End: Open}}))
	must.EqOp(t, 11, horizon([]Op{set(0, 10, Open, fullAB)}, nil))
	must.EqOp(t, Open, horizon([]Op{get(0, 0, Open-1, ab, "a")}, nil))
}

func TestToPorcupineMapsOpenReturns(t *testing.T) {
	ops := []Op{
		set(0, 10, Open, fullAB),
		{Client: 1, Call: 20, Return: 30, Input: GetMounts{Aliases: ab}, Output: MountsSeen{Missing: "a"}, Note: "trace line 7"},
		{Client: 2, Call: 25, Return: Open, Input: SetMounts{}, Note: "crashed"},
	}
	got := toPorcupine(ops, horizon(ops, nil))
	must.SliceLen(t, 3, got)
	must.EqOp(t, 31, got[0].Return)
	must.EqOp(t, openNote, describeNote(got[0].Metadata))
	must.EqOp(t, 30, got[1].Return)
	must.EqOp(t, "trace line 7", describeNote(got[1].Metadata))
	must.EqOp(t, 31, got[2].Return)
	must.EqOp(t, "crashed; "+openNote, describeNote(got[2].Metadata))
	must.EqOp(t, 2, got[2].ClientId)

	annots := toPorcupineAnnotations([]Annotation{
		{Tag: "faults", Start: 5, End: Open, Description: "partition"},
		{Client: 1, Start: 7, End: 3, Description: "crash"},
	}, 31)
	must.EqOp(t, 31, annots[0].End)
	must.EqOp(t, "faults", annots[0].Tag)
	must.EqOp(t, 3, annots[1].End) // porcupine draws End < Start as a point
	must.EqOp(t, 1, annots[1].ClientId)
}

func TestOpIsOpen(t *testing.T) {
	must.True(t, set(0, 0, Open, nil).IsOpen())
	must.False(t, set(0, 0, 1, nil).IsOpen())
}
