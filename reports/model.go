package reports

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/allocsim/allocsim/reports/timeline"
)

// Status is one property's verdict for one runner.
type Status string

// Statuses.
const (
	// Pass: every check held.
	Pass Status = "pass"
	// Fail: the runner broke the property.
	Fail Status = "fail"
	// NotApplicable: the property is not in the runner's profile.
	NotApplicable Status = "n/a"
	// Error: the suite itself failed on the property (a harness bug).
	Error Status = "error"
	// NotRun: no property of the area was selected for the runner (an
	// area status only: a mutant checked on the rules it breaks).
	NotRun Status = "not run"
)

// Run is what one conformance run found.
type Run struct {
	// Suite names the suite ("allocsim"); Commit the commit checked, if
	// known.
	Suite  string `json:"suite"`
	Commit string `json:"commit,omitempty"`
	// Runners are the runners checked, in the order given.
	Runners []Runner `json:"runners"`
}

// Runner is one runner's results.
type Runner struct {
	Name    string `json:"name"`
	Profile string `json:"profile"`
	// ExpectFail is set for mutants: the runner meets its expectation
	// when it does not conform.
	ExpectFail bool       `json:"expect_fail,omitempty"`
	Properties []Property `json:"properties"`
}

// Property is one property's result for one runner.
type Property struct {
	// ID is the property ("SCHED-5/inside-windows-only"); Specs the SPEC
	// IDs it enforces; Doc what it checks.
	ID     string   `json:"id"`
	Specs  []string `json:"specs,omitempty"`
	Doc    string   `json:"doc,omitempty"`
	Status Status   `json:"status"`
	// Checks is how many scenarios ran; Truncated whether the budget cut
	// them short.
	Checks    int  `json:"checks"`
	Truncated bool `json:"truncated,omitempty"`
	// Seed and Check (1-based) locate the first failure; Violation is
	// its one line, Message the whole failure as printed, Replay the
	// command that reproduces it, Artifacts the files written.
	Seed      uint64 `json:"seed,omitempty"`
	Check     int    `json:"check,omitempty"`
	Violation string `json:"violation,omitempty"`
	Message   string `json:"message,omitempty"`
	Replay    string `json:"replay,omitempty"`
	// Scenario is the shrunk scenario as the failure printed it (its
	// header line, then the scenario's text).
	Scenario  string   `json:"scenario,omitempty"`
	Artifacts []string `json:"artifacts,omitempty"`
	// Situations counts, per situation of the property's catalogue (the
	// cases its rules distinguish), the checks that reached it.
	Situations []Situation `json:"situations,omitempty"`
	// Elapsed is the real time it took.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Timeline is the failing run's timeline, when its artifacts were
	// read (the HTML report draws it); it is not part of the JSON.
	Timeline *timeline.Timeline `json:"-"`
}

// Area is the SPEC area of the property ("SCHED" of "SCHED-5/...").
func (p Property) Area() string {
	spec, _, _ := strings.Cut(p.ID, "/")
	if i := strings.LastIndexByte(spec, '-'); i > 0 {
		return spec[:i]
	}
	return spec
}

// Conforms reports whether no property failed or errored.
func (r Runner) Conforms() bool {
	for _, p := range r.Properties {
		if p.Status == Fail || p.Status == Error {
			return false
		}
	}
	return true
}

// MeetsExpectation reports whether the runner did what the suite expects
// of it: conform, or, for a mutant, fail (a harness error never meets it).
func (r Runner) MeetsExpectation() bool {
	for _, p := range r.Properties {
		if p.Status == Error {
			return false
		}
	}
	return r.Conforms() != r.ExpectFail
}

// Count returns how many properties have status s.
func (r Runner) Count(s Status) int {
	n := 0
	for _, p := range r.Properties {
		if p.Status == s {
			n++
		}
	}
	return n
}

// Failures returns the failed and errored properties, in order.
func (r Runner) Failures() []Property {
	var out []Property
	for _, p := range r.Properties {
		if p.Status == Fail || p.Status == Error {
			out = append(out, p)
		}
	}
	return out
}

// Areas returns every SPEC area of the run's properties, sorted.
func (run Run) Areas() []string {
	var out []string
	for _, r := range run.Runners {
		for _, p := range r.Properties {
			out = append(out, p.Area())
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// AreaStatus is runner r's verdict for one SPEC area: fail (or error) if
// any of its properties did, else pass if any passed, else n/a; not run
// when r has no property of the area.
func (r Runner) AreaStatus(area string) Status {
	st := NotRun
	for _, p := range r.Properties {
		if p.Area() != area {
			continue
		}
		st = worse(st, p.Status)
	}
	return st
}

// rank orders statuses from best to worst for AreaStatus.
var rank = map[Status]int{NotRun: -1, NotApplicable: 0, Pass: 1, Fail: 2, Error: 3}

func worse(a, b Status) Status {
	if cmp.Compare(rank[b], rank[a]) > 0 {
		return b
	}
	return a
}

// OK reports whether every runner met its expectation.
func (run Run) OK() bool {
	for _, r := range run.Runners {
		if !r.MeetsExpectation() {
			return false
		}
	}
	return true
}

// Situation is one case of a property's catalogue and how many checks
// reached it.
type Situation struct {
	Name string `json:"name"`
	Runs int    `json:"runs"`
}

// Never are the situations of p's catalogue no check reached.
func (p Property) Never() []string {
	var out []string
	for _, s := range p.Situations {
		if s.Runs == 0 {
			out = append(out, s.Name)
		}
	}
	return out
}

// parseSituations reads "name=runs,name=runs".
func parseSituations(v string) []Situation {
	var out []Situation
	for _, part := range strings.Split(v, ",") {
		name, runs, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(runs)
		out = append(out, Situation{Name: name, Runs: n})
	}
	return out
}

// WriteJSON writes run as indented JSON (the model's field tags), one
// trailing newline.
func WriteJSON(w io.Writer, run Run) error {
	b, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return fmt.Errorf("encode report json: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write report json: %w", err)
	}
	return nil
}

// ReadJSON reads a run WriteJSON wrote.
func ReadJSON(r io.Reader) (Run, error) {
	var run Run
	if err := json.NewDecoder(r).Decode(&run); err != nil {
		return Run{}, fmt.Errorf("decode report json: %w", err)
	}
	return run, nil
}
