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
		for i, c := range r.Causes() {
			fmt.Fprintf(&b, "\nCAUSE %d of %s: one violation failed %d properties (%s)\n  %s\n",
				i+1, r.Name, len(c.Properties), strings.Join(c.Properties, ", "), c.Violation)
		}
		for _, p := range r.Failures() {
			writeFailure(&b, r, p)
		}
		if n := notRun(r); n > 0 {
			fmt.Fprintf(&b, "\nNOT RUN %s: %d properties\n", r.Name, n)
		}
	}
	writeCoverage(&b, run)
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
	if strings.HasPrefix(p.Violation, "DET-3: ") || strings.HasPrefix(p.Violation, "the runner hit a fatal error") {
		// The binary's own diagnosis (stacks), from the check's seed.
		fmt.Fprintf(b, "  violation: %s\n  seed:      %d (check %d)\n  diagnosis: %s\n", p.Violation, p.Seed, p.Check, indentRest(firstLines(p.Message, 60), "    "))
		if p.Replay != "" {
			fmt.Fprintf(b, "  replay:    %s\n", p.Replay)
		}
		return
	}
	if _, i, ok := r.CauseOf(p.ID); ok {
		fmt.Fprintf(b, "  violation: cause %d above, here: %s\n", i, p.Violation)
	} else {
		fmt.Fprintf(b, "  violation: %s\n", p.Violation)
	}
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

// notRun is how many of r's properties did not run.
func notRun(r reports.Runner) int {
	n := 0
	for _, p := range r.Properties {
		if p.Status == reports.NotRun {
			n++
		}
	}
	return n
}

// writeCoverage prints, per runner whose properties report situations,
// how many of their catalogued situations the checks reached, and every
// one never reached (a check that could not fire in this run).
func writeCoverage(b *strings.Builder, run reports.Run) {
	for _, r := range run.Runners {
		total, reached := 0, 0
		var never []string
		for _, p := range r.Properties {
			total += len(p.Situations)
			reached += len(p.Situations) - len(p.Never())
			for _, n := range p.Never() {
				never = append(never, p.ID+": "+n)
			}
		}
		if total == 0 {
			continue
		}
		fmt.Fprintf(b, "\nSITUATIONS %s: %d of %d reached", r.Name, reached, total)
		if len(never) > 0 {
			fmt.Fprintf(b, "; never reached:\n  %s", strings.Join(never, "\n  "))
		}
		b.WriteString("\n")
	}
}
