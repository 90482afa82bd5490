package hookresources

import (
	"strings"
	"time"

	"github.com/allocsim/allocsim/linearizability"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// checkBudget bounds porcupine's search per history in operations, model
// steps and search memory, not in time: the check runs inside the run's
// synctest bubble, where a real-time limit never fires. The histories are
// small (one write, a read per task start attempt), so running out of it
// says the history is not what this property builds: the verdict is then
// Unknown and reported as a failure, never a pass, named as the suite's
// limit rather than the runner's fault.
var checkBudget = linearizability.DefaultBudget

// VisualizationSuffix is the artifact an illegal history is drawn into.
const VisualizationSuffix = ".porcupine.html"

// linearizable: HOOKRES-2's atomic set seen from the readers, under
// restores racing the prerun. Every history (an alloc's hook resources in
// one client incarnation, linearizability.HookResourcesFromTrace) must be
// linearizable against linearizability.CheckHookResources's model: the
// map is empty until the CSI hook's one write of the complete map. A
// reader of a partial map (the first missing alias is not the task's
// first), a task started without the write, or a missing mount after a
// reader saw them all is illegal. On Illegal, porcupine's visualization,
// with the run's faults and crashes, is written among the failure's
// artifacts.
var linearizable = prop.Property{
	ID:         "HOOKRES-2/history-linearizable",
	Specs:      []string{"HOOKRES-2", "HOOKRES-3", "HOOKRES-4"},
	Doc:        "while restores race the CSI prerun, every prestart reads the empty or the complete mount map (each alloc's hook-resource history is linearizable), and a missing mount is the recoverable `No CSI Mount Point found for volume: <alias>`",
	Faults:     classes,
	Draw:       drawRestores,
	Situations: situations,
	New: func(sc scenario.Scenario) prop.Checker {
		feed := prop.NewEventFeed()
		return prop.Checks{
			OnSettled: func(v *prop.View) { checkMissingMounts(v, feed) },
			OnFinal: func(v *prop.View) {
				reach(v)
				checkPrerunMounted(v)
				checkSetupFailureCause(v)
				checkUnmounted(v)
				checkHistories(v, sc.Start)
			},
		}
	},
}

func checkHistories(v *prop.View, start time.Time) {
	parts, marks := linearizability.HookResourcesFromTrace(v.Records(), start, viewVolumes{v})
	res, err := linearizability.CheckHookResources(parts, linearizability.Options{Budget: checkBudget, Annotations: marks})
	if err != nil {
		v.Violatef("", "", "hook-resource history", err.Error(), "a well-formed history (a bug of the suite)")
		return
	}
	if res.Verdict == linearizability.Ok {
		return
	}
	alloc, inc, _ := strings.Cut(res.Key, "/")
	x := prop.Violation{Alloc: alloc, What: "hook resources in client incarnation " + inc}
	var ops []linearizability.Op
	for _, p := range parts {
		if p.Key == res.Key {
			ops = p.Ops
		}
	}
	// The violation is shown at the partition's last read: the history
	// up to there is what could not be linearized.
	for _, o := range ops {
		if !o.IsOpen() && at(start, o.Return).After(x.At) {
			x.At = at(start, o.Return)
		}
	}
	if res.Verdict == linearizability.Unknown {
		x.Got, x.Want = unproven(res)
		v.Violate(x)
		return
	}
	v.AttachVisualization(res, VisualizationSuffix)
	notes := make([]string, len(ops))
	for i, o := range ops {
		notes[i] = o.Note
	}
	x.Got = "not linearizable: " + strings.Join(notes, "; ")
	x.Want = "every read sees the empty map or the complete one (HOOKRES-2; porcupine's visualization is among the artifacts, *" + VisualizationSuffix + ")"
	v.Violate(x)
}

// unproven words an Unknown result for the report, as seen and as
// expected: the history was not proven within the suite's budget, which
// is a limit of the suite and no fault of the runner, and still no pass.
func unproven(res linearizability.Result) (got, want string) {
	got = res.String()
	want = "a linearizable history, proven within the suite's budget of " + res.Budget.String() +
		" (Unknown is not a pass; running out of the budget is a limit of the suite, not a fault of the runner)"
	return got, want
}
