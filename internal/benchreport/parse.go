package main

import (
	"bufio"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A Result is one result line of `go test -bench` output, in the
// benchmark format benchstat reads:
//
//	BenchmarkDay50x3-2   1   3314283450 ns/op   2038 events/run   490568552 B/op
type Result struct {
	// Name is the benchmark's name without the -GOMAXPROCS suffix.
	Name string
	// Procs is that suffix (GOMAXPROCS of the run); 1 when absent.
	Procs int
	// N is the number of iterations the values are averaged over.
	N int64
	// Values are the measurements in line order.
	Values []Value
}

// A Value is one measurement of a result line: 3314283450 ns/op.
type Value struct {
	Value float64
	Unit  string
}

// Metric returns the value of unit, false when the line has none.
func (r Result) Metric(unit string) (float64, bool) {
	i := slices.IndexFunc(r.Values, func(v Value) bool { return v.Unit == unit })
	if i < 0 {
		return 0, false
	}
	return r.Values[i].Value, true
}

// ParseLine parses one line of `go test -bench` output. ok is false for a
// line that is not a result (headers such as goos: and pkg:, PASS, log
// output, a bare benchmark name under -v); the error reports a line that
// starts like a result (a name and an iteration count) but whose values
// do not parse.
func ParseLine(line string) (r Result, ok bool, err error) {
	f := strings.Fields(line)
	if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
		return Result{}, false, nil
	}
	n, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || n <= 0 {
		return Result{}, false, nil
	}
	r = Result{N: n, Procs: 1}
	r.Name, r.Procs = splitProcs(f[0])
	rest := f[2:]
	if len(rest) == 0 || len(rest)%2 != 0 {
		return Result{}, false, fmt.Errorf("result %q: want value-unit pairs after the iteration count", line)
	}
	for i := 0; i < len(rest); i += 2 {
		v, err := strconv.ParseFloat(rest[i], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return Result{}, false, fmt.Errorf("result %q: value %q of %s is not a number", line, rest[i], rest[i+1])
		}
		r.Values = append(r.Values, Value{Value: v, Unit: rest[i+1]})
	}
	return r, true, nil
}

// splitProcs splits "BenchmarkX-2" into "BenchmarkX" and 2; a name
// without a numeric suffix keeps it and gives 1.
func splitProcs(full string) (string, int) {
	i := strings.LastIndexByte(full, '-')
	if i < 0 {
		return full, 1
	}
	p, err := strconv.Atoi(full[i+1:])
	if err != nil || p <= 0 {
		return full, 1
	}
	return full[:i], p
}

// ParseOutput returns the result lines of a `go test -bench` output, in
// order; the error names the first malformed result line.
func ParseOutput(out string) ([]Result, error) {
	var rs []Result
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		r, ok, err := ParseLine(sc.Text())
		if err != nil {
			return nil, err
		}
		if ok {
			rs = append(rs, r)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read benchmark output: %w", err)
	}
	return rs, nil
}

// median is the median of the values of unit over rs (the results of one
// benchmark, one per -count), NaN when none has it.
func median(rs []Result, unit string) float64 {
	var vs []float64
	for _, r := range rs {
		if v, ok := r.Metric(unit); ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return math.NaN()
	}
	slices.Sort(vs)
	if len(vs)%2 == 1 {
		return vs[len(vs)/2]
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
}
