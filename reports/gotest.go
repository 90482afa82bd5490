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

// ParseTestJSON reads the `go test -json` stream of tests that call
// properties.Run: every subtest two levels below a root test is a
// property; its seed is the allocsim.seed attribute (t.Attr), and a
// failure's message is its output (the violation after `--- violation`,
// the check after `--- seed`, the replay command after `To reproduce:`).
// Lines that are not JSON (go vet's, a build's) are kept in Output.
func ParseTestJSON(r io.Reader) (TestOutput, error) {
	var out TestOutput
	runs := map[string]*SuiteRun{}
	props := map[string]*Property{}
	lines := map[string][]string{}
	var order []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var e testEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			out.Output = append(out.Output, sc.Text())
			continue
		}
		root, id, isProp := splitTest(e.Test)
		if e.Test != "" && runs[root] == nil {
			runs[root] = &SuiteRun{Root: root}
			order = append(order, root)
		}
		switch {
		case e.Test == "":
			if e.Action == "output" {
				out.Output = append(out.Output, strings.TrimSuffix(e.Output, "\n"))
			}
			if e.Action == "fail" {
				out.Failed = true
			}
		case isProp:
			key := root + "/" + id
			p := props[key]
			if p == nil {
				p = &Property{ID: id}
				props[key] = p
				runs[root].Properties = append(runs[root].Properties, Property{ID: id})
			}
			switch e.Action {
			case "attr":
				if e.Key == "allocsim.seed" {
					p.Seed, _ = strconv.ParseUint(e.Value, 10, 64)
				}
			case "output":
				lines[key] = append(lines[key], strings.TrimSuffix(e.Output, "\n"))
			case "pass", "fail", "skip":
				p.Status = map[string]Status{"pass": Pass, "fail": Fail, "skip": NotApplicable}[e.Action]
				p.Elapsed = time.Duration(e.Elapsed * float64(time.Second))
				if p.Status == Fail {
					parseFailure(p, lines[key])
				}
			}
		case e.Test == root && (e.Action == "pass" || e.Action == "fail"):
			runs[root].Passed = e.Action == "pass"
		}
	}
	if err := sc.Err(); err != nil {
		return TestOutput{}, fmt.Errorf("read go test -json: %w", err)
	}
	for _, root := range order {
		run := runs[root]
		for i := range run.Properties {
			run.Properties[i] = *props[root+"/"+run.Properties[i].ID]
		}
		if len(run.Properties) > 0 {
			out.Runs = append(out.Runs, *run)
		}
	}
	return out, nil
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

// parseFailure fills p's message, violation, check and replay from the
// failure's output lines (properties' failure format; go test indents
// them under a `file.go:NN:` line).
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
	for i, l := range msg {
		switch {
		case l == "--- violation" && i+1 < len(msg):
			p.Violation = msg[i+1]
		case l == "--- seed" && i+1 < len(msg):
			if _, after, ok := strings.Cut(msg[i+1], "(check "); ok {
				p.Check, _ = strconv.Atoi(strings.TrimSuffix(after, ")"))
			}
		case strings.HasPrefix(l, "To reproduce: "):
			p.Replay = strings.TrimPrefix(l, "To reproduce: ")
		}
	}
	for len(msg) > 0 && strings.TrimSpace(msg[len(msg)-1]) == "" {
		msg = msg[:len(msg)-1]
	}
	p.Message = strings.Join(msg, "\n")
}
