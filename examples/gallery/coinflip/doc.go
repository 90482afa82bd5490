// Package coinflip is a foreign runner shape for the conformance suite's
// own tests: a correct alloc runner (Run reports the alloc running once,
// like examples/noderunner) that also checkpoints the alloc to the state
// DB (Config.StateDB.PutAllocation) when Run starts it, but only on about
// half of the runs, decided by a coin flip on math/rand's global source
// (rand.IntN(2)) to spread the start-up writes of a big fake node. It
// never uses the injected Config.Rand (interfaces rule 2).
//
// The write is observable: the world holds and traces every state DB
// write, so two runs of one seed differ in their trace whenever a flip
// differs.
//
// Verdict the suite must give, under the client-communication profile on
// the reference node client: fails with a DET-4 nondeterminism verdict
// (two runs of the same seed whose traces differ, with the first
// differing record: a statedb write of the alloc present in one run and
// not in the other).
package coinflip
