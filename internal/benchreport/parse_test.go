package main

import (
	"math"
	"testing"

	"github.com/shoenig/test/must"
)

func TestParseLine(t *testing.T) {
	cases := []struct {
		name string
		line string
		want Result
	}{
		{"procs suffix, custom units", "BenchmarkDay50x3-2   \t       1\t3314283450 ns/op\t      2038 events/run\t   1626242 ns/event\t490568552 B/op\t 5543092 allocs/op",
			Result{Name: "BenchmarkDay50x3", Procs: 2, N: 1, Values: []Value{
				{3314283450, "ns/op"}, {2038, "events/run"}, {1626242, "ns/event"}, {490568552, "B/op"}, {5543092, "allocs/op"}}}},
		{"fractional values", "BenchmarkPorcupine10k-2 1 212372457 ns/op 5.000 max-in-flight 525.6 virtual-s/s",
			Result{Name: "BenchmarkPorcupine10k", Procs: 2, N: 1, Values: []Value{
				{212372457, "ns/op"}, {5, "max-in-flight"}, {525.6, "virtual-s/s"}}}},
		{"no suffix (GOMAXPROCS 1)", "BenchmarkFloor 3 636907566 ns/op",
			Result{Name: "BenchmarkFloor", Procs: 1, N: 3, Values: []Value{{636907566, "ns/op"}}}},
		{"sub-benchmark", "BenchmarkX/size=10-16 1000 12.5 ns/op",
			Result{Name: "BenchmarkX/size=10", Procs: 16, N: 1000, Values: []Value{{12.5, "ns/op"}}}},
		{"a name ending in a dash word", "BenchmarkX-fast 10 1 ns/op",
			Result{Name: "BenchmarkX-fast", Procs: 1, N: 10, Values: []Value{{1, "ns/op"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := ParseLine(tc.line)
			must.NoError(t, err)
			must.True(t, ok)
			must.Eq(t, tc.want, got)
		})
	}
}

func TestParseLineNotAResult(t *testing.T) {
	for _, line := range []string{
		"", "goos: linux", "pkg: github.com/allocsim/allocsim/sim", "cpu: AMD EPYC", "PASS",
		"ok  \tgithub.com/allocsim/allocsim/sim\t12.3s", "BenchmarkDay50x3", "BenchmarkDay50x3-2",
		"BenchmarkFloor failed: simulation failed", "--- FAIL: BenchmarkFloor", "# commit: 9b40d8e",
		"BenchmarkX 0 1 ns/op",
	} {
		_, ok, err := ParseLine(line)
		must.NoError(t, err, must.Sprintf("line %q", line))
		must.False(t, ok, must.Sprintf("line %q", line))
	}
}

func TestParseLineMalformed(t *testing.T) {
	for line, want := range map[string]string{
		"BenchmarkX-2 1":                    "want value-unit pairs",
		"BenchmarkX-2 1 100 ns/op 5":        "want value-unit pairs",
		"BenchmarkX-2 1 fast ns/op":         `value "fast" of ns/op is not a number`,
		"BenchmarkX-2 1 100 ns/op NaN B/op": `value "NaN" of B/op is not a number`,
	} {
		_, ok, err := ParseLine(line)
		must.False(t, ok)
		must.ErrorContains(t, err, want)
	}
}

func TestParseOutput(t *testing.T) {
	out := "goos: linux\ngoarch: amd64\npkg: github.com/allocsim/allocsim/sim\ncpu: AMD EPYC\n" +
		"BenchmarkFloor-2 1 600 ns/op 432000 events/run\n" +
		"BenchmarkFloor-2 1 700 ns/op 432000 events/run\n" +
		"BenchmarkFloor-2 1 650 ns/op 432000 events/run\nPASS\n"
	rs, err := ParseOutput(out)
	must.NoError(t, err)
	must.SliceLen(t, 3, rs)
	must.EqOp(t, 650.0, median(rs, "ns/op"))
	must.EqOp(t, 432000.0, median(rs, "events/run"))
	must.EqOp(t, 650.0, median(rs[:2], "ns/op"), must.Sprint("an even count: the mean of the middle two"))
	must.True(t, math.IsNaN(median(rs, "B/op")), must.Sprint("a unit no line has"))

	_, err = ParseOutput("BenchmarkFloor-2 1 600 ns/op\nBenchmarkFloor-2 1 six ns/op\n")
	must.ErrorContains(t, err, `value "six"`)
}
