package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/allocsim/allocsim/internal/testbin"
)

// Status is a mutant's verdict.
type Status string

const (
	Killed   Status = "killed"   // the suite failed
	Timeout  Status = "timeout"  // killed by the per-mutant time limit: counted as killed
	Survived Status = "survived" // the suite passed
	Invalid  Status = "invalid"  // the mutant does not compile: not counted
	Errored  Status = "error"    // the tool could not judge it (not counted, judged again on -resume)
	Pending  Status = "pending"  // not judged yet (an interrupted run; judged on -resume)
)

// judge runs the exported conformance suite, and nothing else, on the
// tree with an overlay: the test binary of pkg built with go test -c
// -overlay, then run from pkg's directory on the tests that call
// properties.Run with the built-in runners. It runs with -failfast: the
// first failing property (shrunk, then reported) is the verdict, and no
// further property is started, for a mutant that hangs every scenario
// would otherwise spend minutes shrinking each property's failure.
type judge struct {
	goCmd        string
	root         string        // the module's root
	pkg          string        // the suite's package, "./properties"
	tests        string        // -test.run
	checks       int           // -allocsim.checks; 0: the suite's default
	budget       time.Duration // -allocsim.budget
	timeout      time.Duration // real time a run may take before it is killed
	buildTimeout time.Duration
	race         bool // build with -race: a data race the detector reports fails the run
}

// testArgs are the test binary's flags.
func (j *judge) testArgs(artifacts string) []string {
	args := []string{"-test.run=" + j.tests, "-test.count=1", "-test.failfast", "-test.paniconexit0"}
	if j.checks > 0 {
		args = append(args, fmt.Sprintf("-allocsim.checks=%d", j.checks))
	}
	if j.budget > 0 {
		args = append(args, "-allocsim.budget="+j.budget.String())
	}
	if artifacts != "" {
		args = append(args, "-allocsim.artifacts="+artifacts)
	}
	return args
}

// Describe is the judge as the go test command it amounts to.
func (j *judge) Describe() string {
	s := fmt.Sprintf("go test -overlay=MUTANT.json %s -run '%s' -count=1 -failfast", j.pkg, j.tests)
	if j.race {
		s = strings.Replace(s, "go test ", "go test -race ", 1)
	}
	if j.checks > 0 {
		s += fmt.Sprintf(" -allocsim.checks=%d", j.checks)
	}
	if j.budget > 0 {
		s += " -allocsim.budget=" + j.budget.String()
	}
	return s
}

// Key is what makes two runs' verdicts comparable (-resume).
func (j *judge) Key() string {
	return fmt.Sprintf("%s -run %s checks=%d failfast", j.pkg, j.tests, j.checks)
}

// verdict is one judged build and run.
type verdict struct {
	Status Status
	By     []string // the failing tests (killed), leaves only
	Detail string   // the compile error (invalid), a crash line, why it errored
	Build  time.Duration
	Run    time.Duration
}

// errInterrupted is returned when ctx ended (the run was interrupted).
var errInterrupted = errors.New("interrupted")

// Judge builds the suite with overlayFile (none: the tree as it is) in
// workdir and runs it, through internal/testbin as every go test run of
// allocsim's tools. mutated is the module-relative file the overlay
// replaces: a build error that names another file is the tree's, not the
// mutant's (a concurrent edit), and reads as Errored.
func (j *judge) Judge(ctx context.Context, workdir, overlayFile, mutated string) (verdict, error) {
	flags := []string{"-vet=off"}
	if j.race {
		flags = append(flags, "-race")
	}
	if overlayFile != "" {
		flags = append(flags, "-overlay="+overlayFile)
	}
	bctx, cancel := context.WithTimeout(ctx, j.buildTimeout)
	defer cancel()
	start := time.Now()
	bin, err := testbin.Compile(bctx, testbin.Build{Go: j.goCmd, Dir: j.root, Pkg: j.pkg, Flags: flags,
		Out: filepath.Join(workdir, "suite.test")})
	v := verdict{Build: time.Since(start)}
	if ctx.Err() != nil {
		return v, errInterrupted
	}
	if err != nil {
		var goErr *testbin.GoError
		out := err.Error()
		if errors.As(err, &goErr) {
			out = goErr.Output
		}
		msg := firstLines(out, 3)
		if bctx.Err() != nil {
			v.Status, v.Detail = Errored, fmt.Sprintf("build took over %v", j.buildTimeout)
		} else if mutated != "" && strings.Contains(out, mutated+":") {
			v.Status, v.Detail = Invalid, msg
		} else {
			v.Status, v.Detail = Errored, "build failed: "+msg
		}
		return v, nil
	}
	defer os.Remove(bin.Path)
	artifacts := filepath.Join(workdir, "artifacts")
	defer os.RemoveAll(artifacts)
	rctx, rcancel := context.WithTimeout(ctx, j.timeout)
	defer rcancel()
	var sum output
	var lines testbin.Lines
	exit, runErr := bin.Run(rctx, j.testArgs(artifacts), func(event []byte) {
		for _, l := range lines.Event(event) {
			sum.read(l)
		}
	})
	v.Run = exit.Elapsed
	if ctx.Err() != nil {
		return v, errInterrupted
	}
	sum.read(lines.Rest())
	failed := leaves(sum.failed)
	var exitErr *exec.ExitError
	switch {
	case rctx.Err() != nil || sum.timedOut:
		v.Status, v.By = Timeout, failed
		v.Detail = fmt.Sprintf("still running after %v", j.timeout.Round(time.Second))
	case runErr != nil:
		v.Status, v.Detail = Errored, runErr.Error()
	case exit.Err == nil && sum.noTests:
		v.Status, v.Detail = Errored, "the test binary ran no tests (-test.run matches none)"
	case exit.Err == nil:
		v.Status = Survived
	case errors.As(exit.Err, &exitErr):
		v.Status, v.By, v.Detail = Killed, failed, sum.crash
		if len(v.By) == 0 && v.Detail == "" {
			v.Detail = exit.Err.Error()
		}
	default:
		v.Status, v.Detail = Errored, exit.Err.Error()
	}
	return v, nil
}

// output is what a test binary's output says.
type output struct {
	failed   []string // tests that failed, in order, parents too (leaves keeps the leaves)
	crash    string   // the first panic or fatal error line
	timedOut bool     // the binary's own -test.timeout fired
	noTests  bool
}

var failLine = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)

// read takes one line the binary printed.
func (o *output) read(line string) {
	if m := failLine.FindStringSubmatch(line); m != nil {
		o.failed = append(o.failed, m[1])
		return
	}
	switch {
	case strings.HasPrefix(line, "panic: test timed out after"):
		o.timedOut = true
	case o.crash == "" && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")):
		o.crash = collapse(line)
	case strings.HasPrefix(line, "testing: warning: no tests to run"):
		o.noTests = true
	}
}

// leaves drops every name that is the parent of another (a failed
// subtest fails its test too) and repeats.
func leaves(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		parent := false
		for _, o := range names {
			if strings.HasPrefix(o, n+"/") {
				parent = true
				break
			}
		}
		if !parent {
			out = append(out, n)
		}
	}
	return out
}

// firstLines returns the first n non-empty lines of s that are not go
// build's "# package" headers, joined with " / ".
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, collapse(l))
		if len(out) == n {
			break
		}
	}
	return strings.Join(out, " / ")
}

// shortTestName drops the root test of a suite run's failing subtest:
// TestReferenceConforms/AR-8/x reads reference: AR-8/x.
func shortTestName(name string) string {
	root, rest, ok := strings.Cut(name, "/")
	if !ok {
		return name
	}
	switch root {
	case "TestReferenceConforms":
		return "reference: " + rest
	case "TestMinimalConformsToClientCommunication":
		return "minimal: " + rest
	}
	return name
}
