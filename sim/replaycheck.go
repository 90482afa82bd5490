package sim

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// replayContext is how many common lines before the first difference a
// ReplayError shows.
const replayContext = 2

// failureTail is how many trace lines a failed run's Failure shows.
const failureTail = 20

// ReplayOptions are CheckReplay's options; the zero value makes two runs
// and prints no replay command.
type ReplayOptions struct {
	// Runs is how many runs are made, each compared with the first
	// (stopping at the first that differs); less than 2 means 2.
	Runs int
	// Replay is the command that replays the scenario (ReplayCommand),
	// printed with every failure.
	Replay string
	// OnRun, if set, is given each run's world once it closed (run counts
	// from 1), e.g. to write its trace.
	OnRun func(run int, w *World)
}

// CheckReplay is DET-4 as a check: it runs cfg (sim.Run) opts.Runs times,
// each in a fresh world, and compares every run's trace with the first,
// byte for byte. It must be called inside a testing/synctest bubble, like
// Run. It returns nil if every trace is identical and no run failed;
// otherwise, joined: each distinct run failure as a Failure (the run's
// violations and the last lines of its trace), and the first difference
// as a *ReplayError. A Config that New rejects is returned as New's error.
func CheckReplay(cfg Config, opts ReplayOptions) error {
	runs := max(opts.Runs, 2)
	var errs []error
	seen := map[string]bool{}
	var first []byte
	for run := 1; run <= runs; run++ {
		w, err := Run(cfg)
		if w == nil {
			return fmt.Errorf("sim: replay check: %w", err)
		}
		if opts.OnRun != nil {
			opts.OnRun(run, w)
		}
		if err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			errs = append(errs, Failure{Scenario: w.Scenario(), Trace: w.Trace().Tail(failureTail), Replay: opts.Replay,
				Violation: fmt.Sprintf("run %d of %d: %v", run, runs, err)})
		}
		var buf bytes.Buffer
		if _, err := w.Trace().WriteTo(&buf); err != nil {
			return errors.Join(append(errs, fmt.Errorf("sim: replay check: %w", err))...)
		}
		if run == 1 {
			first = buf.Bytes()
			continue
		}
		if d := diffTraces(first, buf.Bytes()); d != nil {
			d.Scenario, d.Runner, d.Run, d.Replay = w.Scenario(), cfg.Factory.Name, run, opts.Replay
			return errors.Join(append(errs, d)...)
		}
	}
	return errors.Join(errs...)
}

// ReplayError is CheckReplay's DET-4 verdict: run Run's trace differs
// from run 1's.
type ReplayError struct {
	Scenario scenario.Scenario
	// Runner is the runner under test (Factory.Name).
	Runner string
	// Run is the run that differs from run 1 (from 2).
	Run int
	// Line is the first differing trace line, counted from 1.
	Line int
	// Context is up to two lines before Line, the same in both runs.
	Context []string
	// First and Other are line Line of run 1 and of run Run; a trace
	// that ended before it has "".
	First, Other string
	// Replay is the command that replays the scenario.
	Replay string
}

// Violation is the verdict in STYLE.md rule 9's shape: the rule, the
// runner and the seed, where the first differing record is (from run 1's
// version, else run Run's), then the common context and both versions.
func (e *ReplayError) Violation() string {
	var b strings.Builder
	fmt.Fprintf(&b, "DET-4 (runner %q, seed %d): %strace line %d of run %d differs from run 1's, want byte-identical traces of one seed and scenario",
		e.Runner, e.Scenario.Seed, recordAt(e.First, e.Other), e.Line, e.Run)
	for i, l := range e.Context {
		fmt.Fprintf(&b, "\n  line %d: %s", e.Line-len(e.Context)+i, l)
	}
	fmt.Fprintf(&b, "\n  run 1:  %s\n  run %d:  %s", orEnd(e.First), e.Run, orEnd(e.Other))
	return b.String()
}

// Error is the violation and the replay command.
func (e *ReplayError) Error() string {
	if e.Replay == "" {
		return e.Violation()
	}
	return e.Violation() + "\nTo reproduce: " + e.Replay
}

// Failure is the verdict as a Failure, in labelled sections.
func (e *ReplayError) Failure() Failure {
	return Failure{Scenario: e.Scenario, Violation: e.Violation(), Replay: e.Replay}
}

// CompareRuns is DET-4 over two runs of one scenario made elsewhere
// (each in a bubble of its own, as the suite makes them): nil if their
// traces are byte-identical, else the ReplayError naming the first
// differing record of both (Run 2), for runner and sc.
func CompareRuns(runner string, sc scenario.Scenario, first, second []trace.Record) *ReplayError {
	if sameRecords(first, second) {
		// Equal records encode to equal lines: the encoding (a fifth of
		// a rerun's cost) is only needed to find and show a difference.
		return nil
	}
	d := diffTraces(encodeRecords(first), encodeRecords(second))
	if d != nil {
		d.Scenario, d.Runner, d.Run = sc, runner, 2
	}
	return d
}

// sameRecords reports whether a and b hold the same records, field for
// field (times as values: equal values print equally).
func sameRecords(a, b []trace.Record) bool {
	return slices.EqualFunc(a, b, func(x, y trace.Record) bool {
		return x.At == y.At && x.Kind == y.Kind && x.Alloc == y.Alloc && x.Task == y.Task &&
			x.Op == y.Op && x.Msg == y.Msg && bytes.Equal(x.Data, y.Data)
	})
}

func encodeRecords(recs []trace.Record) []byte {
	var b bytes.Buffer
	for _, r := range recs {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// diffTraces finds the first line where a and b differ; nil if they are
// equal. Only the position and the lines are filled in.
func diffTraces(a, b []byte) *ReplayError {
	if bytes.Equal(a, b) {
		return nil
	}
	la, lb := traceLines(a), traceLines(b)
	i := 0
	for i < len(la) && i < len(lb) && la[i] == lb[i] {
		i++
	}
	d := &ReplayError{Line: i + 1, Context: append([]string(nil), la[max(0, i-replayContext):i]...)}
	if i < len(la) {
		d.First = la[i]
	}
	if i < len(lb) {
		d.Other = lb[i]
	}
	return d
}

// traceLines splits a trace into its lines (without the final empty one).
func traceLines(b []byte) []string {
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func orEnd(line string) string {
	if line == "" {
		return "<end of trace>"
	}
	return line
}

// recordAt is "<alloc>/<task> @<time>: " of the first of the lines that
// parses as a trace record, or "".
func recordAt(lines ...string) string {
	for _, l := range lines {
		var r trace.Record
		if l == "" || r.UnmarshalJSON([]byte(l)) != nil {
			continue
		}
		loc := r.Alloc
		if r.Task != "" {
			loc += "/" + r.Task
		}
		if loc != "" {
			loc += " "
		}
		return fmt.Sprintf("%s@%s: ", loc, r.At.UTC().Format(trace.TimeFormat))
	}
	return ""
}
