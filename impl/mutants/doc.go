// Package mutants holds deliberately wrong runners, each the reference
// runner with one known defect, that the conformance suite must catch.
//
// A mutant stands outside the code it breaks (STYLE 18): the reference
// runners take each SPEC decision as a policy defaulting to model/'s rule
// (allocrunner.Policies, taskrunner.Policies, client.Policies), and a
// mutant hands one of them a wrong policy, a changed Config or options (a
// wrong value, a wrapped port: DriverManager, RPCClient, StateUpdater), or
// wraps the contract interfaces, up to a path of its own around the
// reference (the #16623 restore path, restore16623.go). Everything but
// the defect is the reference's, so a property that fails on a mutant
// fails because of the one rule it breaks.
//
// One mutant is one row of the table in mutants.go: its name, the SPEC
// IDs it breaks, the properties made to catch it and those that may fail
// with them, the real bug it mirrors, and its construction. The suite's
// self-test (properties: TestMutantsAreCaught) and the reports read the
// rows. Adding a mutant is adding a row there, its construction in the
// row or, past a few lines, below the table; a rule that is not yet a
// policy becomes one first (a Policies field defaulting to model/'s).
//
// sched-nomad-window follows SPEC SCHED-10's description of Nomad
// 1.8–1.10 (see evalNomadWindow), not Nomad's source.
package mutants
