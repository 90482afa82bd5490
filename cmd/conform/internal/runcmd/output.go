package runcmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/allocsim/allocsim/reports"
)

// writeReports writes the reports the options ask for: --report DIR
// (report.md, report.html, report.json, junit.xml; artifact paths
// relative to DIR), --junit FILE, --json FILE.
func writeReports(run reports.Run, o options, artifactDir string) error {
	if o.junit != "" {
		if err := writeFile(o.junit, run, reports.WriteJUnit); err != nil {
			return err
		}
	}
	if o.jsonFile != "" {
		if err := writeFile(o.jsonFile, run, reports.WriteJSON); err != nil {
			return err
		}
	}
	if o.reportDir == "" {
		return nil
	}
	if err := os.MkdirAll(o.reportDir, 0o755); err != nil {
		return fmt.Errorf("report directory: %w", err)
	}
	rel := relativeArtifacts(run, o.reportDir)
	attachTimelines(&rel, o.reportDir)
	for name, write := range map[string]func(*bytes.Buffer, reports.Run) error{
		"report.md":   func(b *bytes.Buffer, r reports.Run) error { return reports.WriteMarkdown(b, r) },
		"report.json": func(b *bytes.Buffer, r reports.Run) error { return reports.WriteJSON(b, r) },
		"junit.xml":   func(b *bytes.Buffer, r reports.Run) error { return reports.WriteJUnit(b, r) },
		"report.html": func(b *bytes.Buffer, r reports.Run) error { return reports.WriteHTML(b, r) },
	} {
		var b bytes.Buffer
		if err := write(&b, rel); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(o.reportDir, name), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
	}
	return nil
}

// writeFile writes run to path with write.
func writeFile(path string, run reports.Run, write func(io.Writer, reports.Run) error) error {
	var b bytes.Buffer
	if err := write(&b, run); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// relativeArtifacts is run with artifact paths relative to dir where
// they are under it (a report directory moves as one).
func relativeArtifacts(run reports.Run, dir string) reports.Run {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return run
	}
	out := run
	out.Runners = append([]reports.Runner(nil), run.Runners...)
	for i := range out.Runners {
		props := append([]reports.Property(nil), out.Runners[i].Properties...)
		for j := range props {
			arts := append([]string(nil), props[j].Artifacts...)
			for k, a := range arts {
				if r, err := filepath.Rel(abs, a); err == nil && filepath.IsLocal(r) {
					arts[k] = filepath.ToSlash(r)
				}
			}
			props[j].Artifacts = arts
		}
		out.Runners[i].Properties = props
	}
	return out
}
