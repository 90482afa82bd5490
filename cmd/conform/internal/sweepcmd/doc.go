// Package sweepcmd is `conform sweep` and `conform sweep merge`: a long,
// resumable seed search of one built-in runner, cut into shards for
// several machines (a Nomad dispatch or a CI matrix entry each) and into
// chunks per shard, each chunk one run of the suite through suiterun.
//
// The arithmetic (seeds.go), for a sweep of seeds A..B (1 ≤ A ≤ B,
// N = B−A+1):
//
//	shard i of n:  A + ⌊(i−1)·N/n⌋ .. A + ⌊i·N/n⌋ − 1   (n ≤ N)
//	chunk k of a shard starting at S, size C:  S + k·C .. S + (k+1)·C − 1,
//	               the last one cut at the shard's end.
//
// Shards 1..n cover A..B exactly once, in order, and differ in size by at
// most one seed.
//
// A sweep of one shard, in order:
//
//  1. resolve the flags: a new summary (its file must not exist), or
//     --resume FILE, whose runner, seeds, shard, profile and property
//     selection the given flags must match (usage error otherwise);
//     write the summary at once, so the file names the sweep;
//  2. take the next batch (summaryFile.nextOf): the chunk holding the
//     lowest seed a still searched property (known, applicable, not
//     failed, not in a batch being checked) has not checked, with up to
//     a share of those properties listed (suiterun.Plan.Properties) and
//     the seeds narrowed to what they miss there; before any chunk has
//     reported, the whole selection, split across the processes;
//  3. run the suite on it (suiterun.Run, one test process, seeds
//     SeedsFrom..SeedsTo, a 50-minute budget, every --rerun-th check run
//     twice for DET-4, default one in 16), record each property's
//     checked seeds, failures (the property is searched no further in
//     this shard) and n/a properties, and replace the summary file
//     atomically (temporary file, then rename); a property the budget
//     cut short counts only the seeds it ran, and, like a suite error,
//     stops the sweep;
//  4. repeat from 2, --parallel processes at once (default one more than
//     the CPUs), until nothing is left; print the report. A property is
//     in one batch at a time, so its chunks run in order and it stops at
//     its first failing seed; no process waits at a chunk's end.
//
// The summary (JSON, format "allocsim-sweep/1", summaryFile) holds the
// runner, profile, seed range, shard and its seeds, the property
// selection, per property its status (searching, passed, failed, n/a),
// checked and stopped seed ranges and check count, the failures
// (property, seed, shard, violation, replay command), the covered seeds
// and the gaps of the file's range, and totals. A seed is covered when
// every known applicable property checked it or stopped before it; merge
// takes unions of the same fields, so merged summaries merge again.
package sweepcmd
