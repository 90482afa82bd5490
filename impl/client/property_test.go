package client

import (
	"fmt"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"pgregory.net/rapid"
)

// syncStep is one step of a generated sync scenario: let wait pass, then
// have runner alloc push a new version, and maybe fail the next RPCs.
type syncStep struct {
	wait      time.Duration
	alloc     int
	failNext  int
	setUrgent bool
}

type syncScenario struct {
	allocs int
	urgent bool // whether any runner may classify Urgent
	steps  []syncStep
}

func drawScenario(t *rapid.T) syncScenario {
	sc := syncScenario{
		allocs: rapid.IntRange(1, 3).Draw(t, "allocs"),
		urgent: rapid.Bool().Draw(t, "urgent"),
	}
	n := rapid.IntRange(1, 40).Draw(t, "steps")
	for i := range n {
		sc.steps = append(sc.steps, syncStep{
			wait:      time.Duration(rapid.IntRange(0, 30).Draw(t, fmt.Sprintf("wait%d", i))) * 50 * ms,
			alloc:     rapid.IntRange(0, sc.allocs-1).Draw(t, fmt.Sprintf("alloc%d", i)),
			failNext:  rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("fail%d", i)) / 2, // mostly 0
			setUrgent: sc.urgent && rapid.Bool().Draw(t, fmt.Sprintf("urgent%d", i)),
		})
	}
	return sc
}

// pushRecord is when a version of an alloc was buffered.
type pushRecord struct {
	at      time.Duration
	version int
	urgent  bool
}

// syncOutcome is what a scenario run observed.
type syncOutcome struct {
	calls  []updateCall
	pushes map[string][]pushRecord
	failed bool // failures were injected
}

func allocName(i int) string { return fmt.Sprintf("alloc-%d", i) }

func runScenario(t *testing.T, sc syncScenario) syncOutcome {
	out := syncOutcome{pushes: map[string][]pushRecord{}}
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.ff.configure = func(fr *fakeRunner) { fr.quiet = true }
		for i := range sc.allocs {
			r.srv.put(testAlloc(allocName(i), 1))
		}
		r.start()
		synctest.Wait()
		elapsed := time.Duration(0)
		version := 0
		for _, st := range sc.steps {
			if st.wait > 0 {
				r.advance(st.wait)
				elapsed += st.wait
			}
			if st.failNext > 0 {
				out.failed = true
				r.srv.with(func(s *fakeServer) { s.failUpdates += st.failNext })
			}
			version++
			id := allocName(st.alloc)
			fr := r.ff.runner(id)
			prio := syncpolicy.Typical
			if st.setUrgent {
				prio = syncpolicy.Urgent
			}
			fr.setPriority(prio)
			fr.push(structs.AllocClientStatusRunning, strconv.Itoa(version))
			out.pushes[id] = append(out.pushes[id], pushRecord{at: elapsed, version: version, urgent: st.setUrgent})
		}
		// Heal and let everything flush (SYNC-5.3).
		r.srv.with(func(s *fakeServer) { s.failUpdates = 0 })
		r.advanceBy(12*time.Second, 500*ms, nil)
		out.calls = r.srv.allUpdates()
		r.shutdown()
	})
	return out
}

// TestSYNC5_Properties checks SYNC-5.1..5.4 and the retry delay on
// generated scenarios: pushes at random times, random urgency, random RPC
// failures.
func TestSYNC5_Properties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		sc := drawScenario(rt)
		out := runScenario(t, sc)

		// SYNC-3: batches are sorted by alloc ID and carry no evals.
		for _, c := range out.calls {
			for i := 1; i < len(c.req.Alloc); i++ {
				if c.req.Alloc[i-1].ID >= c.req.Alloc[i].ID {
					rt.Fatalf("RPC @%v: batch not sorted by alloc ID: %v", c.at, versions(c))
				}
			}
			if len(c.req.Evals) != 0 {
				rt.Fatalf("RPC @%v: evals set", c.at)
			}
		}
		// SYNC-5.2: without Urgent updates, RPC starts are >= 1 s apart;
		// after a failure the retry starts 5-10 s later.
		for i := 1; i < len(out.calls); i++ {
			gap := out.calls[i].at - out.calls[i-1].at
			if out.calls[i-1].failed && (gap < syncpolicy.RetryBase || gap >= syncpolicy.RetryBase+syncpolicy.RetryJitter) {
				rt.Fatalf("retry %v after the failed RPC @%v, want [5s, 10s)", gap, out.calls[i-1].at)
			}
			if !sc.urgent && gap < time.Second {
				rt.Fatalf("RPCs @%v and @%v are %v apart without urgent updates (SYNC-5.2)", out.calls[i-1].at, out.calls[i].at, gap)
			}
		}
		// SYNC-5.4: per alloc, versions the server stored never go back.
		// SYNC-5.3: the server's last state of each alloc is the latest.
		last := map[string]int{}
		for _, c := range out.calls {
			if c.failed {
				continue
			}
			for _, a := range c.req.Alloc {
				v, _ := strconv.Atoi(a.ClientDescription)
				if v < last[a.ID] {
					rt.Fatalf("RPC @%v: %s version %d after %d (SYNC-5.4)", c.at, a.ID, v, last[a.ID])
				}
				last[a.ID] = v
			}
		}
		for id, ps := range out.pushes {
			if want := ps[len(ps)-1].version; last[id] != want {
				rt.Fatalf("%s: server has version %d, client's latest is %d (SYNC-5.3)", id, last[id], want)
			}
		}
		// SYNC-5.1: without failures, an urgent version (or a newer one)
		// reaches the server within one tick (200 ms) of being buffered,
		// provided it is still the buffered, urgent state at that tick
		// (no newer push of its alloc within the 200 ms).
		if !out.failed {
			for id, ps := range out.pushes {
				for i, p := range ps {
					if !p.urgent || (i+1 < len(ps) && ps[i+1].at < p.at+syncpolicy.TickInterval) {
						continue
					}
					if at, ok := deliveredBy(out.calls, id, p.version); !ok || at > p.at+syncpolicy.TickInterval {
						rt.Fatalf("%s: urgent version %d buffered @%v, delivered @%v (ok=%v) (SYNC-5.1)", id, p.version, p.at, at, ok)
					}
				}
			}
		}
	})
}

// deliveredBy is when the server first stored version v or newer of id.
func deliveredBy(calls []updateCall, id string, v int) (time.Duration, bool) {
	for _, c := range calls {
		if c.failed {
			continue
		}
		for _, a := range c.req.Alloc {
			if a.ID != id {
				continue
			}
			if got, _ := strconv.Atoi(a.ClientDescription); got >= v {
				return c.at, true
			}
		}
	}
	return 0, false
}
