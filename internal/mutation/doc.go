// Command mutation measures how much of the reference runner the
// conformance suite really checks: it generates mutants of the runner's
// source (impl/allocrunner, impl/taskrunner, impl/client, impl/hookstats,
// impl/hookres), judges each one by the exported suite alone, and writes
// the score and every survivor to reports/mutation.md. That is its one
// job; it is not part of make test or CI (make mutation, minutes to an
// hour).
//
// Usage:
//
//	go run ./internal/mutation [-sample N -seed S] [-only REGEXP] [-checks N] [-list]
//	    [-parallel N] [-timeout D] [-resume FILE] [-report FILE]
//
// # Mutants
//
// The mutator is go/ast over the packages' non-test files as go list
// sees them (build constraints applied), read when the command starts.
// Each mutant is one replacement of a byte range of one file, made by one
// of the operators:
//
//	cond-negate    == ↔ !=, < → >=, <= → >, > → <=, >= → <
//	cond-boundary  < ↔ <=, > ↔ >=
//	not-drop       !x → x
//	and-or         && ↔ ||
//	arith          + ↔ -, * ↔ /, += ↔ -=, *= ↔ /=, ++ ↔ --
//	const-flip     an integer literal 0 → 1, 1 → 0
//	call-drop      a call statement removed
//	assign-drop    an assignment (=, op=, ++, --; never :=) removed
//	go-drop        go f() → f()
//	defer-drop     defer f() → f()
//
// A mutant's ID is file:line:col:operator (the mutated token's position
// in the unmutated file); its diff is the touched line before → after.
// Mutants are enumerated in file-name order, then position, then the
// order above. Calls of a logger's level methods (x.logger.Warn(...),
// Trace, Debug, Info, Error), their arguments and the condition of an if
// whose whole body is such calls are not mutated (-logs mutates them):
// what a runner logs is outside the contract, and no check can see it.
// Return values are not swapped for zero values.
//
// -sample N draws N mutants with -seed: each mutant's place in the draw
// is SHA-256 of the seed and its ID, so a draw is the same on any
// machine and a mutant keeps its place as the code around it changes.
// Every mutant drawn is first type-checked in process (go/types against
// its dependencies' export data from go list -export); one that does not
// compile is invalid, is recorded as such, and the draw goes on until N
// compile. -list prints the selection and exits.
//
// # The judge
//
// The unmutated tree is judged first and must pass. Each mutant's file is
// written to a temporary directory and the suite's test binary is built
// with go test -c -overlay, an overlay file mapping the original path to
// the mutated copy, so that the tree is never written; a mutant the
// compiler rejects is invalid too. The binary runs from the suite's
// directory on TestReferenceConforms and
// TestMinimalConformsToClientCommunication only, the tests that run
// properties.Run on the built-in runners (the reference runner; the
// minimal runner on the reference node client): the exported suite and
// nothing else, never impl's own unit tests, with -failfast (the first
// failing property is the verdict: a mutant that breaks every scenario
// would spend minutes shrinking one failure per property). The suite
// failing kills the mutant; passing, it survives; a run past -timeout
// (default ten times the unmutated run, at least a minute) is killed and
// counted as a TIMEOUT, which kills the mutant too. The suite's own
// budget (-allocsim.budget) is set beyond that limit, so that a slowed
// mutant never passes on fewer checks.
//
// # Results and report
//
// Verdicts go to a results file (-results, default
// reports/latest/mutation.json) after every mutant; -resume FILE reuses
// the verdicts of FILE for the mutants whose ID and diff are unchanged and
// judges the rest. The report gives the counts (generated, invalid,
// killed, timeout, survived), the score (killed + timeout) / (killed +
// timeout + survived − equivalent), the time per mutant and every
// survivor with its diff and a column "accounted for". A survivor is
// equivalent only when internal/mutation/equivalent.txt argues it: lines
// "ID@pin argument", the argument being why no runner's user could tell
// the mutant from the runner; gaps.txt lists open survivors alike. The
// pin (Mutant.Pin, printed by -list) fingerprints the mutation by its
// function and diff: an ID is a position, and once the source moves it
// names another mutant, so an annotation whose pin is not its ID's
// mutant's today is not applied and the report lists it to revisit.
package main
