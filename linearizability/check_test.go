package linearizability

import (
	"slices"
	"strings"
	"testing"
	"time"

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
	r, err := CheckServerView([]Partition{okPart("b"), okPart("a")}, Options{Timeout: time.Minute})
	must.NoError(t, err)
	must.EqOp(t, Ok, r.Verdict)
	must.EqOp(t, "", r.Key)
	must.EqOp(t, 2, r.Checked)
	must.EqOp(t, "server view: ok (2 partitions)", r.String())

	r, err = CheckHookResources(nil, Options{})
	must.NoError(t, err)
	must.EqOp(t, Ok, r.Verdict, must.Sprint("no partitions: nothing to disprove"))
}

// A timeout gives Unknown, which is neither Ok nor Illegal, and is reported
// as not proven.
func TestCheckTimeoutIsUnknown(t *testing.T) {
	r, err := CheckServerView([]Partition{okPart("a"), ambiguous("b", 24), okPart("c")},
		Options{Timeout: 100 * time.Millisecond})
	must.NoError(t, err)
	must.EqOp(t, Unknown, r.Verdict)
	must.NotEqOp(t, Ok, r.Verdict)
	must.EqOp(t, "b", r.Key)
	must.Eq(t, []string{"b"}, r.TimedOut)
	must.EqOp(t, 3, r.Checked, must.Sprint("a timeout does not stop checking"))
	must.StrContains(t, r.String(), "unknown (not proven)")
	must.StrContains(t, r.String(), "1 of 3 partitions timed out: b")
}

// An Illegal partition after a timed-out one makes the result Illegal, and
// the timeout is still listed.
func TestCheckIllegalOutranksUnknown(t *testing.T) {
	r, err := CheckServerView([]Partition{illegalPart("b"), ambiguous("a", 24)},
		Options{Timeout: 100 * time.Millisecond})
	must.NoError(t, err)
	must.EqOp(t, Illegal, r.Verdict)
	must.EqOp(t, "b", r.Key)
	must.Eq(t, []string{"a"}, r.TimedOut)
	must.True(t, strings.HasPrefix(r.String(), `server view: illegal: partition "b"`))
}

// Given time, a smaller ambiguous history is decided: Unknown comes from
// the timeout, not from the model.
func TestCheckWithoutTimeoutDecides(t *testing.T) {
	r, err := CheckServerView([]Partition{ambiguous("a", 8)}, Options{})
	must.NoError(t, err)
	must.EqOp(t, Illegal, r.Verdict)
}
