package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// TestBadFlags: every bad flag exits 2 with a message naming it, before
// anything is built or run.
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-count", "0"}, "-count 0: want at least 1"},
		{[]string{"-count", "many"}, `invalid value "many" for flag -count`},
		{[]string{"-benchtime", "0x"}, `-benchtime "0x": want Nx with N ≥ 1`},
		{[]string{"-benchtime", "soon"}, `-benchtime "soon"`},
		{[]string{"-benchtime", "-1s"}, `-benchtime "-1s"`},
		{[]string{"-only", "("}, `-only "(": error parsing regexp`},
		{[]string{"-only", "NoSuchBenchmark"}, `-only "NoSuchBenchmark" matches no benchmark of BenchmarkFloor, `},
		{[]string{"-timeout", "0s"}, "-timeout 0s: want a positive duration"},
		{[]string{"-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"reports/bench"}, `unexpected arguments ["reports/bench"]`},
		{[]string{"-dir", t.TempDir()}, "is not a module root (no go.mod)"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, &stdout, &stderr)
		must.EqOp(t, exitUsage, code, must.Sprintf("args %q: stderr %s", tc.args, stderr.String()))
		must.StrContains(t, stderr.String(), tc.want)
		must.EqOp(t, "", stdout.String())
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-help", "-h"} {
		var stdout, stderr bytes.Buffer
		must.EqOp(t, exitOK, run([]string{arg}, &stdout, &stderr))
		must.StrContains(t, stdout.String(), "usage: go run ./internal/benchreport [flags]")
		for _, f := range []string{"-out", "-count", "-benchtime", "-only", "-dir", "-note", "-timeout"} {
			must.StrContains(t, stdout.String(), "  "+f+" ")
		}
		must.EqOp(t, "", stderr.String())
	}
}

func TestParseUptime(t *testing.T) {
	l, err := parseUptime(" 18:25:45 up  8:46,  0 user,  load average: 4.08, 3.62, 2.76\n")
	must.NoError(t, err)
	must.Eq(t, Load{Avg: [3]float64{4.08, 3.62, 2.76}, OK: true}, l)
	l, err = parseUptime("10:01  up 3 days, 2 users, load averages: 1.20 1.10 1.00\n")
	must.NoError(t, err)
	must.EqOp(t, "1.20 1.10 1.00", l.String())
	_, err = parseUptime("up 3 days")
	must.ErrorContains(t, err, "no load average")
	_, err = parseUptime("load average: 1.0, x, 2")
	must.ErrorContains(t, err, `load average "x"`)
	must.EqOp(t, "unknown", Load{}.String())
}

// The raw file is benchmark output between "# " lines, which a benchmark
// parser skips: its results read back as they were printed.
func TestRawText(t *testing.T) {
	run := sampleRun()
	run.Measurements[0].Output = "goos: linux\npkg: github.com/allocsim/allocsim/sim\nBenchmarkFloor-2 1 1000000000 ns/op 432000 events/run\nPASS\n"
	raw := RawText(run)
	for _, line := range strings.Split(strings.TrimSuffix(raw, "\n"), "\n") {
		if !strings.HasPrefix(line, "# ") {
			must.StrContains(t, run.Measurements[0].Output, line+"\n", must.Sprintf("line %q", line))
		}
	}
	rs, err := ParseOutput(raw)
	must.NoError(t, err)
	must.SliceLen(t, 1, rs)
	must.EqOp(t, "BenchmarkFloor", rs[0].Name)
	must.EqOp(t, run.Date, rawDate([]byte(raw)))
	path := filepath.Join(t.TempDir(), "run.txt")
	must.NoError(t, os.WriteFile(path, []byte(raw), 0o644))
	must.EqOp(t, "2.50 2.25 1.75 before, 3.00 2.50 2.00 after", previousLoad(path))
	must.StrContains(t, raw, "# benchmark: BenchmarkClients100x50 (./sim/cluster) skipped: package ./sim/cluster does not exist in this tree\n")
	must.StrContains(t, raw, "# load-before: 2.50 2.25 1.75\n")
	must.StrContains(t, raw, "# machine: AMD EPYC, 2 CPUs, GOMAXPROCS 2, go1.26.8 linux/amd64\n")
}

func TestRawName(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC)
	must.EqOp(t, "2026-12-01-9b40d8e.txt", rawName(dir, day, "9b40d8e"))
	must.NoError(t, os.WriteFile(filepath.Join(dir, "2026-12-01-9b40d8e.txt"), nil, 0o644))
	must.EqOp(t, "2026-12-01-9b40d8e-2.txt", rawName(dir, day, "9b40d8e"))
}

// previousRun takes the newest run by date header, among the committed
// ones when git tracks any.
func TestPreviousRun(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	write := func(name string, date time.Time) {
		run := Run{Date: date}
		must.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(RawText(run)), 0o644))
	}
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	name, _, err := previousRun(dir, "new.txt")
	must.NoError(t, err)
	must.EqOp(t, "", name, must.Sprint("no earlier run"))

	write("2026-12-02-bbbbbbb.txt", day.Add(24*time.Hour))
	write("2026-12-01-aaaaaaa.txt", day.Add(48*time.Hour)) // the newer run, of an older-looking name
	write("new.txt", day.Add(72*time.Hour))
	name, committed, err := previousRun(dir, "new.txt")
	must.NoError(t, err)
	must.EqOp(t, "2026-12-01-aaaaaaa.txt", name)
	must.False(t, committed)

	for _, args := range [][]string{{"init", "-q"}, {"add", "2026-12-02-bbbbbbb.txt"}} {
		_, err := git(dir, args...)
		must.NoError(t, err)
	}
	name, committed, err = previousRun(dir, "new.txt")
	must.NoError(t, err)
	must.EqOp(t, "2026-12-02-bbbbbbb.txt", name, must.Sprint("the one git tracks"))
	must.True(t, committed)
}

// A package that does not build skips the benchmarks its test files do
// not declare and fails those they do.
func TestBrokenPackage(t *testing.T) {
	dir := t.TempDir()
	must.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/broken\n\ngo 1.24\n"), 0o644))
	must.NoError(t, os.Mkdir(filepath.Join(dir, "p"), 0o755))
	must.NoError(t, os.WriteFile(filepath.Join(dir, "p", "p_test.go"),
		[]byte("package p\n\nimport \"testing\"\n\nfunc BenchmarkHere(b *testing.B) { undefined() }\n"), 0o644))
	var log bytes.Buffer
	r := &runner{dir: dir, tmp: t.TempDir(), count: 1, benchtime: "1x", timeout: time.Minute, log: &log}
	here := r.run(Benchmark{Pkg: "p", Name: "BenchmarkHere"})
	must.EqOp(t, Failed, here.Status)
	must.StrContains(t, here.Note, "undefined")
	gone := r.run(Benchmark{Pkg: "p", Name: "BenchmarkGone"})
	must.EqOp(t, Skipped, gone.Status)
	must.StrContains(t, gone.Note, "BenchmarkGone is not defined in ./p in this tree (which does not build either: go test -c ./p")
	missing := r.run(Benchmark{Pkg: "q", Name: "BenchmarkQ"})
	must.EqOp(t, Skipped, missing.Status)
	must.EqOp(t, "package ./q does not exist in this tree", missing.Note)
}

// A benchmark runs -count times, each run alone in a process of its own,
// its results and the processes' peak RSS collected.
func TestRunnerRuns(t *testing.T) {
	dir := t.TempDir()
	must.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/ok\n\ngo 1.24\n"), 0o644))
	must.NoError(t, os.Mkdir(filepath.Join(dir, "p"), 0o755))
	must.NoError(t, os.WriteFile(filepath.Join(dir, "p", "p_test.go"), []byte("package p\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"+
		"func BenchmarkOK(b *testing.B) { b.ReportMetric(3, \"events/run\"); b.ReportMetric(float64(os.Getpid()), \"pid\") }\n\n"+
		"func BenchmarkOther(b *testing.B) { b.Fatal(\"must not run\") }\n"), 0o644))
	var log bytes.Buffer
	r := &runner{dir: dir, tmp: t.TempDir(), count: 2, benchtime: "1x", timeout: time.Minute, log: &log}
	m := r.run(Benchmark{Pkg: "p", Name: "BenchmarkOK"})
	must.EqOp(t, Ran, m.Status, must.Sprint(m.Note))
	must.SliceLen(t, 2, m.Results)
	must.EqOp(t, 3.0, median(m.Results, "events/run"))
	pid0, _ := m.Results[0].Metric("pid")
	pid1, _ := m.Results[1].Metric("pid")
	must.NotEq(t, pid0, pid1, must.Sprint("each count is a process of its own"))
	must.StrContains(t, m.Output, "pkg: example.com/ok/p\n")
	must.StrNotContains(t, m.Output, "BenchmarkOther")
	if runtime.GOOS == "linux" {
		must.Positive(t, m.MaxRSS)
	}
	must.StrContains(t, log.String(), "benchreport: go test -c ./p\n")
	again := r.run(Benchmark{Pkg: "p", Name: "BenchmarkOK"})
	must.EqOp(t, Ran, again.Status)
	must.EqOp(t, 1, strings.Count(log.String(), "go test -c ./p"), must.Sprint("the binary is built once"))
}
