package linearizability

import (
	"fmt"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"
)

// sequential is a server-view partition of n ops, none overlapping: a
// store of v<i> then a read of it, over and over. It is linearizable and
// its search takes one model step per op.
func sequential(key string, n int) Partition {
	ops := make([]Op, 0, n)
	for i := range n {
		v := fmt.Sprint("v", i/2)
		t := int64(10 * i)
		if i%2 == 0 {
			ops = append(ops, store(0, t, t+5, key, v))
		} else {
			ops = append(ops, read(1, t, t+5, key, v))
		}
	}
	return Partition{Key: key, Ops: ops}
}

// A partition with more operations than the budget allows is not
// searched: Unknown, at once, with the count and the budget in the
// message.
func TestBudgetOpsRefusesALongPartition(t *testing.T) {
	r, err := CheckServerView([]Partition{sequential("a", 101)}, Options{Budget: Budget{Ops: 100}})
	must.NoError(t, err)
	must.EqOp(t, Unknown, r.Verdict)
	must.EqOp(t, "a", r.Key)
	must.SliceLen(t, 1, r.Exhausted)
	e := r.Exhausted[0]
	must.EqOp(t, LimitOps, e.Limit)
	must.EqOp(t, 101, e.Ops)
	must.EqOp(t, 0, e.Steps, must.Sprint("not searched"))
	must.EqOp(t, 100, e.Budget.Ops)
	must.EqOp(t, DefaultBudget.Steps, e.Budget.Steps, must.Sprint("zero fields take the default"))
	must.StrContains(t, r.String(),
		`partition "a": 101 operations, over the suite's budget of 100 operations per partition; not searched (a limit of the suite, not a fault of the runner)`)

	// The default budget: one op over it.
	n := DefaultBudget.Ops + 1
	r, err = CheckServerView([]Partition{sequential("b", n)}, Options{})
	must.NoError(t, err)
	must.EqOp(t, Unknown, r.Verdict)
	must.EqOp(t, LimitOps, r.Exhausted[0].Limit)
	must.StrContains(t, r.String(), fmt.Sprintf(`partition "b": %d operations, over the suite's budget of %d operations per partition`, n, DefaultBudget.Ops))

	// Even unsearched, the history is drawn.
	must.True(t, r.CanVisualize())
	path := filepath.Join(t.TempDir(), "long.html")
	must.NoError(t, r.Visualize(path))
	_, data := readViz(t, path)
	must.SliceLen(t, 1, data.Partitions)
	must.SliceLen(t, n, data.Partitions[0].History)
}

// A search is Ok only if it completes within the step budget: a
// sequential history takes one step per op.
func TestBudgetStepsBoundsTheSearch(t *testing.T) {
	part := sequential("a", 40)
	r, err := CheckServerView([]Partition{part}, Options{Budget: Budget{Steps: 40}})
	must.NoError(t, err)
	must.EqOp(t, Ok, r.Verdict)

	r, err = CheckServerView([]Partition{part}, Options{Budget: Budget{Steps: 39}})
	must.NoError(t, err)
	must.EqOp(t, Unknown, r.Verdict, must.Sprint("a refused step proves nothing: Unknown, not Illegal"))
	e := r.Exhausted[0]
	must.EqOp(t, LimitSteps, e.Limit)
	must.EqOp(t, 39, e.Steps)
	must.EqOp(t, 40, e.Ops)
	must.StrContains(t, r.String(), `partition "a": 40 operations (at most 1 in flight), not decided within the suite's budget of 39 model steps per partition (a limit of the suite, not a fault of the runner)`)
}

// The budget counts work, so a history beyond it gives the same Unknown,
// with the same counts, every time.
func TestBudgetIsDeterministic(t *testing.T) {
	parts := []Partition{ambiguous("x", 20)}
	first, err := CheckServerView(parts, Options{})
	must.NoError(t, err)
	must.EqOp(t, Unknown, first.Verdict)
	must.EqOp(t, DefaultBudget.Steps, first.Exhausted[0].Steps)
	for range 3 {
		again, err := CheckServerView(parts, Options{})
		must.NoError(t, err)
		must.Eq(t, first.Exhausted, again.Exhausted)
		must.EqOp(t, first.String(), again.String())
	}
}

// The memory budget stops a search whose states would outgrow it.
func TestBudgetMemoryBoundsTheStates(t *testing.T) {
	const mem = 1 << 20
	r, err := CheckHookResources([]Partition{{Key: "alloc/0", Ops: ambiguousMounts(24)}},
		Options{Budget: Budget{Steps: -1, Memory: mem}})
	must.NoError(t, err)
	must.EqOp(t, Unknown, r.Verdict)
	e := r.Exhausted[0]
	must.EqOp(t, LimitMemory, e.Limit)
	must.Positive(t, e.States)
	must.LessEq(t, int64(mem), int64(e.States)*StateBytes(e.Ops))
	must.Greater(t, int64(mem), int64(e.States+1)*StateBytes(e.Ops))
	must.StrContains(t, r.String(), fmt.Sprintf(`partition "alloc/0": 25 operations (at most 24 in flight), not decided within the suite's budget of 1 MiB of search state per partition (%d search states of about %d bytes, after %d model steps)`,
		e.States, StateBytes(25), e.Steps))
}

// ambiguousMounts is ambiguous for the hook resources model: n concurrent
// sets of distinct maps, then a read of a source never set.
func ambiguousMounts(n int) []Op {
	var ops []Op
	for i := range n {
		ops = append(ops, set(i, 0, 100, map[string]string{"a": fmt.Sprint("/csi/a/", i)}))
	}
	return append(ops, getSrc(n, 200, 210, []string{"a"}, "", map[string]string{"a": "never set"}))
}

// Inside a synctest bubble, where the suite's checks run, a check beyond
// its budget still returns, Unknown; the bubble's clock, which a time
// limit would have waited on, never moves.
func TestBudgetWorksInsideABubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		r, err := CheckServerView([]Partition{ambiguous("x", 24), sequential("y", DefaultBudget.Ops+1)}, Options{})
		must.NoError(t, err)
		must.EqOp(t, Unknown, r.Verdict)
		must.SliceLen(t, 2, r.Exhausted)
		must.EqOp(t, LimitSteps, r.Exhausted[0].Limit)
		must.EqOp(t, LimitOps, r.Exhausted[1].Limit)

		h, err := CheckHookResources([]Partition{{Key: "alloc/0", Ops: ambiguousMounts(24)}}, Options{})
		must.NoError(t, err)
		must.EqOp(t, Unknown, h.Verdict)
		must.EqOp(t, 25, h.Exhausted[0].Ops)

		must.EqOp(t, time.Duration(0), time.Since(start), must.Sprint("no timer was waited on"))
	})
}

func TestBudgetStrings(t *testing.T) {
	must.EqOp(t, "10000 operations, 100000 model steps and 32 MiB of search state per partition", DefaultBudget.String())
	must.EqOp(t, "no limit of operations, 5 model steps and no limit of search memory per partition",
		Budget{Ops: -1, Steps: 5, Memory: -1}.String())
	must.EqOp(t, "12345 bytes of search state", memoryText(12345))
	must.EqOp(t, "model steps", LimitSteps.String())
	must.EqOp(t, "limit(9)", Limit(9).String())
	must.EqOp(t, int64(8+160), StateBytes(1))
	must.EqOp(t, int64(16+160), StateBytes(65))
}
