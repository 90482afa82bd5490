// Package cli holds what every conform subcommand shares: the exit-code
// contract, the usage-error marker, flag parsing that prints help to stdout,
// and the one place where a subcommand's error is written to stderr.
//
// Exit codes (gotestsum style, documented in every --help):
//
//	0  success (also after printing --help)
//	1  the command failed for another reason (I/O, a runner, a failed suite)
//	2  bad usage or invalid input (unknown flag, bad value, invalid schedule)
//	3  the tool itself failed (conform run: a generated module does not
//	   build, the suite reported nothing)
//
// A subcommand is a function with the shape of [RunFunc]: it parses its own
// flag.FlagSet, writes results to stdout, and returns an error; it marks
// usage or input errors with [Usage] or [Usagef] and never calls os.Exit.
// The router in package main turns the error into an exit code with [Report].
package cli
