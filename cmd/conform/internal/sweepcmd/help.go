package sweepcmd

const sweepHelp = `Usage:
  conform sweep --runner NAME --seeds A..B [--shard i/n] [--chunk N]
                [--property ID ...] [--profile P] [--summary FILE]
                [--allocsim DIR] [--parallel N] [--artifacts DIR]
  conform sweep --resume FILE [--chunk N] [--parallel N] [--allocsim DIR]

A long seed search: every selected property of the runner checks the
scenarios of seeds A..B, in order, and a property stops at its first
failing seed (the other properties go on). The range is cut into shards
for several machines and each shard into chunks; after every chunk the
summary FILE (JSON, replaced atomically) records which seeds each
property has checked, the failures with their replay commands, and the
totals, so an interrupted shard continues where it stopped with
--resume FILE. conform sweep merge combines the shards' summaries.

Shards: shard i of n is the contiguous slice
  A + floor((i-1)*N/n) .. A + floor(i*N/n) - 1,   N = B - A + 1,
so the n shards cover A..B exactly once and differ in size by at most
one seed. Chunk k of a shard starting at seed S is S + k*N' ..
S + (k+1)*N' - 1 (N' = --chunk), the last one cut at the shard's end.

Summary file: without --resume it is --summary FILE, else
sweep-<runner>-<A>-<B>-shard-<i>-of-<n>.json in the current directory;
an existing file is never overwritten (continue it with --resume).
--resume FILE continues FILE and writes it back; the flags it records
(runner, seeds, shard, profile, properties) may be left out, and those
given must match it. Each chunk is one run of the suite (a test binary
built from the allocsim source, as conform run does) with a real-time
budget large enough that it is not cut short; a chunk the budget does cut,
or a suite error, stops the sweep (exit 3) with what was done kept.

Progress goes to stderr, a line per chunk and per new failure; stdout
gets the final report: seeds covered, gaps, every failure with the
command that replays it (conform replay --runner R --property ID
--seed S).

Flags:
`

const sweepTail = `
Exit codes:
  0  no failure found (the range may be incomplete if interrupted: see
     the report)
  1  a failure was found
  2  bad usage: a bad range or shard, an unknown runner, --resume of
     another sweep's summary, an existing summary without --resume
  3  the tool itself failed (the suite did not build or report, a chunk
     was cut short) or it was interrupted; the summary keeps what was
     done, continue with --resume FILE

Examples:
  # Search seeds 1..100000 of the reference runner on one machine
  conform sweep --runner reference --seeds 1..100000

  # Four machines, each its own quarter; then combine the summaries
  conform sweep --runner mutant/sched-utc --seeds 1..40000 --shard 3/4 --summary shard-3.json
  conform sweep --resume shard-3.json          # after an interruption
  conform sweep merge --out sweep.json shard-1.json shard-2.json shard-3.json shard-4.json

  # One property, small chunks
  conform sweep --runner reference --seeds 1..5000 --property SCHED-5/inside-windows-only --chunk 50

Job files that run one shard per Nomad dispatch or per CI matrix entry:
fixtures/jobs/sweep.nomad.hcl, fixtures/ci/sweep.github-actions.yml.
`

const mergeHelp = `Usage:
  conform sweep merge [--out FILE] [--complete] SUMMARY...

Combines the summaries of one sweep's shards (conform sweep writes one
per shard): they must be of the same runner, profile, seed range and
property selection; shards may be partial, repeated or merged already.
Prints which seeds of the whole range are covered (a seed is covered when
every property checked it, or stopped before it because it failed in
that shard), the gaps, and every failure with its replay command.

Flags:
`

const mergeTail = `
Exit codes:
  0  no failure (with --complete: and every seed covered)
  1  a failure was found (with --complete: or a seed is not covered)
  2  bad usage: no file, a file that is not a sweep summary, summaries
     of different sweeps
  3  the tool itself failed

Examples:
  conform sweep merge shard-*.json
  conform sweep merge --out sweep.json --complete shard-1.json shard-2.json
`
