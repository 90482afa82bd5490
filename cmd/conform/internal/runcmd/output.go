package runcmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/allocsim/allocsim/reports"
	"github.com/allocsim/allocsim/reports/timeline"
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

// artifactName is the base name of property id's artifacts for seed, as
// the suite writes them (properties.ArtifactBase; a test keeps the two
// equal).
func artifactName(id string, seed uint64) string {
	return strings.NewReplacer("/", "_", " ", "_").Replace(id) + fmt.Sprintf("-seed-%d", seed)
}

// attachTimelines gives every failure of run whose trace and scenario
// are among its artifacts (paths relative to dir, or absolute) its
// timeline, with the violation marked. A trace that does not load leaves
// the failure without one.
func attachTimelines(run *reports.Run, dir string) {
	for i := range run.Runners {
		for j := range run.Runners[i].Properties {
			p := &run.Runners[i].Properties[j]
			if p.Status != reports.Fail {
				continue
			}
			var tracePath, scenarioPath string
			for _, a := range p.Artifacts {
				if !filepath.IsAbs(a) {
					a = filepath.Join(dir, filepath.FromSlash(a))
				}
				switch {
				case strings.HasSuffix(a, ".shrunk.trace.jsonl"), strings.HasSuffix(a, ".shrunk.scenario.json"):
				case strings.HasSuffix(a, ".trace.jsonl"):
					tracePath = a
				case strings.HasSuffix(a, ".scenario.json"):
					scenarioPath = a
				}
			}
			if tracePath == "" || scenarioPath == "" {
				continue
			}
			tl, err := timeline.Load(tracePath, scenarioPath)
			if err != nil {
				continue
			}
			if at, ok := timeline.ViolationAt(p.Violation); ok {
				tl.Mark(at, p.Violation)
			}
			p.Timeline = tl
		}
	}
}
