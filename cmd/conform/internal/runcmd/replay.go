package runcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/suiterun"
	"github.com/allocsim/allocsim/reports"
	"github.com/allocsim/allocsim/reports/timeline"
)

// ReplaySummary is `conform replay`'s line in `conform help`.
const ReplaySummary = "re-run one seed of one property and print its timeline (what a failure's replay command runs)"

const replayHelp = `Usage:
  conform replay (--runner NAME | --pkg IMPORTPATH [--factory NAME])
                 --property ID --seed S [--profile P] [--trace FILE]
                 [--html FILE] [--allocsim DIR]

Re-runs seed S of property ID (SCHED-5/inside-windows-only) against the
runner and prints the run's compact timeline: virtual time (UTC, and the
offset from the start) with the task's local time, task states, task
events, pause states, RPCs, faults, client crashes. If the seed fails, the
failure follows: the violation, the seed and the shrunk scenario. The same
command prints the same output every time (runs are deterministic), and the
replay command a failure of conform run prints is this command.

Flags:
`

const replayTail = `
Exit codes:
  0  the seed passes
  1  the seed fails the property (the failure is printed)
  2  bad usage (an unknown runner, a property not in the runner's profile)
  3  the tool itself failed
`

// Replay runs `conform replay`.
func (c Config) Replay(name string, args []string, stdout, stderr io.Writer) error {
	var sel selection
	var property, traceFile, htmlFile, allocsim string
	var seed uint64
	var runner string
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&runner, "runner", "", "built-in runner `NAME` (conform runners lists them)")
	fs.StringVar(&sel.pkg, "pkg", "", "`IMPORTPATH` of a runner package in another module")
	fs.StringVar(&sel.factory, "factory", "Factory", "the package's exported factory `NAME`")
	fs.StringVar(&sel.profile, "profile", "", "suite `profile` (default: the runner's own)")
	fs.StringVar(&property, "property", "", "the property `ID`, as a failure names it")
	fs.Uint64Var(&seed, "seed", 0, "the `seed`, as a failure prints it")
	fs.StringVar(&traceFile, "trace", "", "also write the run's trace (JSON lines) to `FILE`")
	fs.StringVar(&htmlFile, "html", "", "also write an HTML page with the run's SVG timeline to `FILE`")
	fs.StringVar(&allocsim, "allocsim", "", "the allocsim module's source `DIR` (default: found with go list)")
	helped, err := cli.ParseFlags(fs, args, stdout, cli.FlagHelp(fs, replayHelp, replayTail))
	if err != nil || helped {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return cli.Usagef("unexpected arguments %q", fs.Args())
	case (runner == "") == (sel.pkg == ""):
		return cli.Usagef("name one runner: --runner NAME or --pkg IMPORTPATH")
	case runner == groupAll || runner == groupMutants:
		return cli.Usagef("--runner %s is a group; replay one runner", runner)
	case property == "" || !strings.Contains(property, "/"):
		return cli.Usagef("--property: want a property ID such as SCHED-5/inside-windows-only, got %q", property)
	case seed == 0:
		return cli.Usagef("--seed: want the failure's seed (a positive integer)")
	}
	if runner != "" {
		sel.runners = []string{runner}
	}
	targets, err := sel.targets()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "conform-replay-")
	if err != nil {
		return cli.Tool(fmt.Errorf("temporary directory: %w", err))
	}
	defer os.RemoveAll(dir)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	plan := suiterun.Plan{Targets: targets[:1], Properties: []string{property}, Seed: seed, Checks: 1,
		Parallel: 1, ArtifactDir: dir, AllocsimDir: allocsim}
	run, err := suiterun.Run(ctx, plan)
	if suiterun.IsUsage(err) {
		return cli.Usage(err)
	}
	if err != nil {
		return cli.Tool(err)
	}
	r := run.Runners[0]
	p, ok := findProperty(r, property)
	switch {
	case !ok:
		return cli.Usagef("no property %q (conform run lists property IDs in its failures)", property)
	case p.Status == reports.NotApplicable:
		return cli.Usagef("property %s is not in runner %s's profile %s", property, r.Name, r.Profile)
	case p.Status == reports.Error:
		return cli.Tool(fmt.Errorf("suite error on %s: %s", property, p.Message))
	}
	base := filepath.Join(dir, suiterun.Slug(r.Name), artifactName(property, seed))
	fmt.Fprintf(stdout, "replay %s %s seed %d: %s\n", r.Name, p.ID, seed, strings.ToUpper(string(p.Status)))
	tl, err := timeline.Load(base+".trace.jsonl", base+".scenario.json")
	switch {
	case err != nil && p.Status == reports.Fail:
		// The test binary died in the run (a runner's own goroutine
		// panicked): there is no trace to show.
		fmt.Fprintln(stdout, "(no timeline: the run ended the test binary before its trace was written)")
		if p.Message != "" {
			fmt.Fprintf(stdout, "--- what the test binary printed\n%s\n", p.Message)
		}
	case err != nil:
		return cli.Tool(fmt.Errorf("the replay's trace: %w", err))
	default:
		if at, ok := timeline.ViolationAt(p.Violation); ok {
			tl.Mark(at, p.Violation)
		}
		if err := tl.WriteText(stdout); err != nil {
			return fmt.Errorf("write timeline: %w", err)
		}
	}
	if p.Status == reports.Fail {
		fmt.Fprintf(stdout, "\n--- violation\n%s\n", p.Violation)
		if p.Scenario != "" {
			fmt.Fprintf(stdout, "--- %s\n", p.Scenario)
		}
	}
	if traceFile != "" && tl != nil {
		if err := copyFile(base+".trace.jsonl", traceFile); err != nil {
			return err
		}
	}
	if htmlFile != "" && tl != nil {
		p.Timeline = tl
		p.Artifacts = nil
		r.Properties = []reports.Property{p}
		page := reports.Run{Suite: "allocsim", Runners: []reports.Runner{r}}
		if err := writeFile(htmlFile, page, reports.WriteHTML); err != nil {
			return err
		}
	}
	if p.Status == reports.Fail {
		return errReplayFails
	}
	return nil
}

var errReplayFails = cli.Verbatim(errors.New("conform replay: the seed fails the property"))

// findProperty is r's result for property id.
func findProperty(r reports.Runner, id string) (reports.Property, bool) {
	for _, p := range r.Properties {
		if p.ID == id {
			return p, true
		}
	}
	return reports.Property{}, false
}

// copyFile copies src to dst.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("read trace: %w", err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return fmt.Errorf("write trace: %w", err)
	}
	return nil
}
