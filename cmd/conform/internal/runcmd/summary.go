package runcmd

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/allocsim/allocsim/reports"
)

// matrixCell is an area status as the terminal matrix shows it.
func matrixCell(s reports.Status) string {
	switch s {
	case reports.Fail:
		return "FAIL"
	case reports.Error:
		return "ERROR"
	case reports.NotRun:
		return "-"
	}
	return string(s)
}

// writeSummary prints the conformance matrix (runner × SPEC area) and
// every failure: property, SPEC IDs, violation, seed, the shrunk scenario
// and the replay command.
func writeSummary(w io.Writer, run reports.Run) error {
	var b strings.Builder
	met := 0
	for _, r := range run.Runners {
		if r.MeetsExpectation() {
			met++
		}
	}
	areas := run.Areas()
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "runner\tprofile\texpected\tmet")
	for _, a := range areas {
		fmt.Fprintf(tw, "\t%s", a)
	}
	fmt.Fprintln(tw)
	for _, r := range run.Runners {
		exp := "conform"
		if r.ExpectFail {
			exp = "fail"
		}
		ok := "yes"
		if !r.MeetsExpectation() {
			ok = "NO"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s", r.Name, r.Profile, exp, ok)
		for _, a := range areas {
			fmt.Fprintf(tw, "\t%s", matrixCell(r.AreaStatus(a)))
		}
		fmt.Fprintln(tw)
	}
	_ = tw.Flush()
	for _, r := range run.Runners {
		for _, p := range r.Failures() {
			writeFailure(&b, r, p)
		}
	}
	fmt.Fprintf(&b, "\n%d of %d runners met their expectation", met, len(run.Runners))
	if met == len(run.Runners) {
		b.WriteString(".\n")
	} else {
		b.WriteString(": ")
		var bad []string
		for _, r := range run.Runners {
			if !r.MeetsExpectation() {
				bad = append(bad, r.Name)
			}
		}
		b.WriteString(strings.Join(bad, ", ") + ".\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	return nil
}

// writeFailure prints one failure as a block.
func writeFailure(b *strings.Builder, r reports.Runner, p reports.Property) {
	expected := ""
	if r.ExpectFail {
		expected = " (expected)"
	}
	fmt.Fprintf(b, "\n%s %s: %s%s", strings.ToUpper(string(p.Status)), r.Name, p.ID, expected)
	if len(p.Specs) > 0 {
		fmt.Fprintf(b, " (%s)", strings.Join(p.Specs, ", "))
	}
	b.WriteString("\n")
	if p.Status == reports.Error {
		fmt.Fprintf(b, "  suite error: %s\n", indentRest(firstLines(p.Message, 12), "  "))
		return
	}
	fmt.Fprintf(b, "  violation: %s\n", p.Violation)
	fmt.Fprintf(b, "  seed:      %d (check %d)\n", p.Seed, p.Check)
	if p.Scenario != "" {
		fmt.Fprintf(b, "  %s\n", indentRest(p.Scenario, "    "))
	}
	if p.Replay != "" {
		fmt.Fprintf(b, "  replay:    %s\n", p.Replay)
	}
}

// indentRest indents every line of s but the first.
func indentRest(s, indent string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+indent)
}

// firstLines is s cut to n lines.
func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}
