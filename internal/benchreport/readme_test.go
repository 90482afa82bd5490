package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		must.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	must.NoError(t, err, must.Sprint("run go test ./internal/benchreport -update to create it"))
	must.EqOp(t, string(want), got, must.Sprintf("%s is stale: go test ./internal/benchreport -update", path))
}

// sampleRun is a run with every kind of row: ran, skipped, failed, a
// target missed, and a comparison with the previous run.
func sampleRun() Run {
	run := goodRun()
	run.Date = time.Date(2026, 12, 1, 18, 40, 5, 0, time.UTC)
	run.Commit = "9b40d8e"
	run.Modified = 3
	run.Note = "the tree of 9b40d8e with the lead's uncommitted work"
	run.Machine = Machine{CPU: "AMD EPYC", Cores: 2, GOMAXPROCS: 2, Go: "go1.26.8", Platform: "linux/amd64"}
	run.LoadBefore = Load{Avg: [3]float64{2.5, 2.25, 1.75}, OK: true}
	run.LoadAfter = Load{Avg: [3]float64{3, 2.5, 2}, OK: true}
	for i := range run.Measurements {
		run.Measurements[i].Load = Load{Avg: [3]float64{2.5 + float64(i)/10, 2, 1}, OK: true}
	}
	run.Measurements[2] = ran("BenchmarkDay50x3Ticking", simValues(8, 432000)...)
	run.Measurements = append(run.Measurements[:4:4],
		Measurement{Bench: benchmark("BenchmarkReplaySeed"), Status: Failed, Note: "exit status 1: --- FAIL: BenchmarkReplaySeed | simulation failed"},
		Measurement{Bench: benchmark("BenchmarkClients100x50"), Status: Skipped, Note: "package ./sim/cluster does not exist in this tree"},
		run.Measurements[5])
	run.File = "2026-12-01-9b40d8e.txt"
	run.Previous = "2026-12-01-5705794.txt"
	run.PreviousLoad = "7.49 5.96 4.18 before, 7.41 6.26 4.41 after"
	run.Benchstat = "goos: linux\n          │ 2026-12-01-5705794.txt │\n          │         sec/op         │\nDay50x3                7.34 ± ∞ ¹\n"
	return run
}

func TestRenderGolden(t *testing.T) {
	golden(t, "README.golden.md", Render(sampleRun()))
}

func TestRenderFirstRun(t *testing.T) {
	run := sampleRun()
	run.Previous, run.Benchstat = "", ""
	got := Render(run)
	must.StrContains(t, got, "No earlier run in this directory: nothing to compare with.")
	must.StrNotContains(t, got, "```text")
}

func TestRenderBenchstatFailed(t *testing.T) {
	run := sampleRun()
	run.Benchstat, run.BenchstatErr = "", "go run golang.org/x/perf/cmd/benchstat@v0: exit status 1: no network"
	got := Render(run)
	must.StrContains(t, got, "benchstat could not compare [2026-12-01-5705794.txt](2026-12-01-5705794.txt) with this run: go run")
}

// Every table row has as many cells as the header, whatever a note holds.
func TestRenderTableShape(t *testing.T) {
	got := Render(sampleRun())
	var header int
	for _, line := range strings.Split(got, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if strings.HasPrefix(line, "| benchmark ") || strings.HasPrefix(line, "| target ") {
			header = n
		}
		must.EqOp(t, header, n, must.Sprintf("row %q", line))
	}
}

func TestLoadVerdict(t *testing.T) {
	run := Run{Machine: Machine{Cores: 2}}
	must.EqOp(t, "The load is unknown.", loadVerdict(run))
	run.LoadBefore = Load{Avg: [3]float64{0.1, 0, 0}, OK: true}
	must.EqOp(t, "The machine was otherwise idle.", loadVerdict(run))
	run.LoadAfter = Load{Avg: [3]float64{0.9, 0, 0}, OK: true}
	must.StrContains(t, loadVerdict(run), "reached 0.90 on 2 CPUs: some other work")
	run.Measurements = []Measurement{{Load: Load{Avg: [3]float64{4.2, 0, 0}, OK: true}}}
	must.StrContains(t, loadVerdict(run), "reached 4.20 on 2 CPUs: other work was running")

	// A benchmark that keeps 1.40 CPUs busy (110 s wall, 154 s CPU) makes
	// a load of 1.49 by itself: no other work.
	busy := ran("BenchmarkClients1000x50", simValues(110, 294718)...)
	busy.CPU = 154 * time.Second
	busy.Load = Load{Avg: [3]float64{1.49, 0, 0}, OK: true}
	run = Run{Machine: Machine{Cores: 2}, Count: 1, Measurements: []Measurement{busy}}
	must.EqOp(t, "The 1-minute load reached 1.49 on 2 CPUs, no more than the benchmarks' own processes account for "+
		"(up to 1.40 CPUs, CPU ÷ wall of a run): the machine was otherwise idle.", loadVerdict(run))
	busy.Load.Avg[0] = 2.2
	run.Measurements[0] = busy
	must.StrContains(t, loadVerdict(run), "reached 2.20 on 2 CPUs, of which the benchmarks' own processes account for up to 1.40: other work was running")
}

func TestFormats(t *testing.T) {
	for got, want := range map[string]string{
		fmtSeconds(3.3142): "3.31 s", fmtSeconds(0.6369): "637 ms", fmtNanos(12203): "12.2 µs",
		fmtNanos(850): "850 ns", fmtSeconds(nan): "-", fmtSeconds(4321): "4,321 s",
		fmtBytes(490568552): "468 MiB", fmtBytes(1 << 30): "1.00 GiB", fmtBytes(512): "512 B",
		fmtCount(433434): "433,434", fmtCount(99): "99", fmtCount(525.6): "526", fmtCount(5.5): "5.50",
		fmtRatio(5.2): "5.20×", fmtRatio(47123.4): "47,123×", fmtRatio(nan): "-",
	} {
		must.EqOp(t, want, got)
	}
}
