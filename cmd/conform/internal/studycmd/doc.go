// Package studycmd is `conform study sync`: project issue 13's sync
// study, which measures what prioritized client updates (SPEC SYNC-2,
// SYNC-3) save against a sync loop that sends on every 200 ms tick, on a
// workload modelled on high-volume deployments (sim/cluster's Churn),
// and writes a Markdown report with SVG charts.
//
// A study, in order:
//
//  1. resolve the flags into a plan: every configuration of the grid
//     (N clients × M allocs per client), every seed 1..S, both runners
//     (--runner, default the reference runner, and --baseline, default
//     mutant/sync-no-priority), one cluster.Run each, on the same seeds
//     (the churn depends on the seed only, not on the runner);
//  2. run the plan: synctest bubbles exist only under the testing package,
//     so, as conform run does, the runs execute in a test binary built
//     from the allocsim source and run by internal/testbin (this
//     package's TestStudyWorker reads the plan from a file, runs
//     --parallel runs at once, each in its own bubble, and prints one
//     result line, a JSON summary, per run); a run's summary is its
//     counts (sim/server's Stats, the clients' calls), the spacing of its
//     typical-only calls and the latency histograms of its ClientStatus
//     changes (summary.go);
//  3. aggregate per configuration and runner (medians and ranges over
//     seeds, latencies pooled over seeds), compute the checks (typical-only
//     traffic at most 1 RPC per second per client; urgent changes seen
//     within one tick plus the RPC latency; the reduction against the
//     baseline on every seed) and write the report and its charts
//     (report.go, svg.go). The report depends on the plan only: the same
//     flags write the same bytes.
package studycmd
