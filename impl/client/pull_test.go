package client

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestPullDiff covers the diff of each pull: new → built, persisted and
// run; higher AllocModifyIndex → Update; `unknown` → Reconnect; same index
// → nothing; client-terminal new alloc → skipped; gone → Destroy.
func TestPullDiff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1))
		r.start()
		synctest.Wait()
		a := r.ff.runner("a")
		must.Eq(t, []string{"run"}, a.callLog())
		stored, _, err := r.db.GetAllAllocations()
		must.NoError(t, err)
		must.Len(t, 1, stored)
		must.Eq(t, "a", stored[0].ID)

		r.srv.put(testAlloc("a", 2))
		synctest.Wait()
		done := testAlloc("b", 1)
		done.ClientStatus = structs.AllocClientStatusComplete
		r.srv.put(done)
		synctest.Wait()
		r.srv.put(testAlloc("a", 2)) // index bump, same AllocModifyIndex
		synctest.Wait()
		unknown := testAlloc("a", 3)
		unknown.ClientStatus = structs.AllocClientStatusUnknown
		r.srv.put(unknown)
		synctest.Wait()
		must.Eq(t, []string{"run", "update:2", "reconnect:3"}, a.callLog())
		must.Eq(t, []string{"a"}, r.ff.buildLog())

		r.srv.remove("a")
		synctest.Wait()
		must.Eq(t, []string{"run", "update:2", "reconnect:3", "destroy"}, a.callLog())
		_, ok := r.client.AllocRunner("a")
		must.False(t, ok)
		<-a.WaitCh() // Run returned after Destroy

		// The servers place it again: a new runner is built.
		r.srv.put(testAlloc("a", 4))
		synctest.Wait()
		must.Eq(t, []string{"a", "a"}, r.ff.buildLog())
		must.True(t, a != r.ff.runner("a"))
		r.shutdown()
	})
}

// TestAR3_FactoryErrorReportedFailed: a factory error reports the alloc
// failed (SYNC-1) and the alloc is not rebuilt while the servers keep it;
// once it left the servers it may be built again.
func TestAR3_FactoryErrorReportedFailed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		boom := errors.New("boom")
		r.ff.failFor = map[string]error{"bad": boom}
		r.srv.put(testAlloc("bad", 1))
		r.start()
		r.advance(time.Second)
		sent := r.srv.sent()
		must.Len(t, 1, sent)
		must.Eq(t, time.Second, sent[0].at) // no runner: never urgent
		got := sent[0].req.Alloc[0]
		must.Eq(t, structs.AllocClientStatusFailed, got.ClientStatus)
		must.Eq(t, "failed to build alloc runner: boom", got.ClientDescription)

		r.srv.put(testAlloc("bad", 2), testAlloc("ok", 1))
		synctest.Wait()
		must.Eq(t, []string{"bad", "ok"}, r.ff.buildLog())

		r.srv.remove("bad")
		synctest.Wait()
		r.ff.failFor = nil
		r.srv.put(testAlloc("bad", 3))
		synctest.Wait()
		must.Eq(t, []string{"bad", "ok", "bad"}, r.ff.buildLog())
		r.shutdown()
	})
}

// TestAR3_NilRunnerIsAFailure: a factory returning neither runner nor
// error is reported like a factory error.
func TestAR3_NilRunnerIsAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("x", 1))
		r.startWith(func(o *interfaces.ClientOptions) {
			o.AllocRunnerFactory = func(*interfaces.Config) (interfaces.AllocRunner, error) { return nil, nil }
		})
		r.advance(time.Second)
		sent := r.srv.sent()
		must.Len(t, 1, sent)
		must.Eq(t, fmt.Sprintf("failed to build alloc runner: %v", "factory returned no runner"), sent[0].req.Alloc[0].ClientDescription)
		r.shutdown()
	})
}

// TestPullBackoff: failed pulls retry after 1 s, 2 s, 4 s on the clock;
// after a success the next pull carries the reply's index.
func TestPullBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.with(func(s *fakeServer) { s.pullErrs = 3 })
		r.start()
		r.advanceBy(8*time.Second, 500*ms, nil)
		var got []string
		for _, p := range r.srv.pullCalls() {
			got = append(got, fmt.Sprintf("%v@%d", p.at, p.minIndex))
		}
		must.Eq(t, []string{"0s@0", "1s@0", "3s@0", "7s@0", "7s@1"}, got)
		r.shutdown()
	})
}

// TestPullBackoffCapped: the pull backoff doubles up to 30 s.
func TestPullBackoffCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.with(func(s *fakeServer) { s.pullErrs = 8 })
		r.start()
		r.advanceBy(200*time.Second, time.Second, nil)
		var gaps []time.Duration
		calls := r.srv.pullCalls()
		for i := 1; i < 9; i++ {
			gaps = append(gaps, calls[i].at-calls[i-1].at)
		}
		s := time.Second
		must.Eq(t, []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 30 * s, 30 * s, 30 * s}, gaps)
		r.shutdown()
	})
}

// TestPullNoChangeIsIgnored: a reply whose index does not exceed
// MinQueryIndex changes nothing and the next pull waits 1 s.
func TestPullNoChangeIsIgnored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1))
		r.srv.with(func(s *fakeServer) { s.noBlock = true })
		r.ff.configure = func(fr *fakeRunner) { fr.quiet = true } // no UpdateAlloc bumps the index
		r.start()
		r.advanceBy(3*time.Second, 500*ms, nil)
		var at []time.Duration
		for _, p := range r.srv.pullCalls() {
			at = append(at, p.at)
		}
		must.Eq(t, []time.Duration{0, 0, time.Second, 2 * time.Second, 3 * time.Second}, at)
		must.Eq(t, []string{"a"}, r.ff.buildLog())
		must.Eq(t, []string{"run"}, r.ff.runner("a").callLog())
		r.shutdown()
	})
}

// fetchLog renders the fake server's Alloc.GetAllocs calls as
// "<at> [ids] @<MinQueryIndex>".
func fetchLog(s *fakeServer) []string {
	var out []string
	for _, f := range s.fetchCalls() {
		out = append(out, fmt.Sprintf("%v %v @%d", f.at, f.ids, f.minIndex))
	}
	return out
}

// TestPullFetchesOnlyWhatMoved: Node.GetClientAllocs is an index map and
// Alloc.GetAllocs fetches only the allocs that are new or whose
// AllocModifyIndex moved; an index bump that moves no alloc (the
// client's own updates, here) fetches nothing; a client-terminal new
// alloc is fetched once, and again only when its index moves.
func TestPullFetchesOnlyWhatMoved(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 3), testAlloc("b", 5))
		r.start()
		r.advance(time.Second) // the runners' updates bump the server's index
		must.Eq(t, []string{"0s [a b] @4"}, fetchLog(r.srv))
		must.Greater(t, 1, len(r.srv.pullCalls()))

		r.srv.put(testAlloc("a", 6))
		synctest.Wait()
		done := testAlloc("c", 7)
		done.ClientStatus = structs.AllocClientStatusComplete
		r.srv.put(done)
		synctest.Wait()
		r.srv.put(testAlloc("b", 5)) // an index bump, no alloc moved
		synctest.Wait()
		must.Eq(t, []string{"0s [a b] @4", "1s [a] @5", "1s [c] @6"}, fetchLog(r.srv))
		must.Eq(t, []string{"a", "b"}, r.ff.buildLog())
		must.Eq(t, []string{"run", "ack", "update:6"}, r.ff.runner("a").callLog())

		done = testAlloc("c", 8)
		done.ClientStatus = structs.AllocClientStatusComplete
		r.srv.put(done)
		synctest.Wait()
		must.Eq(t, []string{"0s [a b] @4", "1s [a] @5", "1s [c] @6", "1s [c] @7"}, fetchLog(r.srv))
		must.Eq(t, []string{"a", "b"}, r.ff.buildLog())
		r.shutdown()
	})
}

// TestPullFetchFailureRetries: a failed Alloc.GetAllocs applies nothing
// of the view and backs off like a failed pull (1 s, 2 s); the pull is
// made again from the same MinQueryIndex, and the servers count as
// contacted only once a whole pull succeeded.
func TestPullFetchFailureRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1))
		r.srv.with(func(s *fakeServer) { s.fetchErrs = 2 })
		r.start()
		synctest.Wait()
		must.Eq(t, []string(nil), r.ff.buildLog())
		must.False(t, r.client.contact.done(), must.Sprint("servers contacted before a pull succeeded"))
		r.advanceBy(3*time.Second, 500*ms, nil)
		must.Eq(t, []string{"0s [a] @0", "1s [a] @0", "3s [a] @0"}, fetchLog(r.srv))
		var pulls []string
		for _, p := range r.srv.pullCalls() {
			pulls = append(pulls, fmt.Sprintf("%v@%d", p.at, p.minIndex))
		}
		must.Eq(t, []string{"0s@0", "1s@0", "3s@0"}, pulls[:3])
		must.Eq(t, []string{"a"}, r.ff.buildLog())
		must.True(t, r.client.contact.done())
		r.shutdown()
	})
}
