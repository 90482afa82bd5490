package sweepcmd

import (
	"fmt"
	"io"
	"strings"
)

// maxGaps is how many gap ranges the report lists.
const maxGaps = 20

// writeReport prints what f covers and found (stdout of sweep and
// merge).
func writeReport(w io.Writer, f *summaryFile, self, path string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "sweep %s, profile %s, seeds %s", f.Runner, f.Profile, f.Seeds)
	switch {
	case f.Shard != nil:
		fmt.Fprintf(&b, ", shard %s (seeds %s)\n", f.Shard, f.ShardSeeds)
	default:
		shards := make([]string, len(f.Merged))
		for i, s := range f.Merged {
			shards[i] = s.String()
		}
		fmt.Fprintf(&b, ", merged from shard%s %s\n", plural(len(shards), "", "s"), strings.Join(shards, ", "))
	}
	fmt.Fprintf(&b, "properties: %s\n", selectionText(f.Selection))
	t := f.Totals
	if len(f.Gaps) == 0 {
		fmt.Fprintf(&b, "covered: %d of %d seeds, complete\n", t.Covered, t.Seeds)
	} else {
		fmt.Fprintf(&b, "covered: %d of %d seeds, INCOMPLETE; not covered: %s\n", t.Covered, t.Seeds, gapText(f.Gaps))
	}
	fmt.Fprintf(&b, "checked: %d propert%s (%d passed, %d failed, %d still searching, %d n/a), %d checks in %d suite run%s\n",
		t.Properties, plural(t.Properties, "y", "ies"), t.Passed, t.Failed, t.Searching, t.NA,
		t.Checks, t.Chunks, plural(t.Chunks, "", "s"))
	if len(f.Failures) == 0 {
		b.WriteString("failures: none\n")
	} else {
		fmt.Fprintf(&b, "failures: %d\n", len(f.Failures))
		for _, x := range f.Failures {
			fmt.Fprintf(&b, "  %s seed %d", x.Property, x.Seed)
			if f.Shard == nil && x.Shard != "" {
				fmt.Fprintf(&b, " (shard %s)", x.Shard)
			}
			fmt.Fprintf(&b, ": %s\n    %s\n", x.Violation, x.Replay)
		}
	}
	if never := f.never(); len(never) > 0 {
		fmt.Fprintf(&b, "situations never reached: %d (a check that cannot fire over these seeds: a failure of the suite)\n  %s\n",
			len(never), strings.Join(never, "\n  "))
	} else if f.hasSituations() {
		b.WriteString("situations: every catalogued situation reached\n")
	}
	if path != "" {
		fmt.Fprintf(&b, "summary: %s\n", path)
	}
	if len(f.Gaps) > 0 && f.Shard != nil {
		fmt.Fprintf(&b, "continue with: %s sweep --resume %s\n", self, path)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// gapText lists the first maxGaps gaps.
func gapText(gaps Set) string {
	if len(gaps) <= maxGaps {
		return gaps.String()
	}
	return fmt.Sprintf("%s and %d more ranges", gaps[:maxGaps], len(gaps)-maxGaps)
}

// hasSituations reports whether any property reported its catalogue.
func (f *summaryFile) hasSituations() bool {
	for _, p := range f.Properties {
		if len(p.Situations) > 0 {
			return true
		}
	}
	return false
}
