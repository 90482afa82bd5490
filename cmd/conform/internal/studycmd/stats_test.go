package studycmd

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

func TestDist(t *testing.T) {
	var d Dist
	_, ok := d.Quantile(0.5)
	must.False(t, ok)
	for i := 1; i <= 100; i++ {
		d.Add(time.Duration(i)*time.Millisecond - time.Microsecond) // rounds up to i ms
	}
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 50 * time.Millisecond}, {0.99, 99 * time.Millisecond}, {1, 100*time.Millisecond - time.Microsecond}, {0.001, time.Millisecond}} {
		got, ok := d.Quantile(tc.q)
		must.True(t, ok)
		must.EqOp(t, tc.want, got, must.Sprintf("q %v", tc.q))
	}
	must.EqOp(t, 100*time.Millisecond-time.Microsecond, d.Max)
	must.EqOp(t, 0.2, d.AtMost(20*time.Millisecond))
	var e Dist
	e.Add(500 * time.Millisecond)
	e.Merge(d)
	must.EqOp(t, 101, e.Count)
	must.EqOp(t, 500*time.Millisecond, e.Max)
	p99, _ := e.Quantile(0.99)
	must.EqOp(t, 100*time.Millisecond, p99)
}

func TestParseGrid(t *testing.T) {
	got, err := parseGrid(" 10x50, 1x10,10X50,1x200")
	must.NoError(t, err)
	must.Eq(t, []config{{1, 10}, {1, 200}, {10, 50}}, got)
	for _, bad := range []string{"", "x", "1x", "ax1", "1x1x1", "1001x1", "1x5001"} {
		_, err := parseGrid(bad)
		must.Error(t, err, must.Sprint(bad))
	}
}

func TestSpread(t *testing.T) {
	must.Eq(t, spread{1, 2, 3}, spreadOf([]float64{3, 1, 2}))
	must.Eq(t, spread{1, 2.5, 4}, spreadOf([]float64{4, 1, 3, 2}))
	s := spreadOf(nil)
	must.True(t, math.IsNaN(s.med))
	must.EqOp(t, "-", fmtPct(s.med))
}

func TestFormat(t *testing.T) {
	must.EqOp(t, "1,234,567", fmtCount(1234567))
	must.EqOp(t, "-1,234", fmtCount(-1234))
	must.EqOp(t, "12.5", fmtCount(12.5))
	must.EqOp(t, "210ms", fmtDur(210*time.Millisecond))
	must.EqOp(t, "269.68ms", fmtDur(269684481*time.Nanosecond))
	must.EqOp(t, "5m0s", fmtDur(5*time.Minute))
	must.EqOp(t, "12.3 %", fmtPct(0.1234))
	must.EqOp(t, "1.50 MB", fmtBytes(1.5e6))
	must.EqOp(t, "a &amp; &lt;b&gt;", esc("a & <b>"))
}

// TestPlanRuns: both runners on every configuration and seed, the
// costliest first.
func TestPlanRuns(t *testing.T) {
	o := options{out: DefaultOut, grid: "1x10,10x50", seeds: 2, minutes: 1, rpcLatency: DefaultRPCLatency,
		runner: DefaultRunner, baseline: DefaultBaseline}
	p, err := o.resolve(func(string) bool { return false })
	must.NoError(t, err)
	must.EqOp(t, "reports/study-sync", p.chartDir)
	runs := p.runs()
	must.SliceLen(t, 8, runs)
	must.EqOp(t, "reference 10x50 seed 1", runs[0].String())
	must.EqOp(t, "mutant/sync-no-priority 10x50 seed 1", runs[1].String())
	must.EqOp(t, "mutant/sync-no-priority 1x10 seed 2", runs[7].String())
	must.EqOp(t, time.Minute, runs[7].Duration)
	must.EqOp(t, "conform study sync --grid 1x10,10x50 --seeds 2 --minutes 1 --rpc-latency 10ms --runner reference --baseline mutant/sync-no-priority --out reports/study-sync.md",
		p.commandLine("conform"))
	o.quick, o.grid = true, DefaultGrid
	p, err = o.resolve(func(f string) bool { return f == "seeds" })
	must.NoError(t, err)
	must.Eq(t, []config{{1, 10}, {2, 10}}, p.configs)
	must.EqOp(t, 2, p.seeds)
	must.EqOp(t, time.Minute, p.duration)
}

// TestCostGrowth: the cost section states the growth over the widest
// span of clients (allocs fixed) and of allocs (clients fixed), from the
// median wall time per client and virtual minute.
func TestCostGrowth(t *testing.T) {
	p := plan{runner: "ref", baseline: "base", configs: []config{{1, 50}, {10, 50}, {100, 50}, {10, 500}}}
	var sums []RunSummary
	for _, c := range p.configs {
		for _, runner := range []string{"ref", "base"} {
			// 2 ms per client and minute at 50 allocs, 10 at 500.
			perClient := 2 * time.Millisecond * time.Duration(c.Allocs/50)
			if c.Allocs == 500 {
				perClient = 10 * time.Millisecond
			}
			sums = append(sums, RunSummary{Spec: RunSpec{Runner: runner, Clients: c.Clients, Allocs: c.Allocs, Seed: 1, Duration: time.Minute},
				Wall: perClient * time.Duration(c.Clients)})
		}
	}
	var b strings.Builder
	aggregate(p, sums).writeCost(&b)
	must.StrContains(t, b.String(), "| 100 × 50 | 200ms | 200ms | 2.00 | 2.00 |")
	must.StrContains(t, b.String(), "From 1 to 100 clients of 50 allocs, a client cost 2.00 then 2.00 ms per virtual minute (×1.00 for ×100 clients).")
	must.StrContains(t, b.String(), "From 50 to 500 allocs per client, 10 clients, a client cost 2.00 then 10.00 ms (×5.00 for ×10.0 allocs).")
	var none strings.Builder
	aggregate(p, nil).writeCost(&none)
	must.StrContains(t, none.String(), "Not measured")
}
