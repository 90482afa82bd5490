package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// Exit codes.
const (
	exitOK     = 0 // every selected benchmark ran or does not exist in the tree
	exitFailed = 1 // a benchmark failed, or benchstat did; the files are written
	exitUsage  = 2 // bad flags, or the tool could not run at all
)

// options are the command's flags.
type options struct {
	out, dir, benchtime, note string
	only                      *regexp.Regexp
	count                     int
	timeout                   time.Duration
}

// parseFlags parses args; on -help it prints the usage to stdout and
// returns exit code 0, on a bad flag the error and usage to stderr and 2.
func parseFlags(args []string, stdout, stderr io.Writer) (options, int, bool) {
	var o options
	var msgs bytes.Buffer
	fl := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	fl.SetOutput(&msgs)
	fl.StringVar(&o.out, "out", "reports/bench", "write the raw output and README.md to `DIR`")
	fl.StringVar(&o.dir, "dir", ".", "measure the module rooted at `DIR` (another checkout, a git worktree of an older commit)")
	fl.IntVar(&o.count, "count", 1, "run each benchmark `N` times, each in a process of its own; the table shows medians")
	fl.StringVar(&o.benchtime, "benchtime", "1x", "go test -benchtime: `Nx` iterations, or a duration")
	only := fl.String("only", "", "run only the benchmarks whose name matches `REGEX` (Floor runs too when a simulator benchmark does)")
	fl.StringVar(&o.note, "note", "", "say what was measured (a baseline's adapted benchmarks, say) in `TEXT`, in the raw file and README")
	fl.DurationVar(&o.timeout, "timeout", 30*time.Minute, "give each benchmark process at most `D` (go test -timeout)")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: %s [flags]\n\n"+
			"Runs allocsim's benchmarks of issue 13, one process each, and writes DIR/<date>-<commit>.txt\n"+
			"(raw go test -bench output) and DIR/README.md (table, targets, benchstat against the previous run).\n\n",
			reproduce)
		fl.PrintDefaults()
	}
	fail := func(format string, a ...any) (options, int, bool) {
		fmt.Fprintf(stderr, "benchreport: "+format+"\n", a...)
		fmt.Fprintf(stderr, "run %s -help for the flags\n", reproduce)
		return options{}, exitUsage, false
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			_, _ = stdout.Write(msgs.Bytes())
			return options{}, exitOK, false
		}
		_, _ = stderr.Write(msgs.Bytes())
		return options{}, exitUsage, false
	}
	if fl.NArg() > 0 {
		return fail("unexpected arguments %q: the command takes flags only", fl.Args())
	}
	if o.count < 1 {
		return fail("-count %d: want at least 1", o.count)
	}
	if err := checkBenchtime(o.benchtime); err != nil {
		return fail("%v", err)
	}
	if o.timeout <= 0 {
		return fail("-timeout %v: want a positive duration", o.timeout)
	}
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			return fail("-only %q: %v", *only, err)
		}
		o.only = re
	}
	return o, exitOK, true
}

// checkBenchtime accepts what go test's -benchtime does: Nx with N ≥ 1,
// or a positive duration.
func checkBenchtime(s string) error {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		if v, err := strconv.Atoi(n); err != nil || v < 1 {
			return fmt.Errorf("-benchtime %q: want Nx with N ≥ 1, or a duration", s)
		}
		return nil
	}
	if d, err := time.ParseDuration(s); err != nil || d <= 0 {
		return fmt.Errorf("-benchtime %q: want Nx with N ≥ 1, or a positive duration", s)
	}
	return nil
}

// run is main without the exit.
func run(args []string, stdout, stderr io.Writer) int {
	o, code, ok := parseFlags(args, stdout, stderr)
	if !ok {
		return code
	}
	sel, floorAdded := selectBenchmarks(Benchmarks, o.only)
	if len(sel) == 0 {
		var names []string
		for _, b := range Benchmarks {
			names = append(names, b.Name)
		}
		fmt.Fprintf(stderr, "benchreport: -only %q matches no benchmark of %s\n", o.only, strings.Join(names, ", "))
		return exitUsage
	}
	r, err := measure(o, sel, floorAdded, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "benchreport: %v\n", err)
		return exitUsage
	}
	code = exitOK
	for _, m := range r.Measurements {
		if m.Status == Failed {
			fmt.Fprintf(stderr, "benchreport: %s failed: %s\n", m.Bench.Name, m.Note)
			code = exitFailed
		}
	}
	if r.BenchstatErr != "" {
		fmt.Fprintf(stderr, "benchreport: %s\n", r.BenchstatErr)
		code = exitFailed
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(o.out, r.File), filepath.Join(o.out, "README.md"))
	for _, oc := range CheckTargets(Targets, Rows(r)) {
		fmt.Fprintf(stdout, "%-12s %s: %s\n", oc.Verdict, oc.Goal, oc.Measured)
	}
	return code
}

// measure runs the selected benchmarks of o.dir and writes the raw
// output and the README to o.out; the error is the tool's, not a
// benchmark's.
func measure(o options, sel []Benchmark, floorAdded bool, log io.Writer) (Run, error) {
	dir, err := filepath.Abs(o.dir)
	if err != nil {
		return Run{}, fmt.Errorf("-dir %s: %w", o.dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return Run{}, fmt.Errorf("-dir %s is not a module root (no go.mod): run from the module root or pass -dir", dir)
	}
	out, err := filepath.Abs(o.out)
	if err != nil {
		return Run{}, fmt.Errorf("-out %s: %w", o.out, err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return Run{}, fmt.Errorf("create -out directory: %w", err)
	}
	commit, modified, err := commitOf(dir, out)
	if err != nil {
		return Run{}, fmt.Errorf("read the commit measured: %w", err)
	}
	tmp, err := os.MkdirTemp("", "benchreport-")
	if err != nil {
		return Run{}, fmt.Errorf("create a directory for test binaries: %w", err)
	}
	defer os.RemoveAll(tmp)

	run := Run{Date: time.Now().UTC(), Commit: commit, Modified: modified, Machine: readMachine(dir),
		LoadBefore: readLoad(), Count: o.count, Benchtime: o.benchtime, FloorAdded: floorAdded, Note: o.note}
	rn := &runner{dir: dir, tmp: tmp, count: o.count, benchtime: o.benchtime, timeout: o.timeout, log: log}
	for _, b := range sel {
		run.Measurements = append(run.Measurements, rn.run(b))
	}
	run.LoadAfter = readLoad()

	run.File = rawName(out, run.Date, commit)
	if err := os.WriteFile(filepath.Join(out, run.File), []byte(RawText(run)), 0o644); err != nil {
		return Run{}, fmt.Errorf("write the raw output: %w", err)
	}
	run.Previous, run.PreviousCommitted, err = previousRun(out, run.File)
	if err != nil {
		return Run{}, err
	}
	if run.Previous != "" {
		run.PreviousLoad = previousLoad(filepath.Join(out, run.Previous))
		run.Benchstat, err = runBenchstat(out, run.Previous, run.File)
		if err != nil {
			run.BenchstatErr = err.Error()
		}
	}
	if err := os.WriteFile(filepath.Join(out, "README.md"), []byte(Render(run)), 0o644); err != nil {
		return Run{}, fmt.Errorf("write README.md: %w", err)
	}
	return run, nil
}
