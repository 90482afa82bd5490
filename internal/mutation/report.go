package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// reportInput is everything the report is rendered from; rendering is a
// pure function of it (the golden test's subject).
type reportInput struct {
	Run         *Run
	Annotations Annotations
	// Gaps are the open survivors of gaps.txt: neither killed nor
	// equivalent, each with why no check reaches it yet; they count as
	// survivors.
	Gaps Annotations
	// Revisit says why annotations were not applied (pinnedTo).
	Revisit     []string
	Generated   map[string]bool // every ID of the enumeration, for stale annotations
	EstimateFor int             // the run size whose duration the report estimates (300)
	Parallel    int
}

// counts sums a run's verdicts.
type counts struct {
	drawn, invalid, errors, pending       int
	killed, timeout, survived, equivalent int
}

func (c counts) judged() int { return c.killed + c.timeout + c.survived }

// score is (killed + timeout) / (killed + timeout + survived − equivalent).
func (c counts) score() string {
	den := c.judged() - c.equivalent
	if den == 0 {
		return "n/a"
	}
	num := c.killed + c.timeout
	return fmt.Sprintf("%.1f%% (%d/%d)", 100*float64(num)/float64(den), num, den)
}

func count(rs []Result, ann Annotations) counts {
	var c counts
	for _, r := range rs {
		c.drawn++
		switch r.Status {
		case Killed:
			c.killed++
		case Timeout:
			c.timeout++
		case Survived:
			c.survived++
			if _, ok := ann[r.ID]; ok {
				c.equivalent++
			}
		case Invalid:
			c.invalid++
		case Pending:
			c.pending++
		default:
			c.errors++
		}
	}
	return c
}

// baseOperator drops a #n suffix.
func baseOperator(op string) string {
	base, _, _ := strings.Cut(op, "#")
	return base
}

// renderReport renders reports/mutation.md.
func renderReport(in reportInput) string {
	r := in.Run
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	all := count(r.Results, in.Annotations)

	p("# Mutation testing of the reference runner\n\n")
	switch {
	case r.Sample >= 300:
		p("> **Sample of %d.** Mutants that compile, drawn with seed %d from the %d generated: the score is this sample's, an estimate of the whole runner's within about five points (95 %%).\n\n",
			r.Sample, r.Seed, r.Generated)
	case r.Sample > 0:
		p("> **SAMPLE.** %d mutants that compile, drawn with seed %d from the %d generated: the score below is this sample's, an estimate with a wide margin, not the runner's. The full run (`make mutation`, 300 or more) is still to come.\n\n",
			r.Sample, r.Seed, r.Generated)
	}
	if !r.Complete {
		p("> **INCOMPLETE.** The run stopped before every selected mutant was judged; continue it with `-resume` on its results file.\n\n")
	}
	p("Every mutant is one small change of the reference runner's source (%s), ", strings.Join(code1(r.Packages), ", "))
	p("built into the conformance suite with `go test -overlay` (the tree is never written) and judged by the exported suite alone, ")
	p("the built-in runners through `properties.Run`: **killed** if the suite fails, **survived** if it passes, **timeout** (counted as killed) if it runs past the limit, **invalid** (not counted) if it does not compile. ")
	p("Written by `internal/mutation` (`make mutation`). A survivor is accounted for by a check that kills it, by an argument that it is equivalent in `internal/mutation/equivalent.txt` (the only source of the column's `equivalent:` entries), or, counted against the score, as an open gap in `internal/mutation/gaps.txt`, with why no check reaches it yet.\n\n")

	p("| | |\n| --- | --- |\n")
	p("| date | %s |\n", r.Date)
	commit := r.Commit
	if len(r.Dirty) > 0 {
		commit += " with uncommitted changes in " + strings.Join(r.Dirty, ", ")
	}
	p("| commit | %s |\n", commit)
	p("| command | %s |\n", code(r.Command))
	p("| judge | %s, killed after %s |\n", code(r.Judge), r.Timeout)
	if r.Race {
		p("| race stage | a survivor whose change touches synchronization (a lock, a wait, a channel operation, a dropped `go` or `defer`) is judged again with `go test -race`: a data race the detector reports kills it |\n")
	}
	p("| baseline | the unmutated tree passes the judge: build %.1f s, run %.1f s |\n", r.Baseline.Build, r.Baseline.Run)
	p("| mutated | %d files; %s |\n\n", r.Files, operatorSummary(r.Operators))

	p("## Counts\n\n")
	p("| generated | drawn | invalid | judged | killed | timeout | survived | equivalent | score |\n")
	p("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	p("| %d | %d | %d | %d | %d | %d | %d | %d | %s |\n\n", r.Generated, all.drawn, all.invalid, all.judged(), all.killed, all.timeout, all.survived, all.equivalent, all.score())
	p("Score = (killed + timeout) / (killed + timeout + survived − equivalent). ")
	p("Drawn counts every mutant taken in the draw, the invalid ones (skipped: the draw goes on until it has enough that compile) among them.")
	if all.errors > 0 {
		p(" %d could not be judged (below) and count nowhere.", all.errors)
	}
	if all.pending > 0 {
		p(" Not judged yet: %d.", all.pending)
	}
	p("\n\n")
	if mean, n := meanTime(r.Results); n > 0 {
		est := time.Duration(float64(in.EstimateFor) * mean.Seconds() / float64(max(in.Parallel, 1)) * float64(time.Second))
		p("Time: %d mutants judged, %.1f s each on average (build and run: %s); %d mutants would take about %s at -parallel %d.\n\n",
			n, mean.Seconds(), buildRunSplit(r.Results), in.EstimateFor, roundEstimate(est), max(in.Parallel, 1))
	}

	p("### By operator\n\n")
	p("| operator | generated | drawn | invalid | killed | timeout | survived |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, op := range operators {
		var rs []Result
		for _, x := range r.Results {
			if baseOperator(x.Operator) == op {
				rs = append(rs, x)
			}
		}
		c := count(rs, in.Annotations)
		p("| %s | %d | %d | %d | %d | %d | %d |\n", op, r.Operators[op], c.drawn, c.invalid, c.killed, c.timeout, c.survived)
	}
	p("\n")

	p("## Survivors\n\n")
	if all.survived == 0 {
		p("None.\n\n")
	} else {
		p("The column *accounted for* is the human's: a check of the suite that now kills the mutant, an `equivalent:` argument in `internal/mutation/equivalent.txt`, or an `open:` gap in `internal/mutation/gaps.txt` (a survivor no check reaches yet, and why; it counts against the score).\n\n")
		p("| ID | diff | accounted for |\n| --- | --- | --- |\n")
		for _, x := range r.Results {
			if x.Status != Survived {
				continue
			}
			acc := ""
			if arg, ok := in.Annotations[x.ID]; ok {
				acc = "equivalent: " + cell(arg)
			} else if why, ok := in.Gaps[x.ID]; ok {
				acc = "open: " + cell(why)
			}
			p("| %s | %s | %s |\n", code(x.ID), code(x.Diff), acc)
		}
		p("\n")
	}

	p("## Killed\n\n")
	if all.killed+all.timeout == 0 {
		p("None.\n\n")
	} else {
		p("| ID | diff | verdict | first failure | time |\n| --- | --- | --- | --- | ---: |\n")
		for _, x := range r.Results {
			if x.Status != Killed && x.Status != Timeout {
				continue
			}
			p("| %s | %s | %s | %s | %.1f s |\n", code(x.ID), code(x.Diff), x.Status, cell(killedBy(x)), x.Build+x.Run)
		}
		p("\n")
	}

	if all.invalid > 0 {
		p("## Invalid (do not compile, not counted)\n\n| ID | diff | error |\n| --- | --- | --- |\n")
		for _, x := range r.Results {
			if x.Status == Invalid {
				p("| %s | %s | %s |\n", code(x.ID), code(x.Diff), cell(x.Detail))
			}
		}
		p("\n")
	}
	if all.errors > 0 {
		p("## Not judged (the tool's errors, judged again on -resume)\n\n| ID | error |\n| --- | --- |\n")
		for _, x := range r.Results {
			if x.Status == Errored {
				p("| %s | %s |\n", code(x.ID), cell(x.Detail))
			}
		}
		p("\n")
	}

	var stale, contradicted []string
	for id := range in.Annotations {
		if in.Generated != nil && !in.Generated[id] {
			stale = append(stale, id)
		}
	}
	for _, x := range r.Results {
		if _, ok := in.Annotations[x.ID]; ok && (x.Status == Killed || x.Status == Timeout) {
			contradicted = append(contradicted, x.ID)
		}
	}
	var closed []string
	for _, x := range r.Results {
		if _, ok := in.Gaps[x.ID]; ok && (x.Status == Killed || x.Status == Timeout) {
			closed = append(closed, x.ID)
		}
	}
	for id := range in.Gaps {
		if in.Generated != nil && !in.Generated[id] {
			stale = append(stale, id)
		}
	}
	if len(stale)+len(contradicted)+len(closed)+len(in.Revisit) > 0 {
		sort.Strings(stale)
		p("## Annotations to revisit\n\n")
		for _, why := range in.Revisit {
			p("- %s\n", why)
		}
		for _, id := range contradicted {
			p("- %s is argued equivalent in equivalent.txt, yet the suite killed it: the argument is wrong.\n", code(id))
		}
		for _, id := range closed {
			p("- %s is listed open in gaps.txt, yet the suite killed it: delete the entry.\n", code(id))
		}
		for _, id := range stale {
			p("- %s in equivalent.txt or gaps.txt names no mutant of today's source (the code moved or changed): re-argue it under its new ID or delete it.\n", code(id))
		}
		p("\n")
	}
	return b.String()
}

// killedBy is what killed a mutant: its failing tests, shortened, the
// first three of them; else the crash or timeout line.
func killedBy(x Result) string {
	if len(x.By) == 0 {
		return x.Detail
	}
	prefix := ""
	if x.Status == Timeout {
		prefix = x.Detail + ", after failing "
	}
	var names []string
	for i, n := range x.By {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(x.By)-3))
			break
		}
		names = append(names, shortTestName(n))
	}
	return prefix + strings.Join(names, "; ")
}

func operatorSummary(ops map[string]int) string {
	var parts []string
	for _, op := range operators {
		if n := ops[op]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", op, n))
		}
	}
	return strings.Join(parts, ", ")
}

// meanTime is the mean build-and-run time of the judged mutants.
func meanTime(rs []Result) (time.Duration, int) {
	var sum float64
	n := 0
	for _, r := range rs {
		if r.Status == Killed || r.Status == Timeout || r.Status == Survived {
			sum += r.Build + r.Run
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return time.Duration(sum / float64(n) * float64(time.Second)), n
}

func buildRunSplit(rs []Result) string {
	var b, r float64
	n := 0
	for _, x := range rs {
		if x.Status == Killed || x.Status == Timeout || x.Status == Survived {
			b += x.Build
			r += x.Run
			n++
		}
	}
	return fmt.Sprintf("%.1f s + %.1f s", b/float64(n), r/float64(n))
}

// roundEstimate prints d to the minute (to 5 over an hour).
func roundEstimate(d time.Duration) string {
	if d < time.Hour {
		return fmt.Sprintf("%d min", int(d.Round(time.Minute).Minutes()))
	}
	d = d.Round(5 * time.Minute)
	return fmt.Sprintf("%dh%02d", int(d.Hours()), int(d.Minutes())%60)
}

// code renders s as a Markdown code span that survives a table cell.
func code(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

func code1(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = code(s)
	}
	return out
}

// cell makes s safe in a table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", `\|`)
}
