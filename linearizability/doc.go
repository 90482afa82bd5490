// Package linearizability checks histories of concurrent operations taken
// from a run's trace against sequential models, with porcupine
// (github.com/anishathalye/porcupine), and draws porcupine's HTML
// visualization of a failing history.
//
// Two models, each checked one partition (independent object) at a time:
//
//   - CheckHookResources: the hook resources of one alloc incarnation
//     (SPEC §8). SetMounts replaces the alias → mount source map whole,
//     GetMounts reads it and reports, as HOOKRES-3's sorted check does, the
//     first missing alias. A reader must see the empty map or a complete
//     map that was set, never a partial one (HOOKRES-4).
//   - CheckServerView: the server's record of one alloc (SPEC §9), a
//     register written by StoreState (a Node.UpdateAlloc delivering the
//     client's state) and read by ReadState. A read that sees an older
//     value after a newer store completed is Illegal (SYNC-5.4).
//
// A history is built as follows:
//
//  1. One Partition per object, keyed "<alloc>/<incarnation>" for hook
//     resources and by alloc ID for the server view (PartitionServerView).
//  2. One Op per call, with logical Call and Return times (virtual-time
//     nanoseconds or a sequence number); intervals are closed.
//  3. A call that failed or whose effect is uncertain (a crash mid-call, a
//     timed-out RPC) returns Open: it may take effect at any point after
//     its call, or never. A write that certainly had no effect is left out.
//  4. Faults and crashes become Annotations, per partition or run-wide
//     (Options.Annotations); they are drawn, never checked.
//
// Verdicts are three-valued. Ok: every partition has a linearization.
// Illegal: one has none, and Result.Key names the first by key. Unknown:
// some partition ran out of its Budget (Options.Budget, DefaultBudget
// when zero) and none was Illegal. Unknown is not a pass: callers report
// it as "not proven", with the seed, and never count it as Ok; Result's
// Exhausted says which budget ran out and the numbers, and that it is a
// limit of the suite, not a fault of the runner.
//
// The budget counts work, not time: operations per partition, porcupine's
// model steps and its search states. A check runs inside the run's
// testing/synctest bubble, where a real-time limit (porcupine's, a
// time.After) is virtual and never fires while the check computes, and
// counting keeps the verdict the same on every machine.
//
// Checking is exponential in the operations that overlap in time.
// MaxInFlight measures that; callers keep each partition near
// InFlightBudget (8) operations in flight, cutting or sampling long runs,
// rather than leaning on the budget.
package linearizability
