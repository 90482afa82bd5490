// Command conform is the allocsim command line: the conformance suite for
// people and CI (run, replay, sweep), the sync traffic study, and tools around the spec (SPEC.md).
//
//	conform run [--runner NAME ... | --pkg IMPORTPATH --factory NAME] [--report DIR] ...
//	conform replay --runner NAME --property ID --seed S [--trace FILE] [--html FILE]
//	conform sweep --runner NAME --seeds A..B [--shard i/n] [--resume FILE]
//	conform sweep merge [--out FILE] SUMMARY...
//	conform runners
//	conform study sync [--out FILE] [--grid NxM,...] [--seeds N] [--minutes D]
//	conform schedule --start S --end E [--timezone Z] [--at T] [--profile ent|ce] [--next N] [--json]
//	conform agent -dev [-http-addr A] [-data-dir D] [-profile ent|ce] [-local-zone Z]
//	conform job run [-address A] [-detach] FILE
//	conform job stop [-purge] [-address A] JOB
//	conform alloc pause [-state pause|run|scheduled] [-status] [-task T] [-address A] ALLOC [TASK]
//	conform help [command]
//
// main.go only routes: each subcommand lives in its own package under
// internal/ with the shape of cli.RunFunc (its own flag.FlagSet, results to
// stdout, an error back). Exit codes: 0 success, 1 other failure, 2 bad
// usage or invalid input, 3 the tool itself failed (see internal/cli). To
// add a subcommand, add one entry to the table in commands(); multi-word
// names route by their words.
//
// The binary embeds the time zone database (time/tzdata, SPEC SCHED-4), so
// zones resolve the same on machines without /usr/share/zoneinfo.
//
// Run it without installing: go run ./cmd/conform help
package main
