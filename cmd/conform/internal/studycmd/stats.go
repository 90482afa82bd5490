package studycmd

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/syncpolicy"
)

// figures are one runner's runs of one configuration, by seed, with
// their latencies pooled.
type figures struct {
	runner string
	runs   []RunSummary
	urgent Dist
	other  Dist
}

// per returns f(run) of every run, in seed order.
func (f figures) per(fn func(RunSummary) float64) []float64 {
	out := make([]float64, len(f.runs))
	for i, r := range f.runs {
		out[i] = fn(r)
	}
	return out
}

// cfgStats are both runners' figures on one configuration.
type cfgStats struct {
	cfg       config
	ref, base figures
}

// check is one computed check of the report.
type check struct {
	holds bool
	text  string
}

// study is the aggregated study.
type study struct {
	p    plan
	cfgs []cfgStats
	// bound is the urgent-latency bound: one tick, the request latency
	// and the longest UpdateAlloc round trip of the runner (a call in
	// flight when the change was pushed).
	bound       time.Duration
	maxCallTime time.Duration
	refUrgent   Dist // the runner's urgent latencies over every run
	baseUrgent  Dist
}

// aggregate groups the summaries (in plan.runs order) by configuration
// and runner, seeds in order.
func aggregate(p plan, sums []RunSummary) study {
	st := study{p: p}
	idx := map[config]int{}
	for _, c := range p.configs {
		idx[c] = len(st.cfgs)
		st.cfgs = append(st.cfgs, cfgStats{cfg: c, ref: figures{runner: p.runner}, base: figures{runner: p.baseline}})
	}
	sorted := slices.Clone(sums)
	slices.SortStableFunc(sorted, func(a, b RunSummary) int { return cmp.Compare(a.Spec.Seed, b.Spec.Seed) })
	for _, s := range sorted {
		cs := &st.cfgs[idx[config{s.Spec.Clients, s.Spec.Allocs}]]
		f := &cs.base
		if s.Spec.Runner == p.runner {
			f = &cs.ref
			st.maxCallTime = max(st.maxCallTime, s.MaxCallTime)
			st.refUrgent.Merge(s.UrgentLatency)
		} else {
			st.baseUrgent.Merge(s.UrgentLatency)
		}
		f.runs = append(f.runs, s)
		f.urgent.Merge(s.UrgentLatency)
		f.other.Merge(s.OtherLatency)
	}
	st.bound = syncpolicy.TickInterval + p.rpcLatency + st.maxCallTime
	return st
}

// seconds is a run's client-seconds: clients × virtual duration.
func clientSeconds(r RunSummary) float64 {
	return float64(r.Spec.Clients) * r.Spec.Duration.Seconds()
}

// Per-run figures of the report.
var (
	rpcs        = func(r RunSummary) float64 { return float64(r.RPCs) }
	logEntries  = func(r RunSummary) float64 { return float64(r.LogEntries) }
	logBytes    = func(r RunSummary) float64 { return float64(r.LogBytes) }
	rpcRate     = func(r RunSummary) float64 { return float64(r.RPCs) / clientSeconds(r) }
	typicalRate = func(r RunSummary) float64 { return float64(r.Typical) / clientSeconds(r) }
	urgentShare = func(r RunSummary) float64 { return share(r.Urgent, r.Calls) }
	entryRate   = func(r RunSummary) float64 { return float64(r.LogEntries) / r.Spec.Duration.Seconds() }
	// clientCost is the wall milliseconds a client cost per virtual
	// minute (RunSummary.Wall).
	clientCost = func(r RunSummary) float64 {
		return r.Wall.Seconds() * 1000 / (float64(r.Spec.Clients) * r.Spec.Duration.Minutes())
	}
)

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// reduction is 1 − ref/base per seed (seeds both runners ran).
func (cs cfgStats) reduction(fn func(RunSummary) float64) []float64 {
	var out []float64
	for i := range min(len(cs.ref.runs), len(cs.base.runs)) {
		if b := fn(cs.base.runs[i]); b > 0 {
			out = append(out, 1-fn(cs.ref.runs[i])/b)
		}
	}
	return out
}

// spread is the minimum, median and maximum of vs (NaN for none; the
// median of an even count is the mean of the middle two).
type spread struct{ min, med, max float64 }

func spreadOf(vs []float64) spread {
	if len(vs) == 0 {
		return spread{math.NaN(), math.NaN(), math.NaN()}
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return spread{s[0], med, s[n-1]}
}

// checks are the report's three computed checks.
func (st study) checks() []check {
	return []check{st.typicalCheck(), st.urgentCheck(), st.fewerCheck()}
}

// typicalCheck: SYNC-5.2 for the runner, every run.
func (st study) typicalCheck() check {
	tooSoon, pairs := 0, 0
	minGap, maxRate := time.Duration(0), 0.0
	for _, cs := range st.cfgs {
		for _, r := range cs.ref.runs {
			tooSoon += r.TypicalTooSoon
			if r.MinTypicalGap > 0 {
				pairs++
				if minGap == 0 || r.MinTypicalGap < minGap {
					minGap = r.MinTypicalGap
				}
			}
			maxRate = max(maxRate, typicalRate(r))
		}
	}
	c := check{holds: tooSoon == 0 && maxRate <= 1}
	c.text = "typical-only traffic (calls without an urgent entry) of " + st.p.runner + ": at most " +
		fmtRate(maxRate) + " such RPCs per client per second in any run; " + plainCount(tooSoon) +
		" came less than 1 s after the client's previous call"
	if pairs > 0 {
		c.text += " (shortest gap " + fmtDur(minGap) + ")"
	}
	return c
}

// urgentCheck: every urgent change of the runner seen within the bound.
func (st study) urgentCheck() check {
	d := st.refUrgent
	c := check{holds: d.Count > 0 && d.Max <= st.bound}
	within := syncpolicy.TickInterval + st.p.rpcLatency
	c.text = "urgent ClientStatus changes of " + st.p.runner + " reached the server at most " + fmtDur(d.Max) +
		" after the push (" + plainCount(d.Count) + " changes); the bound is one tick (200 ms) + the request latency (" +
		fmtDur(st.p.rpcLatency) + ") + the longest UpdateAlloc round trip (" + fmtDur(st.maxCallTime) +
		", a call in flight at the push) = " + fmtDur(st.bound) + "; " + fmtPct(d.AtMost(within)) +
		" were within one tick + the request latency (" + fmtDur(within) + ")"
	return c
}

// fewerCheck: the runner never made more RPCs than the baseline on the
// same seed; the text counts fewer, equal and more, and the reduction's
// spread over every configuration and seed.
func (st study) fewerCheck() check {
	var all []float64
	fewer, equal, more := 0, 0, 0
	for _, cs := range st.cfgs {
		for _, r := range cs.reduction(rpcs) {
			all = append(all, r)
			switch {
			case r > 0:
				fewer++
			case r == 0:
				equal++
			default:
				more++
			}
		}
	}
	sp := spreadOf(all)
	return check{holds: len(all) > 0 && more == 0, text: st.p.runner + " never made more Node.UpdateAlloc RPCs than " +
		st.p.baseline + " on the same seed: fewer on " + plainCount(fewer) + " of " + plainCount(len(all)) +
		" (configuration, seed) pairs, as many on " + plainCount(equal) + ", more on " + plainCount(more) +
		"; the reduction over all of them is " + fmtMinMedMax(sp) + " (min / median / max; per configuration below)"}
}
