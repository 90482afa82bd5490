package sim

import (
	"fmt"
	"strings"

	"github.com/allocsim/allocsim/sim/scenario"
)

// Failure is a failed run as STYLE.md rule 9 prints it: seed, scenario,
// fault plan, the violation, the last trace lines, and the command that
// replays it.
type Failure struct {
	Scenario  scenario.Scenario
	Violation string
	// Trace holds the last lines of the run's trace.
	Trace []string
	// Replay is the command that reproduces the failure (ReplayCommand).
	Replay string
}

// Error is String: a Failure is an error (CheckReplay returns them).
func (f Failure) Error() string { return f.String() }

// String renders the failure in labelled sections.
func (f Failure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- seed\n%d\n", f.Scenario.Seed)
	fmt.Fprintf(&b, "--- scenario\n%s", f.Scenario.String())
	fmt.Fprintf(&b, "--- violation\n%s\n", f.Violation)
	if len(f.Trace) > 0 {
		fmt.Fprintf(&b, "--- last %d trace lines\n%s\n", len(f.Trace), strings.Join(f.Trace, "\n"))
	}
	if f.Replay != "" {
		fmt.Fprintf(&b, "To reproduce: %s\n", f.Replay)
	}
	return b.String()
}

// ReplayCommand is the command that replays seed in test of pkg, e.g.
// `go test ./sim -run 'TestReplay$' -seed=42`.
func ReplayCommand(pkg, test string, seed uint64) string {
	return fmt.Sprintf("go test %s -run '%s$' -seed=%d", pkg, test, seed)
}
