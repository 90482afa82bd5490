// Command conform is the allocsim command line: tools around the spec
// (SPEC.md) for people and scripts, and later the conformance suite runner.
//
//	conform schedule --start S --end E [--timezone Z] [--at T] [--profile ent|ce] [--next N] [--json]
//	conform agent -dev [-http-addr A] [-data-dir D] [-profile ent|ce] [-local-zone Z]
//	conform job run [-address A] [-detach] FILE
//	conform alloc pause [-state pause|run|scheduled] [-status] [-task T] [-address A] ALLOC [TASK]
//	conform help [command]
//
// main.go only routes: each subcommand lives in its own package under
// internal/ with the shape of cli.RunFunc (its own flag.FlagSet, results to
// stdout, an error back). Exit codes: 0 success, 1 other failure, 2 bad usage
// or invalid input (see internal/cli). To add a subcommand (`agent`,
// `job run`, `alloc pause`, `run`), add one entry to the table in
// commands(); multi-word names route by their words.
//
// The binary embeds the time zone database (time/tzdata, SPEC SCHED-4), so
// zones resolve the same on machines without /usr/share/zoneinfo.
//
// Run it without installing: go run ./cmd/conform schedule --help
package main
