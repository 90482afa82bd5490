package sweepcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/suiterun"
	"github.com/allocsim/allocsim/reports"
)

// Summary is `conform sweep`'s line in `conform help`.
const Summary = "search a seed range for failures in resumable chunks, sharded across machines (summary file per shard)"

const sweepHelp = `Usage:
  conform sweep --runner NAME --seeds A..B [--shard i/n] [--chunk N]
                [--property ID ...] [--profile P] [--summary FILE]
                [--allocsim DIR] [--parallel N] [--rerun N] [--artifacts DIR]
  conform sweep --resume FILE [--chunk N] [--parallel N] [--rerun N]
                [--allocsim DIR]

A long seed search: every selected property of the runner checks the
scenarios of seeds A..B, in order, and a property stops at its first
failing seed (the other properties go on). The range is cut into shards
for several machines and each shard into chunks; after every batch the
summary FILE (JSON, replaced atomically) records which seeds each
property has checked, the failures with their replay commands, and the
totals, so an interrupted shard continues where it stopped with
--resume FILE. conform sweep merge combines the shards' summaries.

Shards: shard i of n is the contiguous slice
  A + floor((i-1)*N/n) .. A + floor(i*N/n) - 1,   N = B - A + 1,
so the n shards cover A..B exactly once and differ in size by at most
one seed. Chunk k of a shard starting at seed S is S + k*N' ..
S + (k+1)*N' - 1 (N' = --chunk), the last one cut at the shard's end.

Summary file: without --resume it is --summary FILE, else
sweep-<runner>-<A>-<B>-shard-<i>-of-<n>.json in the current directory;
an existing file is never overwritten (continue it with --resume).
--resume FILE continues FILE and writes it back; the flags it records
(runner, seeds, shard, profile, properties) may be left out, and those
given must match it.

Each chunk's seeds are checked in batches, a batch being some of the
properties still searched, run by one test process (a test binary built
from the allocsim source, as conform run does); --parallel processes run
at once (default: one more than the CPUs). A property is in one batch at
a time and takes its chunks in order, so it still stops at its first
failing seed, while no process waits for the others at a chunk's end.
A batch has a real-time budget large enough that it is not cut short; a
batch the budget does cut, or a suite error, stops the sweep (exit 3)
with what was done kept.

Determinism (DET-4): every --rerun-th check of a property (default 16)
runs twice and the two traces must be byte-identical. A search over
many seeds reruns fewer checks than conform run (one in four): 625 of
each property's in 10,000 seeds. A failing check is always rerun before
it is reported: every failure the report lists ran the same twice.

Progress goes to stderr, a line per batch and per new failure; stdout
gets the final report: seeds covered, gaps, every failure with the
command that replays it (conform replay --runner R --property ID
--seed S).

Flags:
`

const sweepTail = `
Exit codes:
  0  no failure found (the range may be incomplete if interrupted: see
     the report)
  1  a failure was found
  2  bad usage: a bad range or shard, an unknown runner, --resume of
     another sweep's summary, an existing summary without --resume
  3  the tool itself failed (the suite did not build or report, a chunk
     was cut short) or it was interrupted; the summary keeps what was
     done, continue with --resume FILE

Examples:
  # Search seeds 1..100000 of the reference runner on one machine
  conform sweep --runner reference --seeds 1..100000

  # Four machines, each its own quarter; then combine the summaries
  conform sweep --runner mutant/sched-utc --seeds 1..40000 --shard 3/4 --summary shard-3.json
  conform sweep --resume shard-3.json          # after an interruption
  conform sweep merge --out sweep.json shard-1.json shard-2.json shard-3.json shard-4.json

  # One property, small chunks
  conform sweep --runner reference --seeds 1..5000 --property SCHED-5/inside-windows-only --chunk 50

Job files that run one shard per Nomad dispatch or per CI matrix entry:
fixtures/jobs/sweep.nomad.hcl, fixtures/ci/sweep.github-actions.yml.
`

// chunkBudget is each chunk's real-time budget: generous, so the suite's
// default budget (4 minutes per run) never cuts a chunk short, and below
// the test process's own timeout (an hour), so a chunk that is too long
// ends as a truncated property (reported) rather than a killed process.
const chunkBudget = 50 * time.Minute

// Config is what `conform sweep` and `conform sweep merge` read from
// their environment.
type Config struct {
	// Self is how printed commands invoke conform ("conform", "go run
	// ./cmd/conform").
	Self string
}

func (c Config) self() string {
	if c.Self == "" {
		return "conform"
	}
	return c.Self
}

// errFailures is exit code 1: the summary above lists the failures.
var errFailures = cli.Verbatim(errors.New("conform sweep: failures found (replay commands above)"))

// Run runs `conform sweep`.
func (c Config) Run(name string, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := newFlags(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, cli.FlagHelp(fs, sweepHelp, sweepTail))
	if err != nil || helped {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected arguments %q (did you mean %s merge?)", fs.Args(), name)
	}
	o.set = func(flagName string) bool { return cli.IsSet(fs, flagName) }
	t, err := o.resolve()
	if err != nil {
		return err
	}
	if err := writeSummary(t.path, t.file); err != nil {
		return cli.Tool(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	runErr := c.sweep(ctx, t, o, stderr)
	if err := writeReport(stdout, t.file, c.self(), t.path); err != nil {
		return err
	}
	if runErr != nil {
		return runErr
	}
	if len(t.file.Failures) > 0 {
		return errFailures
	}
	if len(t.file.Gaps) == 0 && len(t.file.never()) > 0 {
		return errUnreached
	}
	return nil
}

// errUnreached is exit code 1 too: the whole range ran and some check
// could never fire (the report lists the situations never reached).
var errUnreached = cli.Verbatim(errors.New("conform sweep: situations never reached (listed above): the suite cannot fail there"))

// sweeper runs batches: a batch is some of the searching properties
// over the seeds of one chunk, one test process. Each worker takes the
// next batch (take) under the lock, checks it with the suite, records
// the results and rewrites the summary. A property is in at most one
// batch at a time, so it still checks its seeds in order and stops at
// its first failing seed, yet no worker waits for another's batch to
// end: the processes stay busy to the last batch instead of idling at
// every chunk's end while its slowest shard finishes (about a fifth of
// a sweep's wall time on 2 CPUs with one chunk at a time).
type sweeper struct {
	c       Config
	t       target
	plan    suiterun.Plan
	size    uint64
	workers int
	stderr  io.Writer
	start   time.Time
	// run checks a plan: suiterun.Run (a test's fake suite).
	run func(context.Context, suiterun.Plan) (reports.Run, error)

	mu       sync.Mutex
	changed  *sync.Cond      // a batch ended or the sweep stopped
	busy     map[string]bool // the properties of the batches being checked
	learning bool            // the first batch, which learns the properties, runs
	errs     []error
}

// batchesPerWorker is how many batches a chunk's searching properties
// are cut into per worker: more than one, so that a worker whose batch
// ends finds one still to take while costly properties (tenfold the
// cheap ones) are checked elsewhere.
const batchesPerWorker = 2

// sweep checks what is left of t's shard, o.parallel test processes at
// a time.
func (c Config) sweep(ctx context.Context, t target, o options, stderr io.Writer) error {
	f := t.file
	scope := f.scope()
	fmt.Fprintf(stderr, "sweep %s (profile %s) seeds %s, shard %s: seeds %s (%d), chunks of %d, properties %s; DET-4 reruns one check in %d\n",
		f.Runner, f.Profile, f.Seeds, f.Shard, scope, scope.Len(), o.chunk, selectionText(f.Selection), o.rerun)
	fmt.Fprintf(stderr, "summary: %s\n", t.path)
	if t.resumed {
		fmt.Fprintf(stderr, "resuming: %d of %d seeds covered, %d failure%s so far\n",
			f.Totals.Covered, f.Totals.Seeds, len(f.Failures), plural(len(f.Failures), "", "s"))
	}
	if _, ok := f.next(scope.From, o.chunk); !ok {
		fmt.Fprintln(stderr, "nothing left to do")
		return nil
	}
	artifacts, cleanup, err := artifactDir(o.artifacts)
	if err != nil {
		return cli.Tool(err)
	}
	defer cleanup()
	bins, err := suiterun.NewBinaries()
	if err != nil {
		return cli.Tool(err)
	}
	defer bins.Close()
	s := &sweeper{c: c, t: t, size: o.chunk, workers: o.workers(), stderr: stderr, start: time.Now(),
		plan: suiterun.Plan{
			Targets:    []suiterun.Target{{Name: f.Runner, Builtin: true, Profile: f.Profile}},
			Properties: f.Selection,
			Budget:     chunkBudget,
			Rerun:      o.rerun,
			// A batch is one test process (its properties are listed,
			// Parallel 1: suiterun does not split it); only the first
			// batch of a new sweep, the whole selection before the
			// summary knows its properties, is split across the workers
			// (suiterun's split runs one process more than Parallel).
			Parallel:    1,
			ArtifactDir: artifacts,
			AllocsimDir: o.allocsim,
			Binaries:    bins, // built once, for every batch
		}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := s.runAll(ctx, cancel); err != nil {
		if cli.IsUsage(err) {
			return err
		}
		return cli.Tool(fmt.Errorf("%w\nthe summary keeps what was done: continue with --resume %s", err, t.path))
	}
	if _, left := f.next(scope.From, o.chunk); left && ctx.Err() != nil {
		return cli.Tool(fmt.Errorf("interrupted: continue with --resume %s", t.path))
	}
	return nil
}

// runAll runs s.workers workers until no batch is left or the sweep
// stops (stop cancels ctx), and returns the errors of the batches.
func (s *sweeper) runAll(ctx context.Context, stop func()) error {
	s.changed = sync.NewCond(&s.mu)
	s.busy = map[string]bool{}
	if s.run == nil {
		s.run = suiterun.Run
	}
	defer context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.changed.Broadcast()
	})()
	var wg sync.WaitGroup
	for range s.workers {
		wg.Go(func() { s.work(ctx, stop) })
	}
	wg.Wait()
	return errors.Join(s.errs...)
}

// work checks batches until none is left or the sweep stops.
func (s *sweeper) work(ctx context.Context, stop func()) {
	for {
		w, ok := s.take(ctx)
		if !ok {
			return
		}
		err := s.check(ctx, w)
		s.release(w, err)
		if err != nil {
			stop()
			return
		}
	}
}

// take returns the next batch, waiting while the first batch learns the
// properties or while every property with work left is in a batch being
// checked. False: nothing is left, or the sweep stops.
func (s *sweeper) take(ctx context.Context) (work, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.t.file
	for {
		if ctx.Err() != nil || len(s.errs) > 0 {
			return work{}, false
		}
		if !s.learning {
			if len(f.Properties) == 0 {
				w, ok := f.next(f.scope().From, s.size)
				if ok {
					s.learning = true
				}
				return w, ok
			}
			most := (len(f.searching()) + s.workers*batchesPerWorker - 1) / (s.workers * batchesPerWorker)
			if w, ok := f.nextOf(f.scope().From, s.size, func(id string) bool { return !s.busy[id] }, most); ok {
				for _, id := range w.Properties {
					s.busy[id] = true
				}
				return w, true
			}
			if len(s.busy) == 0 {
				return work{}, false
			}
		}
		s.changed.Wait()
	}
}

// release marks w's properties free again (its results are recorded),
// keeps err, the batch's error, in the same critical section, so that no
// waiting worker takes another batch after a failed one, and wakes the
// workers waiting for work. A batch cut by the stop (another batch's
// error, an interrupt) has no error of its own.
func (s *sweeper) release(w work, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil && !errors.Is(err, context.Canceled) {
		s.errs = append(s.errs, err)
	}
	if w.Properties == nil {
		s.learning = false
	}
	for _, id := range w.Properties {
		delete(s.busy, id)
	}
	s.changed.Broadcast()
}

// check runs the suite on one batch and records what it found.
func (s *sweeper) check(ctx context.Context, w work) error {
	plan := s.plan
	plan.SeedsFrom, plan.SeedsTo = w.Seeds.From, w.Seeds.To
	if w.Properties != nil {
		plan.Properties = w.Properties
	} else {
		plan.Parallel = max(s.workers-1, 1)
	}
	s.progress("chunk %s: checking %s\n", w.Seeds, w.what())
	began := time.Now()
	run, err := s.run(ctx, plan)
	if suiterun.IsUsage(err) {
		return cli.Usage(err)
	}
	if err == nil && len(run.Runners) != 1 {
		err = fmt.Errorf("the suite reported %d runners, want 1", len(run.Runners))
	}
	if err != nil {
		return fmt.Errorf("chunk %s: %w", w.Seeds, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.t.file
	fresh, recErr := f.record(w, run.Runners[0].Properties, s.replay)
	if err := writeSummary(s.t.path, f); err != nil {
		return err
	}
	fmt.Fprintf(s.stderr, "chunk %s: done in %s; covered %d of %d seeds, %d failure%s (%s since start)\n",
		w.Seeds, time.Since(began).Round(time.Millisecond), f.Totals.Covered, f.Totals.Seeds,
		len(f.Failures), plural(len(f.Failures), "", "s"), time.Since(s.start).Round(time.Second))
	for _, x := range fresh {
		fmt.Fprintf(s.stderr, "  FAIL %s seed %d: %s\n", x.Property, x.Seed, x.Violation)
	}
	if recErr != nil {
		return fmt.Errorf("chunk %s incomplete: %w", w.Seeds, recErr)
	}
	return nil
}

func (s *sweeper) progress(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.stderr, format, args...)
}

// replay is the conform replay command of one failing seed.
func (s *sweeper) replay(id string, seed uint64) string {
	return replayCommand(s.c.self(), s.t.file.Runner, s.t.file.Profile, s.t.runner.Profile, id, seed)
}

// replayCommand names the profile only when it is not the runner's own.
func replayCommand(self, runner, profile, runnerProfile, id string, seed uint64) string {
	cmd := fmt.Sprintf("%s replay --runner %s", self, runner)
	if profile != runnerProfile {
		cmd += " --profile " + profile
	}
	return fmt.Sprintf("%s --property %s --seed %d", cmd, id, seed)
}

// artifactDir is dir (made absolute), or a temporary directory that
// cleanup removes.
func artifactDir(dir string) (string, func(), error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "conform-sweep-")
		if err != nil {
			return "", nil, fmt.Errorf("artifact directory: %w", err)
		}
		return tmp, func() { _ = os.RemoveAll(tmp) }, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, fmt.Errorf("artifact directory: %w", err)
	}
	return abs, func() {}, nil
}
