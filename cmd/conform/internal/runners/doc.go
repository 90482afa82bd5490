// Package runners is the conform tool's list of built-in runners (the
// reference runner, the minimal runner and every mutant of impl/mutants,
// each with what the suite expects of it) and `conform runners`, which
// prints them one per line. `conform run --runner NAME` (issue 12) looks
// names up here.
package runners
