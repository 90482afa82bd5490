package linearizability

import (
	"slices"
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

// okPart and illegalPart are one-alloc server view partitions.
func okPart(key string) Partition {
	return Partition{Key: key, Ops: []Op{store(0, 0, 1, key, "v1"), read(1, 2, 3, key, "v1")}}
}

func illegalPart(key string) Partition {
	return Partition{Key: key, Ops: []Op{store(0, 0, 1, key, "v1"), read(1, 2, 3, key, "")}}
}

func TestCheckOrderIsByKey(t *testing.T) {
	cases := []struct {
		name    string
		parts   []Partition
		key     string
		checked int
	}{
		{"first illegal by key, not by position", []Partition{illegalPart("b"), illegalPart("a"), okPart("c")}, "a", 1},
		{"checks every ok partition before", []Partition{illegalPart("c"), okPart("a"), okPart("b")}, "c", 3},
		{"stops at the first illegal", []Partition{okPart("a"), illegalPart("b"), illegalPart("c"), okPart("d")}, "b", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			orig := slices.Clone(tc.parts)
			r, err := CheckServerView(tc.parts, Options{})
			must.NoError(t, err)
			must.EqOp(t, Illegal, r.Verdict)
			must.EqOp(t, tc.key, r.Key)
			must.EqOp(t, tc.checked, r.Checked)
			must.EqOp(t, len(tc.parts), r.Partitions)
			must.Eq(t, orig, tc.parts, must.Sprint("the caller's slice is not reordered"))

			again, err := CheckServerView(tc.parts, Options{})
			must.NoError(t, err)
			must.EqOp(t, r.String(), again.String())
		})
	}
}

func TestCheckOk(t *testing.T) {
	r, err := CheckServerView([]Partition{okPart("b"), okPart("a")}, Options{})
	must.NoError(t, err)
	must.EqOp(t, Ok, r.Verdict)
	must.EqOp(t, "", r.Key)
	must.EqOp(t, 2, r.Checked)
	must.EqOp(t, "server view: ok (2 partitions)", r.String())

	r, err = CheckHookResources(nil, Options{})
	must.NoError(t, err)
	must.EqOp(t, Ok, r.Verdict, must.Sprint("no partitions: nothing to disprove"))
}

// Running out of the budget gives Unknown, which is neither Ok nor
// Illegal, is reported as not proven with what ran out, and does not stop
// checking.
func TestCheckBudgetIsUnknown(t *testing.T) {
	r, err := CheckServerView([]Partition{okPart("a"), ambiguous("b", 24), okPart("c")}, Options{})
	must.NoError(t, err)
	must.EqOp(t, Unknown, r.Verdict)
	must.NotEqOp(t, Ok, r.Verdict)
	must.EqOp(t, "b", r.Key)
	must.Eq(t, DefaultBudget, r.Budget)
	must.SliceLen(t, 1, r.Exhausted)
	must.EqOp(t, "b", r.Exhausted[0].Key)
	must.EqOp(t, LimitSteps, r.Exhausted[0].Limit)
	must.EqOp(t, 3, r.Checked, must.Sprint("running out does not stop checking"))
	must.StrContains(t, r.String(), "unknown (not proven)")
	must.StrContains(t, r.String(), "1 of 3 partitions ran out of the suite's budget")
	must.StrContains(t, r.String(), `partition "b": 25 operations (at most 24 in flight)`)
	must.StrContains(t, r.String(), "a limit of the suite, not a fault of the runner")
}

// An Illegal partition after an Unknown one makes the result Illegal, and
// the Unknown one is still listed.
func TestCheckIllegalOutranksUnknown(t *testing.T) {
	r, err := CheckServerView([]Partition{illegalPart("b"), ambiguous("a", 24)}, Options{})
	must.NoError(t, err)
	must.EqOp(t, Illegal, r.Verdict)
	must.EqOp(t, "b", r.Key)
	must.SliceLen(t, 1, r.Exhausted)
	must.EqOp(t, "a", r.Exhausted[0].Key)
	must.True(t, strings.HasPrefix(r.String(), `server view: illegal: partition "b"`))
}

// Within budget an ambiguous history is decided, and a larger one is
// decided given a larger budget: Unknown comes from the budget, not from
// the model.
func TestCheckWithinBudgetDecides(t *testing.T) {
	r, err := CheckServerView([]Partition{ambiguous("a", 8)}, Options{})
	must.NoError(t, err)
	must.EqOp(t, Illegal, r.Verdict)

	r, err = CheckServerView([]Partition{ambiguous("a", 14)}, Options{})
	must.NoError(t, err)
	must.EqOp(t, Unknown, r.Verdict)
	r, err = CheckServerView([]Partition{ambiguous("a", 14)}, Options{Budget: Budget{Steps: -1, Memory: -1}})
	must.NoError(t, err)
	must.EqOp(t, Illegal, r.Verdict)
	must.SliceEmpty(t, r.Exhausted)
}
