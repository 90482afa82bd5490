// Package hookres holds the hook resources of one alloc runner (SPEC §8):
// the state that alloc hooks produce and task hooks consume, today the CSI
// mount points that the csi_hook prerun builds and the volumes prestart
// reads.
//
// Contract (HOOKRES-1..4):
//
//  1. The alloc runner creates exactly one *HookResources in its
//     constructor, before any task runner, and hands the same pointer to
//     every task runner at construction. It is never nil and never
//     replaced (HOOKRES-1). The zero value is ready to use.
//  2. Its fields are private; every access goes through a method that
//     holds its RW lock (HOOKRES-1).
//  3. SetCSIMounts replaces the whole map atomically with a deep copy of
//     its argument; GetCSIMounts returns a deep copy, initially empty and
//     never nil (HOOKRES-2). Neither side's later mutation leaks into the
//     other, so readers see the empty map or one complete map that was
//     set, never a partial one (HOOKRES-4).
//  4. There is deliberately no "update one entry" method: callers build
//     the complete map and set it once; caller-side read-modify-write is
//     forbidden (HOOKRES-2).
//
// Package hookrestest is the conformance suite of such stores; this one
// passes it, and a runner's own store proves itself with it.
package hookres
