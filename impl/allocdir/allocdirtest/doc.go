// Package allocdirtest is the conformance suite of alloc dirs (SPEC §6,
// ADIR-1..ADIR-5): one function, TestAllocDir, in the style of
// testing/fstest.TestFS and x/net/nettest.TestConn. Both implementations of
// package allocdir pass it, and it is how a third implementation proves
// itself:
//
//	func TestMyAllocDir(t *testing.T) {
//		allocdirtest.TestAllocDir(t, func(t *testing.T, clk *clock.Mock) interfaces.AllocDirFactory {
//			return myallocdir.Factory(t.TempDir(), clk)
//		})
//	}
//
// Each property is one named subtest; each check collects every violation
// it sees (errors.Join) as "Op(args) = got, want x (SPEC-ID)" and the
// subtest reports them. Every subtest runs in a testing/synctest bubble on a
// fresh *clock.Mock: polling checks call synctest.Wait before each
// mock.Add, so they are deterministic, and the bubble fails the subtest if
// a goroutine outlives its cancelled context.
//
// The suite proves itself the fstest way: its own tests run every check
// against deliberately broken alloc dirs and require the right one to fail.
package allocdirtest
