package reports

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Test attributes properties.Run sets on each property subtest (kept
// equal to properties' Attr* constants by a test; reports does not link
// the suite).
const (
	attrSpecs     = "allocsim.specs"
	attrDoc       = "allocsim.doc"
	attrChecks    = "allocsim.checks"
	attrTruncated = "allocsim.truncated"
	attrSeed      = "allocsim.seed"
	attrTotal     = "allocsim.properties"
	attrRunning   = "allocsim.running"
	attrPlan      = "allocsim.plan"
	attrSituation = "allocsim.situations"
)

// testEvent is one line of `go test -json` (cmd/test2json).
type testEvent struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
	Key     string
	Value   string
}

// SuiteRun is what one properties.Run call under go test printed: its
// root test (one per runner) and a Property per property subtest
// ("<root>/<SPEC ID>/<name>"), in the order they ran.
type SuiteRun struct {
	Root       string
	Properties []Property
	// Passed is the root test's own verdict.
	Passed bool
	// Total is how many property subtests the root announced (0: it did
	// not say).
	Total int
	// Plan are the IDs of those properties in the order they run (nil:
	// it did not say).
	Plan []string
}

// TestOutput is a parsed `go test -json` stream of the suite.
type TestOutput struct {
	Runs []SuiteRun
	// Failed is set when a package failed (tests failed, or it did not
	// build: then Runs is empty and Output says why).
	Failed bool
	// Output holds the lines printed outside every property subtest
	// (build errors, panics, a package's FAIL line).
	Output []string
}

// ParseTestJSON reads a whole `go test -json` stream (see TestParser).
func ParseTestJSON(r io.Reader) (TestOutput, error) {
	var p TestParser
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		p.Line(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		return TestOutput{}, fmt.Errorf("read go test -json: %w", err)
	}
	return p.Output(), nil
}

// TestParser reads the `go test -json` stream of tests that call
// properties.Run, one line at a time: every subtest two levels below a
// root test is a property; its SPEC IDs, doc, checks and seed are the
// attributes properties.Run sets (t.Attr), a skipped one is not
// applicable, and a failure's message is its output (the violation after
// `--- violation`, the check after `--- seed`, the files after `---
// artifacts`, the replay command after `To reproduce:`). Lines that are
// not JSON (go vet's, a build's) are kept in Output. The zero value is
// ready.
type TestParser struct {
	runs   map[string]*SuiteRun
	props  map[string]*Property
	lines  map[string][]string
	order  []string
	ids    map[string][]string // root → property IDs in order
	failed bool
	output []string
	// announced is a root's property count not yet taken (Announced).
	announced int
	// running is each unfinished property's check in progress
	// ("<check> <seed>", attrRunning).
	running map[string]string
}

// Line reads one line of the stream; it returns the property whose
// subtest the line ended, if any.
func (tp *TestParser) Line(b []byte) (done *Property) {
	if tp.runs == nil {
		tp.runs, tp.props, tp.lines, tp.ids = map[string]*SuiteRun{}, map[string]*Property{}, map[string][]string{}, map[string][]string{}
		tp.running = map[string]string{}
	}
	var e testEvent
	if err := json.Unmarshal(b, &e); err != nil || e.Action == "" {
		tp.output = append(tp.output, string(b))
		return nil
	}
	root, id, isProp := splitTest(e.Test)
	if e.Test != "" && tp.runs[root] == nil {
		tp.runs[root] = &SuiteRun{Root: root}
		tp.order = append(tp.order, root)
	}
	switch {
	case e.Test == "":
		if e.Action == "output" {
			tp.output = append(tp.output, strings.TrimSuffix(e.Output, "\n"))
		}
		if e.Action == "fail" {
			tp.failed = true
		}
	case isProp:
		key := root + "/" + id
		p := tp.props[key]
		if p == nil {
			p = &Property{ID: id}
			tp.props[key] = p
			tp.ids[root] = append(tp.ids[root], id)
		}
		switch e.Action {
		case "attr":
			if e.Key == attrRunning {
				tp.running[key] = e.Value
			} else {
				setAttr(p, e.Key, e.Value)
			}
		case "output":
			tp.lines[key] = append(tp.lines[key], strings.TrimSuffix(e.Output, "\n"))
		case "pass", "fail", "skip":
			p.Status = map[string]Status{"pass": Pass, "fail": Fail, "skip": NotApplicable}[e.Action]
			p.Elapsed = time.Duration(e.Elapsed * float64(time.Second))
			if p.Status == Fail {
				parseFailure(p, tp.lines[key])
				if p.Violation == "" || p.Check == 0 {
					// Not the suite's failure: the binary died in
					// the check it was in (test2json fails a test
					// still running when the binary exits), maybe
					// after the stall watchdog printed its
					// diagnosis (which has no check).
					p.Check, p.Seed = runningCheck(tp.running[key])
				}
			}
			delete(tp.running, key)
			delete(tp.lines, key)
			cp := *p
			return &cp
		}
	case e.Test == root && (e.Action == "pass" || e.Action == "fail"):
		tp.runs[root].Passed = e.Action == "pass"
	case e.Test == root && e.Action == "attr" && e.Key == attrPlan:
		tp.runs[root].Plan = strings.Split(e.Value, ",")
	case e.Test == root && e.Action == "attr" && e.Key == attrTotal:
		tp.runs[root].Total, _ = strconv.Atoi(e.Value)
		tp.announced = tp.runs[root].Total
	}
	return nil
}

// Announced returns, once, the property count the last root test
// announced (0 when none is new).
func (tp *TestParser) Announced() int {
	n := tp.announced
	tp.announced = 0
	return n
}

// setAttr records one of properties.Run's attributes.
func setAttr(p *Property, key, value string) {
	switch key {
	case attrSeed:
		p.Seed, _ = strconv.ParseUint(value, 10, 64)
	case attrSpecs:
		p.Specs = strings.Split(value, ",")
	case attrDoc:
		p.Doc = value
	case attrChecks:
		p.Checks, _ = strconv.Atoi(value)
	case attrTruncated:
		p.Truncated = value == "true"
	case attrSituation:
		p.Situations = parseSituations(value)
	}
}

// Output is what the stream said so far: the runs with at least one
// property, in the order their root tests started.
func (tp *TestParser) Output() TestOutput {
	out := TestOutput{Failed: tp.failed, Output: tp.output}
	for _, root := range tp.order {
		run := *tp.runs[root]
		for _, id := range tp.ids[root] {
			p := *tp.props[root+"/"+id]
			if p.Status == "" {
				// It has not ended: the check it is in.
				p.Check, p.Seed = runningCheck(tp.running[root+"/"+id])
			}
			run.Properties = append(run.Properties, p)
		}
		if len(run.Properties) > 0 {
			out.Runs = append(out.Runs, run)
		}
	}
	return out
}

// splitTest splits "<root>/<SPEC>/<name>" into the root and the property
// ID; isProp is false for anything else.
func splitTest(name string) (root, id string, isProp bool) {
	root, rest, ok := strings.Cut(name, "/")
	if !ok {
		return name, "", false
	}
	spec, leaf, ok := strings.Cut(rest, "/")
	if !ok || strings.Contains(leaf, "/") {
		return root, "", false
	}
	return root, spec + "/" + leaf, true
}

// parseFailure fills p's message, violation, check, artifacts and replay
// from the failure's output lines (properties' failure format; go test
// indents them under a `file.go:NN:` line).
func parseFailure(p *Property, lines []string) {
	var msg []string
	for _, l := range lines {
		if strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- FAIL") || strings.HasPrefix(l, "--- PASS") {
			continue
		}
		msg = append(msg, strings.TrimPrefix(l, "        "))
	}
	// The first line is the t.Error call site ("    properties.go:44: ").
	if len(msg) > 0 && strings.HasSuffix(strings.TrimSpace(msg[0]), ":") {
		msg = msg[1:]
	}
	section := ""
	var shrunk []string
	for i, l := range msg {
		if strings.HasPrefix(l, "--- ") {
			section = l
		}
		switch {
		case l == "--- violation" && i+1 < len(msg):
			p.Violation = msg[i+1]
		case l == "--- seed" && i+1 < len(msg):
			if _, after, ok := strings.Cut(msg[i+1], "(check "); ok {
				p.Check, _ = strconv.Atoi(strings.TrimSuffix(after, ")"))
			}
		case strings.HasPrefix(l, "To reproduce: "):
			p.Replay = strings.TrimPrefix(l, "To reproduce: ")
			section = ""
		case section == "--- artifacts" && l != section && strings.TrimSpace(l) != "":
			p.Artifacts = append(p.Artifacts, strings.TrimSpace(l))
		case strings.HasPrefix(section, "--- shrunk scenario") || section == "--- scenario":
			if l == section {
				shrunk = append(shrunk, strings.TrimPrefix(l, "--- "))
			} else {
				shrunk = append(shrunk, l)
			}
		}
	}
	p.Scenario = strings.TrimSpace(strings.Join(shrunk, "\n"))
	for len(msg) > 0 && strings.TrimSpace(msg[len(msg)-1]) == "" {
		msg = msg[:len(msg)-1]
	}
	p.Message = strings.Join(msg, "\n")
}

// runningCheck parses an attrRunning value ("<check> <seed>").
func runningCheck(v string) (check int, seed uint64) {
	c, sd, _ := strings.Cut(v, " ")
	check, _ = strconv.Atoi(c)
	seed, _ = strconv.ParseUint(sd, 10, 64)
	return check, seed
}
