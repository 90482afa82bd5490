package studycmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
)

// Summary is `conform study sync`'s line in `conform help`.
const Summary = "measure prioritized client updates against sending every tick (report with charts)"

const syncHelp = `Usage:
  conform study sync [--out FILE] [--grid NxM,...] [--seeds N] [--minutes D]
                     [--rpc-latency L] [--runner NAME] [--baseline NAME]
                     [--parallel N] [--allocsim DIR] [--quick]

The sync study of project issue 13. Each configuration NxM is N
simulated clients of M allocs each against one simulated server, with
a churn modelled on high-volume deployments (sim/cluster's Churn: jobs
of 1 to 5 allocs placed over the first minute; services, services with a
worker that exits and restarts, crashing services, batch jobs replaced
as they complete; new versions and stops later on) over D virtual
minutes, no faults. Every configuration runs seeds 1..N with the runner
(default: the reference runner, prioritized sync, SYNC-3) and with the
baseline (default: mutant/sync-no-priority, which sends whatever is
buffered on every 200 ms tick), on the same workload.

The report (FILE, Markdown; charts as SVG in FILE without .md) has, per
configuration and runner: Node.UpdateAlloc RPCs, server log entries and
bytes (the client updates' "Raft traffic"), RPCs per client per second,
and the latency from a ClientStatus change to the server receiving it
(p50, p99, max, virtual time); what a client cost to simulate (wall
time per client and virtual minute, against clients and allocs: the
one measured figure); the reduction against the baseline
(min/median/max over seeds); and three computed checks: typical-only
traffic at most 1 RPC per second per client (SYNC-5.2), urgent changes
seen within one tick plus the RPC latency (SYNC-5.1), never more RPCs
than the baseline on a seed. The same flags write the same report, but
for the measured cost.

The runs execute in a test binary built from the allocsim source with
go test -c (synctest bubbles exist only under testing, as for conform
run); progress goes to stderr, the report's path and the headline to
stdout. Most of the default grid's time goes to its two largest
configurations, 1000x50 and 100x500; --grid without them, or --quick,
takes minutes.

Flags:
`

const syncTail = `
Exit codes:
  0  the report was written
  1  the report could not be written
  2  bad usage: a bad grid, duration, latency or runner, extra arguments
  3  the tool itself failed: the test binary did not build, a run failed
     or reported nothing

Examples:
  # The study as reports/study-sync.md and reports/study-sync/*.svg
  conform study sync

  # Longer runs, five seeds, two configurations
  conform study sync --grid 10x50,100x50 --seeds 5 --minutes 10 --out /tmp/sync.md

  # Seconds: a tiny grid
  conform study sync --quick --out /tmp/quick.md
`

// Config is what `conform study sync` reads from its environment.
type Config struct {
	// Self is how the report's command line invokes conform (default
	// "conform").
	Self string
	// Exec runs the study's runs; nil runs them in the study's test
	// binary, built from the allocsim source (exec.go).
	Exec Executor
	// Now reads the wall clock for the progress lines on stderr (never
	// for the report); nil means time.Now.
	Now func() time.Time
}

// Executor runs every run of job and returns their summaries in job.Runs'
// order. An error is a failure of the tool, not of a runner.
type Executor func(ctx context.Context, job Job) ([]RunSummary, error)

// Job is what an Executor is given.
type Job struct {
	Runs []RunSpec
	// Parallel is how many runs may execute at once (at least 1).
	Parallel int
	// AllocsimDir is the allocsim source to build from (empty: found
	// from the working directory).
	AllocsimDir string
	// Log receives progress lines; Done is called (from one goroutine at
	// a time) with each run's index in Runs as it finishes.
	Log  io.Writer
	Done func(i int, s RunSummary)
}

// Run runs `conform study sync`.
func (c Config) Run(name string, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := newFlags(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, cli.FlagHelp(fs, syncHelp, syncTail))
	if err != nil || helped {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected arguments %q", fs.Args())
	}
	p, err := o.resolve(func(f string) bool { return cli.IsSet(fs, f) })
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sums, err := c.execute(ctx, p, stderr)
	if err != nil {
		return cli.Tool(err)
	}
	st := aggregate(p, sums)
	if err := writeReport(p, st, c.self()); err != nil {
		return err
	}
	return writeHeadline(stdout, p, st)
}

func (c Config) self() string {
	if c.Self == "" {
		return "conform"
	}
	return c.Self
}

// execute runs the plan with the configured executor, printing a line
// per finished run.
func (c Config) execute(ctx context.Context, p plan, stderr io.Writer) ([]RunSummary, error) {
	now := c.Now
	if now == nil {
		now = time.Now
	}
	runs := p.runs()
	parallel := p.parallel
	if parallel == 0 {
		parallel = runtime.NumCPU()
	}
	exec := c.Exec
	if exec == nil {
		exec = binaryExecutor
	}
	start := now()
	fmt.Fprintf(stderr, "study sync: %d runs (%d configurations x %d seeds x 2 runners, %s virtual each), %d at once\n",
		len(runs), len(p.configs), p.seeds, p.duration, parallel)
	done := 0
	sums, err := exec(ctx, Job{Runs: runs, Parallel: parallel, AllocsimDir: p.allocsim, Log: stderr,
		Done: func(i int, s RunSummary) {
			done++
			fmt.Fprintf(stderr, "study sync: %d/%d %s (%s)\n", done, len(runs), runs[i], now().Sub(start).Round(time.Second))
		}})
	if err != nil {
		return nil, fmt.Errorf("study sync: %w", err)
	}
	if len(sums) != len(runs) {
		return nil, fmt.Errorf("study sync: %d summaries for %d runs", len(sums), len(runs))
	}
	for i, s := range sums {
		if s.Err != "" {
			return nil, fmt.Errorf("study sync: run %s: %s", runs[i], s.Err)
		}
	}
	fmt.Fprintf(stderr, "study sync: done in %s\n", now().Sub(start).Round(time.Second))
	return sums, nil
}
