package sweepcmd

import (
	"testing"

	"github.com/allocsim/allocsim/reports"
	"github.com/shoenig/test/must"
)

// TestSituationsSumAndNever: chunk results add up per situation, merged
// shards add up, and what no check reached is listed as the suite's gap.
func TestSituationsSumAndNever(t *testing.T) {
	f := &summaryFile{Seeds: Range{From: 1, To: 4}}
	w := work{Seeds: Range{From: 1, To: 2}}
	results := []reports.Property{{ID: "AR-9/kill-order", Status: reports.Pass, Checks: 2,
		Situations: []reports.Situation{{Name: "leader-stopped", Runs: 1}, {Name: "kill-timeout-unset", Runs: 0}}}}
	_, err := f.record(w, results, func(string, uint64) string { return "" })
	must.NoError(t, err)
	_, err = f.record(work{Seeds: Range{From: 3, To: 4}}, results, func(string, uint64) string { return "" })
	must.NoError(t, err)
	must.Eq(t, []reports.Situation{{Name: "leader-stopped", Runs: 2}, {Name: "kill-timeout-unset", Runs: 0}}, f.Properties[0].Situations)
	must.Eq(t, []string{"AR-9/kill-order: kill-timeout-unset"}, f.never())

	g := &summaryFile{Seeds: f.Seeds}
	g.property("AR-9/kill-order").addSituations([]reports.Situation{{Name: "kill-timeout-unset", Runs: 3}})
	m, err := merge([]*summaryFile{f, g}, []string{"f", "g"})
	must.NoError(t, err)
	must.SliceEmpty(t, m.never())
	must.Eq(t, []reports.Situation{{Name: "leader-stopped", Runs: 2}, {Name: "kill-timeout-unset", Runs: 3}}, m.property("AR-9/kill-order").Situations)
}
