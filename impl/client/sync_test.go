package client

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

// TestSYNC5_1_UrgentRidesFirstTick: an Urgent update is sent on the first
// tick after it was buffered, not held for the 5th tick (SYNC-5.1), and
// the request has the SYNC-3 shape.
func TestSYNC5_1_UrgentRidesFirstTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.ff.configure = func(fr *fakeRunner) { fr.prio = syncpolicy.Urgent }
		r.srv.put(testAlloc("b", 1), testAlloc("a", 1))
		r.start()
		r.advance(200 * ms)
		sent := r.srv.sent()
		must.Len(t, 1, sent)
		must.Eq(t, 200*ms, sent[0].at)
		must.Eq(t, []string{"a@v1", "b@v1"}, versions(sent[0]))
		must.Eq(t, "global", sent[0].req.Region)
		must.SliceEmpty(t, sent[0].req.Evals)
		want := &structs.Allocation{ID: "a", NodeID: "node-1", ClientStatus: structs.AllocClientStatusRunning, ClientDescription: "v1"}
		if diff := cmp.Diff(want, sent[0].req.Alloc[0]); diff != "" {
			t.Fatalf("sent alloc is not the stripped alloc (-want +got):\n%s", diff)
		}

		// The next urgent update, buffered at 300 ms, rides the tick at
		// 400 ms (200 ms after the reply at 200 ms).
		r.advance(100 * ms)
		r.ff.runner("a").push(structs.AllocClientStatusComplete, "v2")
		r.advance(100 * ms)
		sent = r.srv.sent()
		must.Eq(t, []time.Duration{200 * ms, 400 * ms}, times(sent))
		must.Eq(t, []string{"a@v2"}, versions(sent[1]))

		// Success acknowledged exactly what was sent.
		acked := r.ff.runner("a").ackLog()
		must.Len(t, 2, acked)
		must.Eq(t, "v2", acked[1].ClientDescription)
		must.Eq(t, structs.AllocClientStatusComplete, acked[1].ClientStatus)
		r.shutdown()
	})
}

// TestSYNC5_2_TypicalOneSecondApart: without Urgent updates, RPCs start
// at least 1 s apart even when updates arrive every 100 ms, and the last
// state still reaches the server (SYNC-5.2, SYNC-5.3).
func TestSYNC5_2_TypicalOneSecondApart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1))
		r.start()
		version := 1
		r.advanceBy(10*time.Second, 100*ms, func(time.Duration) {
			version++
			r.ff.runner("a").push(structs.AllocClientStatusRunning, fmt.Sprintf("v%d", version))
		})
		r.advance(2 * time.Second) // quiet: the last state is flushed
		sent := r.srv.sent()
		must.SliceNotEmpty(t, sent)
		must.Eq(t, time.Second, sent[0].at) // 5th tick
		for i := 1; i < len(sent); i++ {
			gap := sent[i].at - sent[i-1].at
			must.GreaterEq(t, time.Second, gap, must.Sprintf("RPC %d at %v, previous at %v", i, sent[i].at, sent[i-1].at))
		}
		must.Eq(t, []string{fmt.Sprintf("a@v%d", version)}, versions(sent[len(sent)-1]))
		r.shutdown()
	})
}

// TestSYNC3_FailureRetry: a failed RPC re-inserts its entries unless a
// newer update arrived, keeps n, and the retry tick comes 5-10 s later;
// producers are not held meanwhile.
func TestSYNC3_FailureRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.ff.configure = func(fr *fakeRunner) { fr.prio = syncpolicy.Urgent }
		r.srv.put(testAlloc("a", 1), testAlloc("b", 1))
		r.srv.with(func(s *fakeServer) { s.failUpdates = 1 })
		r.start()
		r.advance(200 * ms) // first RPC fails
		r.advance(800 * ms)
		r.ff.runner("a").push(structs.AllocClientStatusRunning, "v2") // newer than the failed a@v1
		r.advanceBy(10*time.Second, 100*ms, nil)

		all := r.srv.allUpdates()
		must.Len(t, 2, all)
		must.True(t, all[0].failed)
		must.Eq(t, 200*ms, all[0].at)
		must.Eq(t, []string{"a@v1", "b@v1"}, versions(all[0]))
		delay := all[1].at - all[0].at
		must.Between(t, 5*time.Second, delay, 10*time.Second-1)
		must.False(t, all[1].failed)
		must.Eq(t, []string{"a@v2", "b@v1"}, versions(all[1]))
		r.shutdown()
	})
}

// TestSYNC3_RetryDelayFromSeed: the retry delay is drawn from the
// injected source: the same seed gives the same delay, and some other
// seed a different one (DET-1).
func TestSYNC3_RetryDelayFromSeed(t *testing.T) {
	delayFor := func(seed uint64) time.Duration {
		var d time.Duration
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t)
			r.seed = seed
			r.ff.configure = func(fr *fakeRunner) { fr.prio = syncpolicy.Urgent }
			r.srv.put(testAlloc("a", 1))
			r.srv.with(func(s *fakeServer) { s.failUpdates = 1 })
			r.start()
			r.advanceBy(11*time.Second, 100*ms, nil)
			all := r.srv.allUpdates()
			must.Len(t, 2, all)
			d = all[1].at - all[0].at
			r.shutdown()
		})
		return d
	}
	first := delayFor(1)
	must.Eq(t, first, delayFor(1))
	differs := false
	for seed := uint64(2); seed < 6 && !differs; seed++ {
		differs = delayFor(seed) != first
	}
	must.True(t, differs, must.Sprint("retry delay does not depend on the seed"))
}

// TestSYNC3_NothingBeforeContact: buffered updates, even urgent ones, are
// not sent before the first successful pull; the first tick after it
// sends them.
func TestSYNC3_NothingBeforeContact(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.ff.configure = func(fr *fakeRunner) { fr.prio = syncpolicy.Urgent }
		seedRestorable(t, r.db, testAlloc("a", 1))
		r.srv.put(testAlloc("a", 1))
		down := make(chan struct{})
		r.srv.with(func(s *fakeServer) { s.pullDown = down })
		r.start()
		r.advance(3100 * ms)
		must.SliceEmpty(t, r.srv.allUpdates())
		must.Eq(t, []string{"restore", "run"}, r.ff.runner("a").callLog())
		select {
		case <-r.ff.runner("a").cfg.ServersContactedCh:
			t.Fatal("servers contacted before any pull succeeded")
		default:
		}

		r.srv.with(func(s *fakeServer) { s.pullDown = nil })
		close(down)
		r.advance(100 * ms)
		sent := r.srv.sent()
		must.Eq(t, []time.Duration{3200 * ms}, times(sent))
		<-r.ff.runner("a").cfg.ServersContactedCh
		// Same AllocModifyIndex: no Update; the sent state is acknowledged.
		must.Eq(t, []string{"restore", "run", "ack"}, r.ff.runner("a").callLog())
		r.shutdown()
	})
}

// TestSYNC5_5_ProducersNeverBlock: while an RPC hangs, AllocStateUpdated
// returns at once, and the newest state is sent once the RPC returns.
func TestSYNC5_5_ProducersNeverBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.ff.configure = func(fr *fakeRunner) { fr.prio = syncpolicy.Urgent }
		hang := make(chan struct{})
		r.srv.with(func(s *fakeServer) { s.hang = hang })
		r.srv.put(testAlloc("a", 1))
		r.start()
		r.advance(200 * ms) // the RPC is now in flight and hangs
		must.Len(t, 0, r.srv.allUpdates())

		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range 1000 {
				r.ff.runner("a").push(structs.AllocClientStatusRunning, fmt.Sprintf("w%d", i))
			}
		}()
		synctest.Wait()
		select {
		case <-done:
		default:
			t.Fatal("AllocStateUpdated blocked while the RPC hangs")
		}

		r.advance(5 * time.Second) // no tick fires a second RPC meanwhile
		r.srv.with(func(s *fakeServer) { s.hang = nil })
		close(hang)
		r.advance(200 * ms)
		sent := r.srv.sent()
		must.Len(t, 2, sent)
		must.Eq(t, []string{"a@v1"}, versions(sent[0]))
		must.Eq(t, []string{"a@w999"}, versions(sent[1]))
		r.shutdown()
	})
}

// TestSYNC3_NoneDroppedAndRephased: updates classified None are dropped on
// a full-sync tick and nothing is sent.
func TestSYNC3_NoneDroppedAndRephased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.ff.configure = func(fr *fakeRunner) { fr.prio = syncpolicy.None }
		r.srv.put(testAlloc("a", 1))
		r.start()
		r.advance(2 * time.Second)
		must.SliceEmpty(t, r.srv.allUpdates())
		must.Eq(t, 0, r.client.updates.len())
		// A later Typical update is sent on the 5th tick after the rephase.
		r.ff.runner("a").setPriority(syncpolicy.Typical)
		r.ff.runner("a").push(structs.AllocClientStatusRunning, "v2")
		r.advance(time.Second)
		must.Len(t, 1, r.srv.sent())
		r.shutdown()
	})
}

// TestSYNC3_ClassifyWhileProducing: an update that arrives while a tick
// classifies (here from inside GetUpdatePriority, which the client calls
// without its buffer lock) makes the tick classify again, so the batch
// and its classification agree; a producer that never stops cannot stall
// the tick: the 3rd attempt ticks anyway, the update that arrived during
// it counted as having no runner (never urgent), so it waits for the 5th
// tick.
func TestSYNC3_ClassifyWhileProducing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pushes  int // pushes made from GetUpdatePriority
		wantAt  time.Duration
		wantVer string
	}{
		{"one racing update", 1, 200 * ms, "r1"},
		{"endless racing updates", 1000, time.Second, "r15"}, // 3 a tick
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t)
				n := 0
				r.ff.configure = func(fr *fakeRunner) {
					fr.prio = syncpolicy.Urgent
					fr.onPriority = func(fr *fakeRunner) {
						if n < tc.pushes {
							n++
							fr.push(structs.AllocClientStatusRunning, fmt.Sprintf("r%d", n))
						}
					}
				}
				r.srv.put(testAlloc("a", 1))
				r.start()
				r.advance(tc.wantAt)
				sent := r.srv.sent()
				must.Len(t, 1, sent)
				must.Eq(t, tc.wantAt, sent[0].at)
				must.Eq(t, []string{"a@" + tc.wantVer}, versions(sent[0]))
				r.shutdown()
			})
		})
	}
}

// TestSYNC3_ForcedTickKeepsNewerUpdate: when the buffer changed during each
// of the maxClassifyAttempts classifications, the last attempt ticks
// anyway; an update that arrived during it must not take the
// classification of the one it replaced. Here the runner's state returns
// to its acknowledged one ("S", None) during the 2nd attempt, and a new
// state "U" arrives during the 3rd: with S's None, the due tick would
// drop U from the buffer without sending it, and nothing would send it
// later (SYNC-3: None entries only are dropped; SYNC-5.3). Once sent, U
// is acknowledged to the runner, which still holds the alloc (SYNC-3's
// success step; SYNC-5/urgent-while-classifying seed 6056).
func TestSYNC3_ForcedTickKeepsNewerUpdate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		var racing []string // what each classification pushes, in turn
		r.ff.configure = func(fr *fakeRunner) {
			fr.quiet = true
			fr.classify = func(u *structs.Allocation) syncpolicy.Priority {
				if u.ClientDescription == "S" {
					return syncpolicy.None
				}
				return syncpolicy.Typical
			}
			fr.onPriority = func(fr *fakeRunner) {
				if len(racing) > 0 {
					v := racing[0]
					racing = racing[1:]
					fr.push(structs.AllocClientStatusRunning, v)
				}
			}
		}
		r.srv.put(testAlloc("a", 1))
		r.start()
		r.advance(900 * ms)
		// The tick at 1 s is the 5th: due, so it takes the buffer.
		racing = []string{"T", "S", "U"}
		r.ff.runner("a").push(structs.AllocClientStatusRunning, "S")
		r.advance(3 * time.Second)
		must.SliceEmpty(t, racing)
		var got []string
		for _, u := range r.srv.sent() {
			got = append(got, versions(u)...)
		}
		must.Eq(t, []string{"a@U"}, got)
		var acked []string
		for _, s := range r.ff.runner("a").ackLog() {
			acked = append(acked, s.ClientDescription)
		}
		must.Eq(t, []string{"U"}, acked)
		r.shutdown()
	})
}
