package hookresources

import (
	"fmt"
	"testing"

	"github.com/allocsim/allocsim/linearizability"
	"github.com/shoenig/test/must"
)

// A history beyond the suite's budget is reported as not proven, with the
// operations and the budget on both sides, as the suite's limit and not
// the runner's fault: never as a pass, never as a broken runner.
func TestUnprovenNamesTheBudget(t *testing.T) {
	const n = 24
	ops := make([]linearizability.Op, 0, n+1)
	for i := range n {
		ops = append(ops, linearizability.Op{Client: i, Call: 0, Return: 100,
			Input: linearizability.SetMounts{Mounts: map[string]string{"a": fmt.Sprint("/csi/a/", i)}}})
	}
	ops = append(ops, linearizability.Op{Client: n, Call: 200, Return: 210,
		Input:  linearizability.GetMounts{Aliases: []string{"a"}},
		Output: linearizability.MountsSeen{Sources: map[string]string{"a": "never set"}}})
	res, err := linearizability.CheckHookResources([]linearizability.Partition{{Key: "alloc1/1", Ops: ops}},
		linearizability.Options{Budget: checkBudget})
	must.NoError(t, err)
	must.EqOp(t, linearizability.Unknown, res.Verdict)

	got, want := unproven(res)
	must.StrContains(t, got, "unknown (not proven)")
	must.StrContains(t, got, fmt.Sprintf(`partition "alloc1/1": %d operations`, n+1))
	must.StrContains(t, got, fmt.Sprintf("the suite's budget of %d model steps", checkBudget.Steps))
	must.StrContains(t, got, "a limit of the suite, not a fault of the runner")
	must.StrContains(t, want, "proven within the suite's budget of "+checkBudget.String())
	must.StrContains(t, want, "Unknown is not a pass")
	must.StrContains(t, want, "a limit of the suite, not a fault of the runner")
}
