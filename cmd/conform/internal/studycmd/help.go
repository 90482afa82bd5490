package studycmd

// Summary is `conform study sync`'s line in `conform help`.
const Summary = "measure prioritized client updates against sending every tick (report with charts)"

const syncHelp = `Usage:
  conform study sync [--out FILE] [--grid NxM,...] [--seeds N] [--minutes D]
                     [--rpc-latency L] [--runner NAME] [--baseline NAME]
                     [--parallel N] [--allocsim DIR] [--quick]

The sync study of project issue 13. Each configuration NxM is N
simulated clients of M allocs each against one simulated server, with
a churn modelled on high-volume deployments (sim/cluster's Churn: jobs
of 1 to 5 allocs placed over the first minute; services, services with a
worker that exits and restarts, crashing services, batch jobs replaced
as they complete; new versions and stops later on) over D virtual
minutes, no faults. Every configuration runs seeds 1..N with the runner
(default: the reference runner, prioritized sync, SYNC-3) and with the
baseline (default: mutant/sync-no-priority, which sends whatever is
buffered on every 200 ms tick), on the same workload.

The report (FILE, Markdown; charts as SVG in FILE without .md) has, per
configuration and runner: Node.UpdateAlloc RPCs, server log entries and
bytes (the client updates' "Raft traffic"), RPCs per client per second,
and the latency from a ClientStatus change to the server receiving it
(p50, p99, max, virtual time); the reduction against the baseline
(min/median/max over seeds); and three computed checks: typical-only
traffic at most 1 RPC per second per client (SYNC-5.2), urgent changes
seen within one tick plus the RPC latency (SYNC-5.1), never more RPCs
than the baseline on a seed. The same flags write the same report.

The runs execute in a test binary built from the allocsim source with
go test -c (synctest bubbles exist only under testing, as for conform
run); progress goes to stderr, the report's path and the headline to
stdout. The default grid takes a few minutes on 2 CPUs.

Flags:
`

const syncTail = `
Exit codes:
  0  the report was written
  1  the report could not be written
  2  bad usage: a bad grid, duration, latency or runner, extra arguments
  3  the tool itself failed: the test binary did not build, a run failed
     or reported nothing

Examples:
  # The study as reports/study-sync.md and reports/study-sync/*.svg
  conform study sync

  # Longer runs, five seeds, two configurations
  conform study sync --grid 10x50,100x50 --seeds 5 --minutes 10 --out /tmp/sync.md

  # Seconds: a tiny grid
  conform study sync --quick --out /tmp/quick.md
`
