// Package mutants holds deliberately wrong runners, each the reference
// runner with one known defect, that the conformance suite must catch.
package mutants
