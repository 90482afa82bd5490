package syncing

import (
	"github.com/allocsim/allocsim/linearizability"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// serverViewBudget bounds porcupine's search per alloc in operations,
// model steps and search memory, not in time: the check runs inside the
// run's synctest bubble, where a real-time limit never fires. The
// histories are nearly sequential (one UpdateAlloc and one pull in
// flight; an update the server rejected is left out of them), so running
// out of it is reported, as Unknown, never passed, and named as the
// suite's limit rather than the runner's fault.
var serverViewBudget = linearizability.DefaultBudget

// VisualizationSuffix is the artifact an illegal server view is drawn into.
const VisualizationSuffix = ".server-view.porcupine.html"

// checkServerView checks, at the end of a run, that the server's view of
// each alloc's ClientStatus behaved as a register (SYNC-5.4 from the
// readers' side: no pull reply shows an older status after a newer one
// was acknowledged), built from the trace by
// linearizability.ServerViewFromTrace.
func checkServerView(v *prop.View) {
	parts := linearizability.ServerViewFromTrace(v.Records(), v.Scenario.Start)
	res, err := linearizability.CheckServerView(parts, linearizability.Options{Budget: serverViewBudget})
	switch {
	case err != nil:
		v.Violatef("", "", "server-view history", err.Error(), "a well-formed history (a bug of the suite)")
	case res.Verdict == linearizability.Unknown:
		got, want := unproven(res)
		v.Violatef(res.Key, "", "server view of the alloc's ClientStatus", got, want)
	case res.Verdict == linearizability.Illegal:
		v.AttachVisualization(res, VisualizationSuffix)
		v.Violatef(res.Key, "", "server view of the alloc's ClientStatus", res.String(),
			"a register: every pull reply shows the newest acknowledged status or one in flight (porcupine's visualization is among the artifacts, *"+VisualizationSuffix+")")
	}
}

// unproven words an Unknown result for the report, as seen and as
// expected: the history was not proven within the suite's budget, which
// is a limit of the suite and no fault of the runner, and still no pass.
func unproven(res linearizability.Result) (got, want string) {
	got = res.String()
	want = "a register, proven within the suite's budget of " + res.Budget.String() +
		" (Unknown is not a pass; running out of the budget is a limit of the suite, not a fault of the runner)"
	return got, want
}
