package syncing

import (
	"fmt"
	"testing"

	"github.com/allocsim/allocsim/linearizability"
	"github.com/shoenig/test/must"
)

// A server view beyond the suite's budget (n Open stores, in flight from
// their call on, and a read among them) is reported as not proven, with
// the operations and the budget on both sides, as the suite's limit and
// not the runner's fault: never as a pass, never as a broken runner.
func TestUnprovenNamesTheBudget(t *testing.T) {
	const n = 24
	ops := make([]linearizability.Op, 0, 2*n+1)
	for i := range n {
		ops = append(ops, linearizability.Op{Client: i, Call: 0, Return: linearizability.Open,
			Input: linearizability.StoreState{Alloc: "a1", Value: fmt.Sprint("running#", i)}})
	}
	// Reads see each store in turn and then the first again, which no
	// order explains: the search tries the stores' subsets until the
	// budget ends it. (A store no read saw would be dropped before it.)
	for i := range n + 1 {
		ops = append(ops, linearizability.Op{Client: n + i, Call: int64(200 + 20*i), Return: int64(210 + 20*i),
			Input: linearizability.ReadState{Alloc: "a1"}, Output: linearizability.StateSeen{Value: fmt.Sprint("running#", i%n)}})
	}
	res, err := linearizability.CheckServerView([]linearizability.Partition{{Key: "a1", Ops: ops}},
		linearizability.Options{Budget: serverViewBudget})
	must.NoError(t, err)
	must.EqOp(t, linearizability.Unknown, res.Verdict)

	got, want := unproven(res)
	must.StrContains(t, got, "unknown (not proven)")
	must.StrContains(t, got, fmt.Sprintf(`partition "a1": %d operations (at most %d in flight)`, 2*n+1, n+1))
	must.StrContains(t, got, "a limit of the suite, not a fault of the runner")
	must.StrContains(t, want, "a register, proven within the suite's budget of "+serverViewBudget.String())
	must.StrContains(t, want, "Unknown is not a pass")
	must.StrContains(t, want, "a limit of the suite, not a fault of the runner")
}
