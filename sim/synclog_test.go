package sim

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/shoenig/test/must"
)

// TestSyncLog: the world logs every UpdateAlloc with what it carried and
// each incarnation's first contact, and no blocked push of the reference
// runner; the restarted client resends nothing (its restored state was
// acknowledged, STATE-3).
func TestSyncLog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		plan := faults.Plan{{Class: faults.ClientCrash, At: 10 * time.Second, For: 5 * time.Second}}
		w, err := New(Config{Scenario: simpleScenario(plan, simpleJob("web", 1, nil)), Factory: referenceFactory()})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		w.Advance(30 * time.Second)
		calls := w.SyncCalls(0)
		must.SliceNotEmpty(t, calls)
		first, ok := w.FirstContact(1)
		must.True(t, ok)
		second, ok := w.FirstContact(2)
		must.True(t, ok)
		must.True(t, second.At.After(first.At))
		var incs []int
		for i, c := range calls {
			must.True(t, c.Returned, must.Sprintf("call %d in flight", i))
			must.True(t, c.Seq > first.Seq && c.Seq < c.ReturnSeq)
			must.SliceNotEmpty(t, c.Allocs)
			must.NotNil(t, c.Allocs[0].State)
			if c.OK() {
				must.True(t, c.Return.Sub(c.Start) >= 50*time.Millisecond, must.Sprint("the server's commit window"))
			}
			if n := len(incs); n == 0 || incs[n-1] != c.Incarnation {
				incs = append(incs, c.Incarnation)
			}
		}
		must.Eq(t, []int{1}, incs)
		must.Eq(t, calls[1:], w.SyncCalls(1))
		// Copies of the calls, sharing the log's states (read-only):
		// changing a returned call's fields changes nothing logged.
		calls[0].Err = "changed"
		must.NotEq(t, "changed", w.SyncCalls(0)[0].Err)
		must.True(t, calls[0].Allocs[0].State == w.SyncCalls(0)[0].Allocs[0].State)
		must.SliceEmpty(t, w.BlockedPushes())
		inc, running := w.Incarnation()
		must.EqOp(t, 2, inc)
		must.True(t, running)
		must.NoError(t, w.Close())
	})
}

// TestBlockedPushes: with a producer that waits for the UpdateAlloc in
// flight (the sync-blocking-producer mutant) and calls that hang, a push
// is seen in flight at a settled instant, then returned late.
func TestBlockedPushes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, ok := mutants.Lookup("sync-blocking-producer")
		must.True(t, ok)
		plan := faults.Plan{{Class: faults.RPCLatency, Rate: 1, Max: 30 * time.Second}}
		sc := simpleScenario(plan, simpleJob("web", 1, map[string]any{"run_for": "2s", "exit_code": 1}))
		w, err := New(Config{Scenario: sc, Factory: m.Factory})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		var inflight Push
		w.RunUntil(func() bool {
			bp := w.BlockedPushes()
			if n := len(bp); n > 0 && bp[n-1].InFlight {
				inflight = bp[n-1]
				return true
			}
			return false
		}, time.Minute)
		must.True(t, inflight.InFlight, must.Sprint("no push blocked"))
		w.Advance(time.Minute)
		var found bool
		for _, p := range w.BlockedPushes() {
			if p.Called.Equal(inflight.Called) && p.Alloc == inflight.Alloc {
				found = !p.InFlight && p.Returned.After(p.Called)
			}
		}
		must.True(t, found, must.Sprint("the blocked push returned late"))
		// The delayed pushes carry stamps of earlier instants: late
		// pushes (SYNC-1).
		must.ErrorContains(t, w.Close(), "SYNC-1 (runner \"sync-blocking-producer\"")
	})
}

// TestContactJoinsFetch: an incarnation's contact is its first successful
// alloc pull: a Node.GetClientAllocs alone, or with the Alloc.GetAllocs
// it starts at the instant it returned (then at that call's return, and
// none if it failed); a fetch at a later instant, or after another pull
// started, leaves the contact where it was.
func TestContactJoinsFetch(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	pull := func(l *syncLog, inc *incarnation, method string, begin, end int, err error) {
		l.callBegin(inc, method, nil, at(begin))
		l.callEnd(inc, method, nil, at(end), err)
	}
	contact := func(l *syncLog, inc int) (time.Time, bool) {
		c, ok := l.contacts[inc]
		return c.At, ok
	}
	var l syncLog
	one, two, three := &incarnation{n: 1}, &incarnation{n: 2}, &incarnation{n: 3}

	// One: the pull fetches; its first fetch fails, so the pull made
	// again counts, at its fetch's return.
	pull(&l, one, structs.RPCNodeGetClientAllocs, 0, 1, nil)
	pull(&l, one, structs.RPCAllocGetAllocs, 1, 2, errors.New("dropped"))
	_, ok := contact(&l, 1)
	must.False(t, ok)
	pull(&l, one, structs.RPCNodeGetClientAllocs, 3, 3, nil)
	pull(&l, one, structs.RPCAllocGetAllocs, 3, 5, nil)
	got, ok := contact(&l, 1)
	must.True(t, ok)
	must.Eq(t, at(5), got)
	pull(&l, one, structs.RPCNodeGetClientAllocs, 5, 6, nil)
	pull(&l, one, structs.RPCAllocGetAllocs, 6, 7, nil)
	got, _ = contact(&l, 1)
	must.Eq(t, at(5), got, must.Sprint("the first contact stays"))

	// Two: nothing to fetch; a later fetch is another pull's.
	pull(&l, two, structs.RPCNodeGetClientAllocs, 10, 11, nil)
	pull(&l, two, structs.RPCAllocGetAllocs, 12, 13, nil)
	got, _ = contact(&l, 2)
	must.Eq(t, at(11), got)

	// Three: a second pull returns at the contact's instant and fetches:
	// not the contact's pull.
	pull(&l, three, structs.RPCNodeGetClientAllocs, 20, 21, nil)
	pull(&l, three, structs.RPCNodeGetClientAllocs, 21, 21, nil)
	pull(&l, three, structs.RPCAllocGetAllocs, 21, 22, nil)
	got, _ = contact(&l, 3)
	must.Eq(t, at(21), got)
	must.True(t, l.contacts[1].Seq < l.contacts[2].Seq && l.contacts[2].Seq < l.contacts[3].Seq)
}
