package reports

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes run as Markdown: a summary line, the conformance
// matrix (runner x SPEC area), then, per runner, each failure with its
// property, seed, violation and replay command.
func WriteMarkdown(w io.Writer, run Run) error {
	var b strings.Builder
	met := 0
	for _, r := range run.Runners {
		if r.MeetsExpectation() {
			met++
		}
	}
	fmt.Fprintf(&b, "# Conformance: %s\n\n", run.Suite)
	if run.Commit != "" {
		fmt.Fprintf(&b, "Commit `%s`. ", run.Commit)
	}
	fmt.Fprintf(&b, "%d of %d runners met their expectation (to conform, or for a runner expected to fail, such as a mutant, to fail).\n\n", met, len(run.Runners))
	areas := run.Areas()
	fmt.Fprintf(&b, "| runner | profile | expected | met |")
	for _, a := range areas {
		fmt.Fprintf(&b, " %s |", a)
	}
	fmt.Fprintf(&b, "\n|---|---|---|---|%s\n", strings.Repeat("---|", len(areas)))
	for _, r := range run.Runners {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |", r.Name, r.Profile, expectation(r), yesNo(r.MeetsExpectation()))
		for _, a := range areas {
			fmt.Fprintf(&b, " %s |", markdownCell(r.AreaStatus(a)))
		}
		b.WriteString("\n")
	}
	for _, r := range run.Runners {
		fails := r.Failures()
		if len(fails) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## `%s`: %d of %d properties failed\n", r.Name, len(fails), len(r.Properties))
		for _, p := range fails {
			where := string(p.Status)
			if p.Seed != 0 {
				where += fmt.Sprintf(", seed %d, check %d", p.Seed, p.Check)
			}
			fmt.Fprintf(&b, "\n- **%s** (%s): %s\n", p.ID, where, p.Violation)
			if p.Replay != "" {
				fmt.Fprintf(&b, "  Replay: `%s`\n", p.Replay)
			}
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write markdown report: %w", err)
	}
	return nil
}

// markdownCell is an area status in the matrix: failures in bold, an
// area not run as a dash.
func markdownCell(s Status) string {
	switch s {
	case NotRun:
		return "–"
	case Fail, Error:
		return "**" + string(s) + "**"
	}
	return string(s)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}
