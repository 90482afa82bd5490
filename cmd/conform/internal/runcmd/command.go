package runcmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/cmd/conform/internal/suiterun"
	"github.com/allocsim/allocsim/reports"
)

// Summary is the command's line in `conform help`.
const Summary = "check runners against the conformance suite (progress, matrix, failures with replay commands, reports)"

const help = `Usage:
  conform run [--runner NAME ...] [--pkg IMPORTPATH [--factory NAME]]
              [--profile full|client-communication] [--checks N] [--seed S]
              [--property ID ...] [--parallel N] [--shard i/n] [--budget D]
              [--report DIR] [--junit FILE] [--json FILE] [--artifacts DIR]
              [--expect-fail] [--allocsim DIR]

Runs the conformance suite against each runner (through go test -json: the
suite's simulations need the testing package), shows progress (a status
line on a terminal, a line per property otherwise, on stderr), then prints
the conformance matrix (runner x SPEC area: pass, FAIL, n/a for properties
outside the runner's profile, - for areas not run) and, for every failure,
the property, the violation, the seed, the shrunk scenario and a one-line
command that replays it.

Runners:
  --runner NAME     a built-in runner (conform runners lists them): reference,
                    minimal, mutant/<name>; repeatable or comma-separated.
                    Groups: "mutants" is every mutant, each checked on the
                    SPEC rules it breaks and expected to fail; "all" is the
                    reference and minimal runners (expected to conform) and
                    every mutant.
  --pkg IMPORTPATH  a runner in a package of another module (or a directory,
                    from the current one): conform generates a module with
                    one test calling properties.Run with its factory, and
                    runs it. The package's module must require allocsim.
  --factory NAME    the package's exported factory: an interfaces.Factory, a
                    func() interfaces.Factory, or an alloc runner
                    constructor (run on the reference node client).
                    Default: Factory.

Flags:
`

const helpTail = `
Exit codes:
  0  every runner met its expectation (conformed; with --expect-fail or in a
     group, a mutant failed)
  1  a runner did not
  2  bad usage
  3  the tool itself failed (a runner's test did not build, the suite
     reported nothing); the results so far are still printed

Examples:
  conform run --runner reference
  conform run --runner mutant/sched-utc
  conform run --runner all --report reports/latest
  conform run --pkg ./examples/noderunner --factory New --profile client-communication
`

// Config is what `conform run` reads from its environment.
type Config struct {
	// Self is how printed commands invoke conform ("conform", "go run
	// ./cmd/conform").
	Self string
	// Terminal reports whether w is a terminal (progress is drawn in
	// place there).
	Terminal func(w io.Writer) bool
	// Now is real time, for the elapsed time on progress lines.
	Now func() time.Time
}

// options are `conform run`'s parsed flags.
type options struct {
	sel        selection
	checks     int
	seed       uint64
	properties cli.ListFlag
	parallel   int
	shard      string
	budget     time.Duration
	reportDir  string
	junit      string
	jsonFile   string
	artifacts  string
	allocsim   string
	profileSet bool
	factorySet bool
}

func (c Config) flags(name string, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Var((*cli.ListFlag)(&o.sel.runners), "runner", "built-in runner `NAME` or group (all, mutants); repeatable")
	fs.StringVar(&o.sel.pkg, "pkg", "", "`IMPORTPATH` of a runner package in another module")
	fs.StringVar(&o.sel.factory, "factory", "Factory", "the package's exported factory `NAME`")
	fs.StringVar(&o.sel.profile, "profile", "", "suite `profile`: full or client-communication (default: the runner's own; full for --pkg)")
	fs.IntVar(&o.checks, "checks", 0, "scenarios per property (default: the suite's, 12)")
	fs.Uint64Var(&o.seed, "seed", 0, "replay this `seed` of each selected property")
	fs.Var(&o.properties, "property", "only this property `ID` or SPEC ID (SCHED-5, SCHED-5/inside-windows-only); repeatable")
	fs.IntVar(&o.parallel, "parallel", 0, "test processes at once: runners, or shards of a lone runner's suite (default: the number of CPUs)")
	fs.StringVar(&o.shard, "shard", "", "run shard `i/n` of each runner's properties")
	fs.DurationVar(&o.budget, "budget", 0, "real-time budget per runner (default: the suite's, 4m)")
	fs.StringVar(&o.reportDir, "report", "", "write report.md, report.html, report.json, junit.xml and the failures' artifacts into `DIR`")
	fs.StringVar(&o.junit, "junit", "", "write JUnit XML to `FILE`")
	fs.StringVar(&o.jsonFile, "json", "", "write the results as JSON to `FILE`")
	fs.StringVar(&o.artifacts, "artifacts", "", "keep failing runs' traces and scenarios in `DIR` (default: DIR/artifacts of --report, else a new temporary directory)")
	fs.BoolVar(&o.sel.expectFail, "expect-fail", false, "the named runners (and --pkg) meet their expectation by failing (mutants)")
	fs.StringVar(&o.allocsim, "allocsim", "", "the allocsim module's source `DIR` the built-in runners are built from (default: found with go list)")
	return fs
}

// Run runs `conform run`.
func (c Config) Run(name string, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := c.flags(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, cli.FlagHelp(fs, help, helpTail))
	if err != nil || helped {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected arguments %q (runners are named with --runner or --pkg)", fs.Args())
	}
	o.profileSet = cli.IsSet(fs, "profile")
	o.factorySet = cli.IsSet(fs, "factory")
	plan, err := o.plan()
	if err != nil {
		return err
	}
	return c.execute(plan, o, stdout, stderr)
}

// plan checks the options and builds the suiterun plan (ArtifactDir may
// still be empty).
func (o *options) plan() (suiterun.Plan, error) {
	var plan suiterun.Plan
	if o.sel.profile != "" && !slices.Contains(runners.Profiles(), o.sel.profile) {
		return plan, cli.Usagef("--profile %q: want full or client-communication", o.sel.profile)
	}
	if o.parallel == 0 {
		o.parallel = runtime.NumCPU()
	}
	if o.checks < 0 || o.parallel < 1 || o.budget < 0 {
		return plan, cli.Usagef("--checks, --parallel and --budget must be positive")
	}
	if o.sel.pkg == "" && o.factorySet {
		return plan, cli.Usagef("--factory names a factory of --pkg")
	}
	targets, err := o.sel.targets()
	if err != nil {
		return plan, err
	}
	plan = suiterun.Plan{Targets: targets, Properties: o.properties, Checks: o.checks, Seed: o.seed,
		Budget: o.budget, Parallel: o.parallel, AllocsimDir: o.allocsim}
	if o.shard != "" {
		i, n, err := cli.ParseShard(o.shard)
		if err != nil {
			return plan, cli.Usagef("--shard %q: %w", o.shard, err)
		}
		plan.Shard, plan.Shards = i, n
	}
	return plan, nil
}

// execute runs plan and reports the outcome.
func (c Config) execute(plan suiterun.Plan, o options, stdout, stderr io.Writer) error {
	plan.ArtifactDir = o.artifacts
	tempArtifacts := false
	switch {
	case plan.ArtifactDir != "":
	case o.reportDir != "":
		plan.ArtifactDir = filepath.Join(o.reportDir, "artifacts")
	default:
		dir, err := os.MkdirTemp("", "conform-artifacts-")
		if err != nil {
			return cli.Tool(fmt.Errorf("artifact directory: %w", err))
		}
		plan.ArtifactDir, tempArtifacts = dir, true
	}
	if abs, err := filepath.Abs(plan.ArtifactDir); err == nil {
		plan.ArtifactDir = abs
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(stderr, c.Terminal != nil && c.Terminal(stderr), c.now(), len(plan.Targets))
	plan.Progress = prog.event
	run, runErr := suiterun.Run(ctx, plan)
	prog.finish()
	if suiterun.IsUsage(runErr) {
		return cli.Usage(runErr)
	}
	c.setReplays(&run, plan, o.profileSet)
	if reported(run) {
		if err := writeSummary(stdout, run); err != nil {
			return err
		}
	}
	if err := writeReports(run, o, plan.ArtifactDir); err != nil {
		return cli.Tool(err)
	}
	failures := 0
	for _, r := range run.Runners {
		failures += len(r.Failures())
	}
	if tempArtifacts {
		if entries, _ := os.ReadDir(plan.ArtifactDir); failures == 0 || !hasFiles(plan.ArtifactDir, entries) {
			os.RemoveAll(plan.ArtifactDir)
		} else {
			fmt.Fprintf(stdout, "Traces and scenarios of the failing runs: %s\n", plan.ArtifactDir)
		}
	}
	if o.reportDir != "" {
		fmt.Fprintf(stdout, "Reports: %s\n", filepath.Join(o.reportDir, "report.html"))
	}
	if runErr != nil {
		return cli.Tool(runErr)
	}
	if !run.OK() {
		return errNotAsExpected
	}
	return nil
}

// hasFiles reports whether the artifact directory's runner directories
// hold any file.
func hasFiles(dir string, entries []os.DirEntry) bool {
	for _, e := range entries {
		if sub, err := os.ReadDir(filepath.Join(dir, e.Name())); err == nil && len(sub) > 0 {
			return true
		}
	}
	return false
}

// reported reports whether any runner has a result to show.
func reported(run reports.Run) bool {
	for _, r := range run.Runners {
		if len(r.Properties) > 0 {
			return true
		}
	}
	return false
}

// errNotAsExpected is exit code 1: the summary above says which runner.
var errNotAsExpected = cli.Verbatim(fmt.Errorf("conform run: a runner did not meet its expectation"))

func (c Config) now() func() time.Time {
	if c.Now != nil {
		return c.Now
	}
	return time.Now
}

// setReplays replaces each failure's go test replay with the conform
// replay command of the same seed (the go test one stays in Message).
func (c Config) setReplays(run *reports.Run, plan suiterun.Plan, profileSet bool) {
	self := c.Self
	if self == "" {
		self = "conform"
	}
	for i := range run.Runners {
		t := plan.Targets[i]
		t.Name = run.Runners[i].Name
		for j := range run.Runners[i].Properties {
			p := &run.Runners[i].Properties[j]
			if p.Status == reports.Fail && p.Seed != 0 {
				p.Replay = fmt.Sprintf("%s replay %s --property %s --seed %d", self, replayFlags(t, profileSet), p.ID, p.Seed)
			}
		}
	}
}
