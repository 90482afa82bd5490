package runcmd

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/allocsim/allocsim/reports"
	"github.com/allocsim/allocsim/reports/timeline"
)

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
