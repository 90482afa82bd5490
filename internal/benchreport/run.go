package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/allocsim/allocsim/internal/testbin"
)

// A runner builds each package's test binary once and runs every
// benchmark -count times, each time in a process of its own
// (internal/testbin), so that a process's rusage (CPU time, peak RSS) is
// one run's alone.
type runner struct {
	dir       string // the module root
	tmp       string // where the binaries go
	count     int
	benchtime string
	timeout   time.Duration
	log       io.Writer // progress
	bins      map[string]binary
}

// A binary is one package's test binary, or why there is none.
type binary struct {
	bin    testbin.Binary
	status Status // Ran: built; Skipped: no such package or no tests; Failed
	note   string
}

// build returns pkg's test binary, building it on first use.
func (r *runner) build(pkg string) binary {
	if b, ok := r.bins[pkg]; ok {
		return b
	}
	if r.bins == nil {
		r.bins = map[string]binary{}
	}
	b := r.compile(pkg)
	r.bins[pkg] = b
	return b
}

func (r *runner) compile(pkg string) binary {
	src := filepath.Join(r.dir, filepath.FromSlash(pkg))
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		return binary{status: Skipped, note: fmt.Sprintf("package ./%s does not exist in this tree", pkg)}
	}
	out := filepath.Join(r.tmp, strings.ReplaceAll(pkg, "/", "_")+".test")
	fmt.Fprintf(r.log, "benchreport: go test -c ./%s\n", pkg)
	bin, err := testbin.Compile(context.Background(), testbin.Build{Dir: r.dir, Pkg: "./" + pkg, Out: out})
	var failed *testbin.GoError
	switch {
	case errors.Is(err, testbin.ErrNoTestFiles):
		return binary{status: Skipped, note: fmt.Sprintf("package ./%s has no test files", pkg)}
	case errors.As(err, &failed):
		return binary{status: Failed, note: fmt.Sprintf("go test -c ./%s: %v: %s", pkg, failed.Err, lastLines(failed.Output, 4))}
	case err != nil:
		return binary{status: Failed, note: fmt.Sprintf("go test -c ./%s: %v", pkg, err)}
	}
	return binary{bin: bin, status: Ran}
}

// run measures b: its binary lists it, then runs it alone.
func (r *runner) run(b Benchmark) Measurement {
	m := Measurement{Bench: b}
	bin := r.build(b.Pkg)
	pkgDir := filepath.Join(r.dir, filepath.FromSlash(b.Pkg))
	if bin.status == Failed && !definedIn(pkgDir, b.Name) {
		m.Status, m.Note = Skipped, fmt.Sprintf("%s is not defined in ./%s in this tree (which does not build either: %s)", b.Name, b.Pkg, bin.note)
		return m
	}
	if bin.status != Ran {
		m.Status, m.Note = bin.status, bin.note
		return m
	}
	pattern := "^" + regexp.QuoteMeta(b.Name) + "$"
	var listed strings.Builder
	exit, err := bin.bin.Run(context.Background(), []string{"-test.list", pattern}, output(&listed))
	if err == nil {
		err = exit.Err
	}
	if err != nil {
		m.Status, m.Note = Failed, fmt.Sprintf("%s -test.list: %v: %s", filepath.Base(bin.bin.Path), err, lastLines(listed.String(), 4))
		return m
	}
	if !containsLine(listed.String(), b.Name) {
		m.Status, m.Note = Skipped, fmt.Sprintf("%s is not defined in ./%s in this tree", b.Name, b.Pkg)
		return m
	}

	m.Load = readLoad()
	fmt.Fprintf(r.log, "benchreport: %s (./%s), load %s\n", b.Name, b.Pkg, m.Load)
	// Each count runs in a process of its own, as a user's one run does:
	// in one process, a run reused the memory the runs before it had
	// faulted in (Clients1000x50: 83 s a run against 100-110 s alone)
	// while their garbage raised its peak RSS (8.21 GiB against
	// 7.6-7.9 GiB alone).
	var out strings.Builder
	for range r.count {
		exit, err = bin.bin.Run(context.Background(), []string{"-test.run", "^$", "-test.bench", pattern,
			"-test.benchtime", r.benchtime, "-test.count", "1",
			"-test.benchmem", "-test.timeout", r.timeout.String()}, output(&out))
		m.Elapsed += exit.Elapsed
		m.CPU += exit.CPU
		m.MaxRSS = max(m.MaxRSS, exit.MaxRSS)
		if err == nil {
			err = exit.Err
		}
		if err != nil {
			break
		}
	}
	m.Output = out.String()
	if err != nil {
		m.Status, m.Note = Failed, fmt.Sprintf("%v: %s", err, lastLines(m.Output, 4))
		return m
	}
	rs, err := ParseOutput(m.Output)
	if err != nil {
		m.Status, m.Note = Failed, err.Error()
		return m
	}
	for _, res := range rs {
		if res.Name == b.Name {
			m.Results = append(m.Results, res)
		}
	}
	if len(m.Results) == 0 {
		m.Status, m.Note = Failed, "printed no result: "+lastLines(m.Output, 4)
		return m
	}
	m.Status = Ran
	fmt.Fprintf(r.log, "benchreport: %s: %s per run, peak RSS %s\n", b.Name,
		fmtNanos(median(m.Results, "ns/op")), fmtBytes(float64(m.MaxRSS)))
	return m
}

// output collects what a benchmark's binary printed (stdout and stderr,
// as go test -bench shows them).
func output(to *strings.Builder) func([]byte) {
	return func(event []byte) {
		if text, ok := testbin.Output(event); ok {
			to.WriteString(text)
		}
	}
}

// definedIn reports whether a test file of dir declares the function
// name, for a package that does not build: a benchmark its sources do not
// have is missing, not failed.
func definedIn(dir, name string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err == nil && bytes.Contains(data, []byte("func "+name+"(")) {
			return true
		}
	}
	return false
}

// containsLine reports whether one line of out is exactly s.
func containsLine(out, s string) bool {
	for _, line := range strings.Split(out, "\n") {
		if strings.TrimSpace(line) == s {
			return true
		}
	}
	return false
}

// lastLines joins the last n non-empty lines of out with "; ", for a
// one-line note.
func lastLines(out string, n int) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}
