package studycmd

import (
	"cmp"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
)

// Defaults of the flags.
const (
	DefaultOut        = "reports/study-sync.md"
	DefaultGrid       = "1x10,1x50,1x200,1x500,10x10,10x50,10x200,100x10,100x50,1000x50,100x500"
	DefaultSeeds      = 3
	DefaultMinutes    = 5.0
	DefaultRPCLatency = 10 * time.Millisecond
	DefaultRunner     = "reference"
	DefaultBaseline   = runners.MutantPrefix + "sync-no-priority"

	// quickGrid, quickSeeds and quickMinutes are --quick's.
	quickGrid    = "1x10,2x10"
	quickSeeds   = 2
	quickMinutes = 1.0

	// Bounds of the grid.
	maxClients = 1000
	maxAllocs  = 5000
)

// options are the flags of `conform study sync`.
type options struct {
	out, grid, runner, baseline, allocsim string
	seeds, parallel                       int
	minutes                               float64
	rpcLatency                            time.Duration
	quick                                 bool
}

func newFlags(name string, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&o.out, "out", DefaultOut, "write the report to `FILE` and its charts to FILE without .md, a directory")
	fs.StringVar(&o.grid, "grid", DefaultGrid, "the configurations, comma-separated: `NxM,...` is N clients of M allocs each")
	fs.IntVar(&o.seeds, "seeds", DefaultSeeds, "run seeds 1..`N` of every configuration and runner")
	fs.Float64Var(&o.minutes, "minutes", DefaultMinutes, "each run's virtual duration `D` in minutes (rounded to whole seconds)")
	fs.DurationVar(&o.rpcLatency, "rpc-latency", DefaultRPCLatency, "the virtual latency `L` of every client RPC's request")
	fs.StringVar(&o.runner, "runner", DefaultRunner, "the built-in runner `NAME` studied (conform runners lists them)")
	fs.StringVar(&o.baseline, "baseline", DefaultBaseline, "the built-in runner `NAME` it is compared with")
	fs.IntVar(&o.parallel, "parallel", 0, "runs at once (`N`; 0: one per CPU)")
	fs.StringVar(&o.allocsim, "allocsim", "", "the allocsim module's source `DIR` the runs are built from (default: found with go list)")
	fs.BoolVar(&o.quick, "quick", false, "a tiny study: grid "+quickGrid+", 2 seeds, 1 minute, unless given (seconds, to try the command)")
	return fs
}

// config is one configuration of the grid.
type config struct{ Clients, Allocs int }

func (c config) String() string { return fmt.Sprintf("%dx%d", c.Clients, c.Allocs) }

// plan is a resolved study.
type plan struct {
	out, chartDir string
	configs       []config
	seeds         int
	duration      time.Duration
	rpcLatency    time.Duration
	runner        string
	baseline      string
	parallel      int
	allocsim      string
	defaultGrid   bool // the grid is DefaultGrid's
}

// resolve checks the flags; set reports whether a flag was given.
func (o options) resolve(set func(string) bool) (plan, error) {
	if o.quick {
		if !set("grid") {
			o.grid = quickGrid
		}
		if !set("seeds") {
			o.seeds = quickSeeds
		}
		if !set("minutes") {
			o.minutes = quickMinutes
		}
	}
	configs, err := parseGrid(o.grid)
	if err != nil {
		return plan{}, cli.Usagef("--grid %q: %w", o.grid, err)
	}
	d := time.Duration(o.minutes * float64(time.Minute)).Round(time.Second)
	switch {
	case o.seeds < 1:
		return plan{}, cli.Usagef("--seeds %d: want at least 1", o.seeds)
	case o.minutes != o.minutes || d < 10*time.Second || d > 24*time.Hour:
		return plan{}, cli.Usagef("--minutes %v: want 10 seconds (0.17) to 24 hours (1440)", o.minutes)
	case o.rpcLatency < 0 || o.rpcLatency > time.Second:
		return plan{}, cli.Usagef("--rpc-latency %v: want 0 to 1s", o.rpcLatency)
	case o.parallel < 0:
		return plan{}, cli.Usagef("--parallel %d: want 0 (one per CPU) or more", o.parallel)
	case o.out == "" || !strings.HasSuffix(o.out, ".md"):
		return plan{}, cli.Usagef("--out %q: want a Markdown file name ending in .md", o.out)
	}
	p := plan{out: o.out, chartDir: strings.TrimSuffix(o.out, ".md"), configs: configs, seeds: o.seeds,
		duration: d, rpcLatency: o.rpcLatency, parallel: o.parallel, allocsim: o.allocsim}
	if def, err := parseGrid(DefaultGrid); err == nil {
		p.defaultGrid = slices.Equal(def, configs)
	}
	for _, n := range []struct {
		flag string
		name *string
		dst  *string
	}{{"--runner", &o.runner, &p.runner}, {"--baseline", &o.baseline, &p.baseline}} {
		r, err := runners.Lookup(*n.name)
		if err != nil {
			return plan{}, cli.Usagef("%s: %w", n.flag, err)
		}
		*n.dst = r.Name
	}
	if p.runner == p.baseline {
		return plan{}, cli.Usagef("--runner and --baseline are both %s: compare two runners", p.runner)
	}
	return p, nil
}

// parseGrid reads NxM,... into sorted configurations without repeats.
func parseGrid(s string) ([]config, error) {
	var out []config
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		ns, ms, ok := strings.Cut(strings.ToLower(item), "x")
		n, errN := strconv.Atoi(ns)
		m, errM := strconv.Atoi(ms)
		switch {
		case !ok || errN != nil || errM != nil:
			return nil, fmt.Errorf("%q: want N clients x M allocs, e.g. 10x50", item)
		case n < 1 || n > maxClients:
			return nil, fmt.Errorf("%q: want 1 to %d clients", item, maxClients)
		case m < 1 || m > maxAllocs:
			return nil, fmt.Errorf("%q: want 1 to %d allocs per client", item, maxAllocs)
		}
		out = append(out, config{n, m})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no configuration")
	}
	slices.SortFunc(out, func(a, b config) int {
		return cmp.Or(cmp.Compare(a.Clients, b.Clients), cmp.Compare(a.Allocs, b.Allocs))
	})
	return slices.Compact(out), nil
}

// runs are the plan's runs, the costliest first (so parallel runs end
// together), then by configuration, seed and runner.
func (p plan) runs() []RunSpec {
	var out []RunSpec
	for _, c := range p.configs {
		for seed := 1; seed <= p.seeds; seed++ {
			for _, r := range []string{p.runner, p.baseline} {
				out = append(out, RunSpec{Runner: r, Clients: c.Clients, Allocs: c.Allocs, Seed: uint64(seed),
					Duration: p.duration, RPCLatency: p.rpcLatency})
			}
		}
	}
	cost := func(s RunSpec) int { return s.Clients * s.Allocs * (100 + s.Allocs) }
	slices.SortStableFunc(out, func(a, b RunSpec) int { return cmp.Compare(cost(b), cost(a)) })
	return out
}

// commandLine is the study's command line as the report prints it: the
// flags that shape it, in a fixed order (not --parallel or --allocsim,
// which do not change it).
func (p plan) commandLine(self string) string {
	grid := make([]string, len(p.configs))
	for i, c := range p.configs {
		grid[i] = c.String()
	}
	return fmt.Sprintf("%s study sync --grid %s --seeds %d --minutes %s --rpc-latency %s --runner %s --baseline %s --out %s",
		self, strings.Join(grid, ","), p.seeds, strconv.FormatFloat(p.duration.Minutes(), 'f', -1, 64), p.rpcLatency,
		p.runner, p.baseline, filepath.ToSlash(p.out))
}
