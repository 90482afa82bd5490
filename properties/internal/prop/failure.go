package prop

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// TraceLines is how many trace records before the violation a failure
// shows.
const TraceLines = 12

// Failure is a property's first failing check, shrunk.
type Failure struct {
	Property Property
	// Seed replays the original failing scenario; Check is its ordinal
	// among the property's checks (1-based).
	Seed  uint64
	Check int
	// Scenario and Outcome are the original failing run.
	Scenario scenario.Scenario
	Outcome  Outcome
	// Shrunk and ShrunkOutcome are the smallest failing run found (the
	// original when nothing smaller failed); ShrinkRuns the runs spent.
	Shrunk        scenario.Scenario
	ShrunkOutcome Outcome
	ShrinkRuns    int
	// Replay is the command that replays Seed.
	Replay string
	// Artifacts are the files written (traces, scenarios).
	Artifacts []string

	tape []int
}

// Violation is the original run's first violation.
func (f *Failure) Violation() Violation { return f.Outcome.Violations[0] }

// String prints the failure in labelled sections (STYLE.md rule 9).
func (f *Failure) String() string {
	var b strings.Builder
	v := f.Outcome.Violations[0]
	fmt.Fprintf(&b, "%s (%s): %s\n", f.Property.ID, strings.Join(f.Property.Specs, ", "), f.Property.Doc)
	fmt.Fprintf(&b, "--- violation\n%s\n", v)
	if n := len(f.Outcome.Violations) - 1; n > 0 {
		fmt.Fprintf(&b, "(and %d more in this run)\n", n)
	}
	fmt.Fprintf(&b, "--- seed\n%d (check %d)\n", f.Seed, f.Check)
	sc, out := f.Shrunk, f.ShrunkOutcome
	switch {
	case f.Property.Direct != nil:
		// No scenario: the seed drew only the check's shape.
		out = f.Outcome
	case f.ShrinkRuns > 0 && f.tape != nil:
		fmt.Fprintf(&b, "--- shrunk scenario (%d shrink runs; it fails with: %s)\n%s", f.ShrinkRuns, out.Violations[0], sc.String())
	default:
		fmt.Fprintf(&b, "--- scenario\n%s", f.Scenario.String())
		out = f.Outcome
	}
	if lines := lastBefore(out, TraceLines); len(lines) > 0 {
		fmt.Fprintf(&b, "--- last %d trace records before the violation\n%s\n", len(lines), strings.Join(lines, "\n"))
	}
	if len(f.Artifacts) > 0 {
		fmt.Fprintf(&b, "--- artifacts\n%s\n", strings.Join(f.Artifacts, "\n"))
	}
	if f.Replay != "" {
		fmt.Fprintf(&b, "To reproduce: %s\n", f.Replay)
	}
	return b.String()
}

// lastBefore returns the last n trace lines up to the first violation's
// instant.
func lastBefore(o Outcome, n int) []string {
	recs := o.Trace[:min(o.Before, len(o.Trace))]
	if len(recs) > n {
		recs = recs[len(recs)-n:]
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.String()
	}
	return out
}

func traceLines(recs []trace.Record) []byte {
	var b bytes.Buffer
	for _, r := range recs {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func encodeScenario(sc scenario.Scenario) []byte {
	var b bytes.Buffer
	if err := sc.Encode(&b); err != nil {
		return []byte(err.Error())
	}
	return b.Bytes()
}
