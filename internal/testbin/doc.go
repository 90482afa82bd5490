// Package testbin runs work through go test, the one way allocsim does:
// the conformance suite from the command line (conform run, replay and
// sweep, through cmd/conform/internal/suiterun), the sync study's runs
// (conform study sync's worker test), the benchmarks that
// internal/benchreport measures one per process, and the mutants that
// internal/mutation judges with the suite (go test -c -overlay).
//
// The protocol, in order:
//
//  1. Compile builds a package's test binary once (go test -c -o),
//     whatever number of processes then run it;
//  2. Binary.Run starts it from the package's directory, as go test
//     does (testdata is relative), with the flags that select the work
//     (-test.run=^Name$ for a test, -test.bench for a benchmark) and the
//     work's own flags;
//  3. what the binary prints, stdout and stderr together as go test shows
//     them, is converted by `go tool test2json -t` (the executable
//     `go tool -n test2json` names, run directly: test2json.go) into
//     go test -json events, handed over one line at a time as they
//     arrive (the suite reads its results from them,
//     reports.TestParser); Output and Lines
//     give back the text the binary printed (a study's result lines, a
//     benchmark's output for benchstat);
//  4. Run returns how the binary ended, its wall time and, from its
//     rusage, its CPU time and peak resident set: the binary is this
//     process's child and test2json a sibling that reads its output
//     through a pipe, so the figures are the binary's alone.
package testbin
