// Package noderunner is a runner written outside the allocsim module, the
// way a node simulator's authors would write one: an alloc runner with
// the minimal behaviour of SPEC AR-3 (Run reports the alloc running once;
// no tasks), built on the contract packages only (impl/interfaces and
// model/), and checked by the conformance suite from its own test
// (conform_test.go) with the client-communication profile.
//
// TestImportsOnlyTheContract holds the package to that: a runner in
// another module implements the contract without importing the
// reference runner.
package noderunner
