// Command benchreport runs allocsim's benchmarks of project issue 13 (speed
// and scale) and writes their committed results to reports/bench.
//
// Usage, from the module root:
//
//	go run ./internal/benchreport [-out reports/bench] [-count 1] [-benchtime 1x]
//	                              [-only REGEX] [-dir .] [-note TEXT] [-timeout 30m]
//
// The steps:
//
//  1. Each benchmark package's test binary is built once (go test -c) and
//     every benchmark runs -count times, each run in a process of its own
//     (-test.bench '^Name$' -test.count 1 -test.benchmem), from its
//     package directory as go test runs it, through internal/testbin, so
//     a process's rusage is one run's: CPU time is user plus system time,
//     peak RSS is ru_maxrss (the table shows the largest). A run alone
//     in its process is what a user's run is: runs sharing a process
//     reuse the memory the first one faulted in, and carry its garbage. A package missing from the tree, or a benchmark it does
//     not define (a checkout older than the benchmark), is skipped with a
//     note; a build or benchmark failure is reported and makes the exit
//     code 1.
//  2. The raw output, every process's go test -bench output as printed,
//     goes to DIR/<YYYY-MM-DD>-<shortcommit>.txt (-2, -3, ... when that
//     day and commit already has one) between header lines starting with
//     "# " that benchstat ignores: date, commit, how many paths of the work
//     tree differ from it, machine (lscpu's model name, CPUs, GOMAXPROCS,
//     go version), uptime's load averages before and after the run and as
//     each benchmark started, and each process's rusage.
//  3. DIR/README.md gets the latest run's table (wall, CPU, allocated
//     bytes, peak RSS, events, virtual seconds per wall second, and the
//     ratios to BenchmarkFloor of the same run: ns/event over Floor's, and
//     wall time over Floor's virtual day), the targets computed
//     from it (Targets), and benchstat's comparison with the previous run:
//     the newest raw file of DIR by its date header among those git
//     tracks, or among all of them when git tracks none. benchstat is
//     golang.org/x/perf/cmd/benchstat run by version with go run, so
//     go.mod does not change: from the module cache alone first (GOPROXY
//     set to its download directory, which works offline), then through
//     the configured proxy, which is needed once to fetch it.
//
// Flags:
//
//	-out DIR         where the files go (default reports/bench)
//	-count N         N runs per benchmark, each in its own process; medians in the table (default 1)
//	-benchtime T     go test -benchtime (default 1x: one run each)
//	-only REGEX      only the benchmarks whose name matches; Floor runs too when a
//	                 simulator benchmark does, for the ratios
//	-dir DIR         the module to measure (default .): a git worktree of an older
//	                 commit gives a baseline, its missing benchmarks skipped
//	-note TEXT       a line saying what was measured (a baseline's adapted benchmarks),
//	                 in the raw file and README
//	-timeout D       go test -timeout of each benchmark process (default 30m)
//	-help            the flags
//
// Exit codes: 0 when every selected benchmark ran or is missing from the
// tree (missed targets are reported, not failed), 1 when a benchmark or
// benchstat failed (the files are still written), 2 for bad flags or when
// the tool cannot run (not a module root, not a git work tree, an
// unwritable DIR).
package main
