// Package hookrestest is the conformance suite of hook-resource stores
// (SPEC §8, HOOKRES-1, HOOKRES-2, HOOKRES-4), in the style of
// testing/fstest.TestFS: it checks one store through its two methods, not
// through the prestart hooks that happen to read it. The reference store
// (package hookres) passes it, and it is how a runner's own store proves
// itself, from that runner's test:
//
//	func TestHookResources(t *testing.T) {
//		hookrestest.Run(t, myrunner.NewHookResources) // any func() S, S a Store
//	}
//
// Check(newStore) returns every violation it finds (errors.Join), each
// "<Check> (<SPEC-ID>): Op(args) = got, want x"; Run is a thin wrapper with
// one subtest per check. newStore is called for a fresh store per check
// (several for some checks).
//
// What it provokes (HOOKRES-4's list, short of a whole runner):
//
//  1. InitialEmpty: a new store's GetCSIMounts is an empty, non-nil map.
//  2. SetGet: a set map reads back equal, as often as it is read.
//  3. Replace: a set replaces the whole map, never merges into the old one;
//     an empty or nil set reads back as an empty, non-nil map.
//  4. GetCopies: mutating a returned map (add, delete, replace or nil an
//     entry) leaves the store unchanged.
//  5. SetCopies: mutating the map passed to SetCSIMounts after the call
//     leaves the store unchanged.
//  6. DeepCopy: the *CSIMountPoint values are copied too: no two gets, and
//     no get and the set argument, share one, and mutating Source or IsDevice
//     through either leaves the store unchanged.
//  7. Concurrent: many goroutines set, get and mutate what they set and got;
//     every read is a complete map that was set, the last map is some
//     writer's last set, and nothing panics. Under -race the race detector
//     judges the store's locking: a store without a lock passes the other
//     checks and fails only there.
//  8. AtomicReads: readers racing writers that set maps of distinct sizes and
//     contents see exactly one of those maps, never a partial or merged one.
//
// A panic in the store is a violation of its check, never a crashed suite.
// Checks 7 and 8 run only on a store that passes checks 4 to 6: a store that
// shares maps with its callers turns concurrent use into the runtime's fatal
// "concurrent map read and map write", which no test can report; Run says
// it skipped them, and the failing copy check is the report.
//
// The suite proves itself the fstest way: its own tests run Check on
// deliberately broken stores and require the right check to report each.
package hookrestest
