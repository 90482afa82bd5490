package properties

import (
	"fmt"
	"strings"
	"time"

	"github.com/allocsim/allocsim/properties/internal/prop"
)

// Report is what Check found.
type Report struct {
	// Runner is the factory's name; Profile the profile checked.
	Runner, Profile string
	// Results holds one entry per selected property, in suite order.
	Results []Result
	// Err is a failure of the call itself (bad options, no test binary).
	Err error
}

// Result is one property's verdict.
type Result struct {
	// ID is the property ("SCHED-5/inside-windows-only"); Specs the SPEC
	// IDs it enforces; Doc what it checks.
	ID    string
	Specs []string
	Doc   string
	// Checks is how many scenarios ran; Truncated is set when the budget
	// ended the property early.
	Checks    int
	Truncated bool
	// Failed is set when the runner broke the property; Seed, Check (the
	// failing check's ordinal, from 1), Violation and Message then
	// describe the first failure (Message as printed).
	Failed    bool
	Seed      uint64
	Check     int
	Violation string
	Message   string
	// Harness is set when the suite itself failed on this property.
	Harness string
	// Elapsed is the real time it took.
	Elapsed time.Duration
	// Situations counts, per situation of the property's catalogue (in
	// catalogue order), the checks that reached it.
	Situations []SituationCount
}

// SituationCount is one situation of a property's catalogue and how many
// checks reached it.
type SituationCount = prop.SituationCount

// Never are the situations of the result's catalogue no check reached.
func (r Result) Never() []string { return prop.Coverage(r.Situations).Never() }

func resultOf(r prop.Result) Result {
	p := r.Property
	out := Result{ID: p.ID, Specs: p.Specs, Doc: p.Doc, Checks: r.Checks, Truncated: r.Truncated, Elapsed: r.Elapsed,
		Situations: r.Coverage}
	if r.Harness != nil {
		out.Harness = r.Harness.Error()
	}
	if f := r.Failure; f != nil {
		out.Failed, out.Seed, out.Check, out.Violation, out.Message = true, f.Seed, f.Check, f.Violation().String(), f.String()
	}
	return out
}

// Failed lists the IDs of the properties the runner broke.
func (r Report) Failed() []string {
	var out []string
	for _, res := range r.Results {
		if res.Failed {
			out = append(out, res.ID)
		}
	}
	return out
}

// Result returns the result of property id.
func (r Report) Result(id string) (Result, bool) {
	for _, res := range r.Results {
		if res.ID == id {
			return res, true
		}
	}
	return Result{}, false
}

// Conforms reports whether every property held and the call worked.
func (r Report) Conforms() bool {
	if r.Err != nil {
		return false
	}
	for _, res := range r.Results {
		if res.Failed || res.Harness != "" {
			return false
		}
	}
	return true
}

// String is one line per property, then every failure in full.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "runner %s, profile %s\n", r.Runner, r.Profile)
	if r.Err != nil {
		fmt.Fprintf(&b, "error: %v\n", r.Err)
	}
	for _, res := range r.Results {
		verdict := "ok  "
		switch {
		case res.Failed:
			verdict = "FAIL"
		case res.Harness != "":
			verdict = "ERR "
		}
		extra := ""
		if res.Truncated {
			extra = " (budget)"
		}
		if res.Failed {
			extra += fmt.Sprintf(" seed %d: %s", res.Seed, res.Violation)
		}
		fmt.Fprintf(&b, "%s %-44s %3d checks%s\n", verdict, res.ID, res.Checks, extra)
	}
	for _, res := range r.Results {
		if res.Failed {
			fmt.Fprintf(&b, "\n%s", res.Message)
		}
		if res.Harness != "" {
			fmt.Fprintf(&b, "\n%s: suite error: %s\n", res.ID, res.Harness)
		}
	}
	return b.String()
}

// ArtifactBase is the path, without suffix, of the artifacts of property
// id's run of seed under dir: <base>.trace.jsonl and <base>.scenario.json
// (and <base>.shrunk.trace.jsonl, <base>.shrunk.scenario.json for a
// shrunk failure).
func ArtifactBase(dir, id string, seed uint64) string { return prop.ArtifactBase(dir, id, seed) }
