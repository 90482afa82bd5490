package studycmd

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Nomad's published figures the report compares with (project issue 13).
const (
	nomadClientShare = 0.70 // client updates' share of server Raft traffic
	nomadReduction   = 0.10 // less Raft traffic with prioritized sync
)

// writeReport writes the Markdown report and its charts.
func writeReport(p plan, st study, self string) error {
	if err := os.MkdirAll(p.chartDir, 0o755); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	for _, c := range st.charts() {
		if err := os.WriteFile(filepath.Join(p.chartDir, c.file), []byte(c.svg), 0o644); err != nil {
			return fmt.Errorf("write chart: %w", err)
		}
	}
	if err := os.WriteFile(p.out, []byte(st.markdown(self)), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// writeHeadline prints where the report is, the reductions and the
// checks.
func writeHeadline(w io.Writer, p plan, st study) error {
	var b strings.Builder
	fmt.Fprintf(&b, "report: %s (charts in %s)\n", p.out, p.chartDir)
	for _, cs := range st.cfgs {
		fmt.Fprintf(&b, "%-8s %s RPCs %s, log entries %s, log bytes %s\n", cs.cfg, "reduction (median over seeds):",
			fmtPct(spreadOf(cs.reduction(rpcs)).med), fmtPct(spreadOf(cs.reduction(logEntries)).med),
			fmtPct(spreadOf(cs.reduction(logBytes)).med))
	}
	for _, c := range st.checks() {
		fmt.Fprintf(&b, "%s: %s\n", verdict(c.holds), c.text)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write headline: %w", err)
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "holds"
	}
	return "FAILS"
}

// markdown renders the report.
func (st study) markdown(self string) string {
	p := st.p
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# Sync study: prioritized client updates against sending on every tick\n\n")
	w("Project issue 13. Written by `conform study sync` (the same command writes the same report, but for the measured cost of the runs):\n\n")
	w("```\n%s\n```\n\n", p.commandLine(self))
	w("%d configurations × %d seeds × 2 runners: `%s` (prioritized sync, SYNC-3) and `%s`, each run %s of virtual time, every client RPC's request %s on the way (the server's reply returns at once, after its 50 ms commit window for `Node.UpdateAlloc`), no faults.\n\n",
		len(st.cfgs), p.seeds, p.runner, p.baseline, fmtDur(p.duration), fmtDur(p.rpcLatency))
	if p.defaultGrid {
		w("The grid is the default one: up to 1,000 clients of 50 allocs and 100 clients of 500 allocs, the sizes a node simulator's users run (project issue 25).\n\n")
	}
	st.writeHeadline(&b)
	w("## Checks\n\n")
	for i, c := range st.checks() {
		w("%d. **%s**: %s.\n", i+1, verdict(c.holds), c.text)
	}
	w("\n")
	st.writeNomad(&b)
	st.writeCost(&b)
	writeWorkload(&b)
	w("## Results per configuration\n\n")
	w("Counts and rates are the median over the seeds, with the range in brackets; latencies are pooled over the seeds (whole milliseconds, rounded up; the maximum exact to the millisecond). RPCs are the calls the server accepted; a call is *urgent* when one of its allocs' ClientStatus differs from the one the client had acknowledged (SYNC-2), *typical-only* otherwise.\n\n")
	for _, cs := range st.cfgs {
		st.writeConfig(&b, cs)
	}
	w("## Charts\n\n")
	for _, c := range st.charts() {
		w("![%s](%s/%s)\n\n", c.title, filepath.ToSlash(filepath.Base(p.chartDir)), c.file)
	}
	writeMethod(&b)
	return b.String()
}

// writeHeadline is the report's summary table.
func (st study) writeHeadline(b *strings.Builder) {
	fmt.Fprintf(b, "## Headline\n\nReduction of `%s` against `%s`, per seed 1 − ours/theirs, median (min–max) over the seeds:\n\n", st.p.runner, st.p.baseline)
	fmt.Fprintf(b, "| clients × allocs | RPCs/client/s, %s | RPCs/client/s, %s | RPCs | log entries | log bytes |\n|---|---|---|---|---|---|\n", st.p.runner, st.p.baseline)
	for _, cs := range st.cfgs {
		fmt.Fprintf(b, "| %d × %d | %s | %s | %s | %s | %s |\n", cs.cfg.Clients, cs.cfg.Allocs,
			fmtRate(spreadOf(cs.ref.per(rpcRate)).med), fmtRate(spreadOf(cs.base.per(rpcRate)).med),
			fmtSpreadPct(spreadOf(cs.reduction(rpcs))), fmtSpreadPct(spreadOf(cs.reduction(logEntries))),
			fmtSpreadPct(spreadOf(cs.reduction(logBytes))))
	}
	b.WriteString("\n")
	big := st.largest()
	r, e, by := spreadOf(big.reduction(rpcs)).med, spreadOf(big.reduction(logEntries)).med, spreadOf(big.reduction(logBytes)).med
	if e < r {
		fmt.Fprintf(b, "At %d × %d the server's log entries fall less than the RPCs (%s against %s): one 50 ms commit window takes the calls of several clients into one entry, so fewer calls save fewer entries. ",
			big.cfg.Clients, big.cfg.Allocs, fmtPct(e), fmtPct(r))
	}
	if by < r {
		fmt.Fprintf(b, "Log bytes fall less than RPCs (%s there): the same alloc states reach the server in fewer, larger calls, and only the states superseded within a second are saved.", fmtPct(by))
	}
	b.WriteString("\n\n")
}

// largest is the configuration with the most clients (then allocs).
func (st study) largest() cfgStats {
	last := st.cfgs[0]
	for _, cs := range st.cfgs {
		if cs.cfg.Clients > last.cfg.Clients || (cs.cfg.Clients == last.cfg.Clients && cs.cfg.Allocs > last.cfg.Allocs) {
			last = cs
		}
	}
	return last
}

// writeNomad compares with Nomad's published figures.
func (st study) writeNomad(b *strings.Builder) {
	last := st.largest()
	e, by := spreadOf(last.reduction(logEntries)).med, spreadOf(last.reduction(logBytes)).med
	fmt.Fprintf(b, "## Against Nomad's figures\n\n")
	fmt.Fprintf(b, "Nomad reported client updates as about %.0f %% of the servers' Raft traffic in high-volume deployments, and about %.0f %% less Raft traffic with prioritized sync (non-urgent updates at most once per second instead of every 200 ms). ", nomadClientShare*100, nomadReduction*100)
	fmt.Fprintf(b, "Here, in the largest configuration (%d × %d), prioritized sync wrote %s fewer client-update log entries and %s fewer log bytes (medians over seeds). ", last.cfg.Clients, last.cfg.Allocs, fmtPct(e), fmtPct(by))
	fmt.Fprintf(b, "If client updates were %.0f %% of all Raft traffic, as Nomad reported, that would be %s of all entries and %s of all bytes. ", nomadClientShare*100, fmtPct(e*nomadClientShare), fmtPct(by*nomadClientShare))
	b.WriteString("The comparison is loose: this server logs only client updates (no evaluations, plans, heartbeats or job writes), the workload is one model of a busy deployment, not Nomad's, and the share of urgent updates in it (ClientStatus changes, which both runners send on the next tick) decides how much there is to save. The figures are what this model gives; nothing was tuned toward Nomad's.\n\n")
}

// writeCost is what simulating a client cost, against clients and
// allocs (RunSummary.Wall).
func (st study) writeCost(b *strings.Builder) {
	measured := false
	for _, cs := range st.cfgs {
		for _, r := range append(slices.Clone(cs.ref.runs), cs.base.runs...) {
			measured = measured || r.Wall > 0
		}
	}
	b.WriteString("## Cost of simulating a client\n\n")
	if !measured {
		b.WriteString("Not measured: no run's wall time was recorded.\n\n")
		return
	}
	b.WriteString("What a run cost the machine that wrote this report: its wall time in the study's worker (runs execute `--parallel` at once in one process), per client and virtual minute, the median over the seeds. These are the only figures of the report that differ between two runs of the command; the simulator's own benchmarks (`reports/bench`: Clients100x50, Clients1000x50, Clients100x500) measure the same growth one run per process.\n\n")
	fmt.Fprintf(b, "| clients × allocs | wall per run, %s | wall per run, %s | ms per client per virtual minute, %s | ms per client per virtual minute, %s |\n|---|---|---|---|---|\n",
		st.p.runner, st.p.baseline, st.p.runner, st.p.baseline)
	wall := func(r RunSummary) float64 { return r.Wall.Seconds() }
	for _, cs := range st.cfgs {
		fmt.Fprintf(b, "| %d × %d | %s | %s | %s | %s |\n", cs.cfg.Clients, cs.cfg.Allocs,
			fmtSeconds(spreadOf(cs.ref.per(wall)).med), fmtSeconds(spreadOf(cs.base.per(wall)).med),
			fmtRate(spreadOf(cs.ref.per(clientCost)).med), fmtRate(spreadOf(cs.base.per(clientCost)).med))
	}
	b.WriteString("\n")
	cost := func(c config) float64 {
		for _, cs := range st.cfgs {
			if cs.cfg == c {
				return spreadOf(cs.ref.per(clientCost)).med
			}
		}
		return math.NaN()
	}
	if lo, hi, ok := st.span(func(c config) int { return c.Allocs }, func(c config) int { return c.Clients }); ok {
		fmt.Fprintf(b, "From %d to %d clients of %d allocs, a client cost %s then %s ms per virtual minute (%s for %s clients). ",
			lo.Clients, hi.Clients, lo.Allocs, fmtRate(cost(lo)), fmtRate(cost(hi)), fmtRatio(cost(hi)/cost(lo)), fmtRatio(float64(hi.Clients)/float64(lo.Clients)))
	}
	if lo, hi, ok := st.span(func(c config) int { return c.Clients }, func(c config) int { return c.Allocs }); ok {
		fmt.Fprintf(b, "From %d to %d allocs per client, %d clients, a client cost %s then %s ms (%s for %s allocs).",
			lo.Allocs, hi.Allocs, lo.Clients, fmtRate(cost(lo)), fmtRate(cost(hi)), fmtRatio(cost(hi)/cost(lo)), fmtRatio(float64(hi.Allocs)/float64(lo.Allocs)))
	}
	b.WriteString("\n\n")
}

// span finds, among the configurations that share fixed(c), the two
// furthest apart in varied(c) (the largest ratio; ties: the larger
// fixed value): the growth the cost table states.
func (st study) span(fixed, varied func(config) int) (lo, hi config, ok bool) {
	best := 1.0
	for _, a := range st.cfgs {
		for _, z := range st.cfgs {
			if fixed(a.cfg) != fixed(z.cfg) || varied(z.cfg) <= varied(a.cfg) {
				continue
			}
			r := float64(varied(z.cfg)) / float64(varied(a.cfg))
			if r > best || r == best && ok && fixed(a.cfg) > fixed(lo) {
				best, lo, hi, ok = r, a.cfg, z.cfg, true
			}
		}
	}
	return lo, hi, ok
}

// writeWorkload describes the churn (cluster.Churn's).
func writeWorkload(b *strings.Builder) {
	b.WriteString(`## Workload

Every configuration N × M is N clients of the runner under test (each its own node, state DB, alloc dirs, mock driver and connection) against one simulated server, on one virtual clock (` + "`sim/cluster`" + `). Each client's jobs are drawn from the seed (` + "`cluster.Churn`" + `; the same for both runners, and client i's the same whatever N):

- jobs of 1 to 5 allocs until the client has M, placed at whole seconds of the first minute (a client's placements of one second in one server pass);
- 45 % services of one task that runs until stopped; 20 % services with a second task that exits with code 1 every 30 s to 3 min and restarts (the alloc stays running: updates whose only change is task events); 15 % services whose task exits with code 1 after 1 to 5 min and restarts (the alloc goes pending, then running again); 20 % batch jobs of 20 s to 4 min that complete, replaced by a new job of the same shape 10 s to 1 min after each should have ended;
- a quarter of the service jobs get a new version later in the run (their allocs stop, new ones are placed), a tenth are stopped;
- tasks start 0 to 2 s after the driver is asked and exit 0 to 3 s after their kill signal; restart policy 3 attempts in 5 minutes, 5 to 15 s apart, then a delay.

`)
}

// writeConfig is one configuration's table.
func (st study) writeConfig(b *strings.Builder, cs cfgStats) {
	fmt.Fprintf(b, "### %d × %d\n\n", cs.cfg.Clients, cs.cfg.Allocs)
	fmt.Fprintf(b, "| | `%s` | `%s` |\n|---|---|---|\n", cs.ref.runner, cs.base.runner)
	row := func(name string, f func(figures) string) {
		fmt.Fprintf(b, "| %s | %s | %s |\n", name, f(cs.ref), f(cs.base))
	}
	count := func(fn func(RunSummary) float64) func(figures) string {
		return func(f figures) string { return fmtSpread(spreadOf(f.per(fn)), fmtCount) }
	}
	rate := func(fn func(RunSummary) float64) func(figures) string {
		return func(f figures) string { return fmtSpread(spreadOf(f.per(fn)), fmtRate) }
	}
	row("allocs placed", count(func(r RunSummary) float64 { return float64(r.Allocs) }))
	row("`Node.UpdateAlloc` RPCs", count(rpcs))
	row("server log entries", count(logEntries))
	row("server log bytes", func(f figures) string { return fmtSpread(spreadOf(f.per(logBytes)), fmtBytes) })
	row("RPCs per client per second", rate(rpcRate))
	row("typical-only RPCs per client per second", rate(typicalRate))
	row("urgent share of the calls", func(f figures) string { return fmtSpread(spreadOf(f.per(urgentShare)), fmtPct) })
	row("urgent ClientStatus changes: n, p50 / p99 / max", func(f figures) string { return fmtDist(f.urgent) })
	row("other ClientStatus changes: n, p50 / p99 / max", func(f figures) string { return fmtDist(f.other) })
	row("changes not yet seen at the end", count(func(r RunSummary) float64 { return float64(r.Unseen) }))
	fmt.Fprintf(b, "\nReduction per seed (min / median / max): RPCs %s, log entries %s, log bytes %s.\n\n",
		fmtMinMedMax(spreadOf(cs.reduction(rpcs))), fmtMinMedMax(spreadOf(cs.reduction(logEntries))),
		fmtMinMedMax(spreadOf(cs.reduction(logBytes))))
}

// writeMethod says what is measured and what is not.
func writeMethod(b *strings.Builder) {
	b.WriteString(`## Method and limits

- **RPCs, log entries, log bytes** are the simulated server's counters (` + "`sim/server` Stats" + `): accepted ` + "`Node.UpdateAlloc`" + ` calls, and the log entries they made (every call arriving within one 50 ms commit window, from any client, is one entry, SYNC-4) with their JSON size.
- **Latency** is from the push of an alloc whose ClientStatus changed (the runner's ` + "`AllocStateUpdated`" + `, observed through the StateUpdater the client hands its runners) to the instant the server received the first call that the client started after the push and that carries the alloc (the buffer keeps the newest state per alloc, SYNC-1, so that call carries the change or a newer state). A change is *urgent* when its ClientStatus differs from the one the client had acknowledged at the push (SYNC-2), otherwise it is an alloc's first status change before any of its states was acknowledged, which SYNC-2 calls typical: a prioritized loop may hold it up to the 5th tick, the baseline sends it on the next.
- **Typical-only** calls carry no urgent entry; SYNC-5.2 wants them at least 1 s after the client's previous call.
- The runs are deterministic: a seed gives the same figures on every run (` + "`sim/cluster`" + `'s TestDeterminism). Nothing else on the server is modelled: no heartbeats, evaluations or garbage collection of terminal allocs (a client's pulls grow with the completed batch allocs).
`)
}

// Formatting, the same on every platform.

func fmtCount(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	n := int64(math.Round(v))
	s := strconv.FormatInt(n, 10)
	if v != math.Round(v) {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func plainCount(n int) string { return fmtCount(float64(n)) }

func fmtRate(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func fmtPct(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v*100, 'f', 1, 64) + " %"
}

func fmtBytes(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v/1e6, 'f', 2, 64) + " MB"
}

// fmtSeconds is a wall time in seconds as fmtDur prints it, to 0.1 s.
func fmtSeconds(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmtDur(time.Duration(v * float64(time.Second)).Round(100 * time.Millisecond))
}

// fmtRatio is a growth factor: ×1.23, ×12.3, ×123.
func fmtRatio(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case v >= 100:
		return "×" + strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return "×" + strconv.FormatFloat(v, 'f', 1, 64)
	}
	return "×" + strconv.FormatFloat(v, 'f', 2, 64)
}

func fmtDur(d time.Duration) string {
	if d%time.Millisecond == 0 || d >= time.Second {
		return d.Round(time.Millisecond).String()
	}
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + "ms"
}

func fmtSpread(s spread, f func(float64) string) string {
	if s.min == s.max {
		return f(s.med)
	}
	return f(s.med) + " [" + f(s.min) + "–" + f(s.max) + "]"
}

func fmtSpreadPct(s spread) string {
	return fmtPct(s.med) + " (" + fmtPct(s.min) + " – " + fmtPct(s.max) + ")"
}

func fmtMinMedMax(s spread) string {
	return fmtPct(s.min) + " / " + fmtPct(s.med) + " / " + fmtPct(s.max)
}

func fmtDist(d Dist) string {
	if d.Count == 0 {
		return "none"
	}
	p50, _ := d.Quantile(0.5)
	p99, _ := d.Quantile(0.99)
	return plainCount(d.Count) + ", " + fmtDur(p50) + " / " + fmtDur(p99) + " / " + fmtDur(d.Max)
}
