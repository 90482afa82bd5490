package syncpolicy

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"pgregory.net/rapid"
)

// syncModel drives a Buffer with random adds, ticks, failures and
// successes, and checks it against a deliberately naive re-statement of
// SYNC-1/SYNC-3 plus the SYNC-5 invariants the buffer is responsible for.
//
// Each update of an alloc carries a version in ClientDescription; a version
// is a distinct state, except that "readd" re-adds the latest state
// unchanged (a task-state callback that changed nothing), which is how None
// entries arise: an alloc whose runner acknowledged its latest state.
type syncModel struct {
	b         Buffer
	ids       []string
	latest    map[string]int          // newest version added per alloc
	urgent    map[string]map[int]bool // whether a version changed ClientStatus
	runner    map[string]bool         // whether the alloc has a runner
	acked     map[string]int          // acknowledged version (runner only)
	delivered map[string]int          // newest version the server received
	buf       map[string]int          // naive buffer: alloc → version
	inflight  *Batch                  // batch sent, not yet resolved
	sent      map[string]int          // versions of the inflight batch
	contacted bool                    // servers contacted (monotone)
	n         uint64                  // naive tick counter
	sinceOK   int                     // ticks since the last success
	history   map[string][]int        // versions the server received, in order
}

func newSyncModel(ids []string) *syncModel {
	m := &syncModel{
		ids: ids, latest: map[string]int{}, urgent: map[string]map[int]bool{},
		runner: map[string]bool{}, acked: map[string]int{}, delivered: map[string]int{},
		buf: map[string]int{}, history: map[string][]int{},
	}
	for _, id := range ids {
		m.urgent[id] = map[int]bool{}
		m.runner[id] = true
	}
	return m
}

func version(a *structs.Allocation) int {
	var v int
	if _, err := fmt.Sscanf(a.ClientDescription, "v%d", &v); err != nil {
		panic(fmt.Sprintf("bad version %q", a.ClientDescription))
	}
	return v
}

// class is the oracle's SYNC-2 view of version v of alloc id, as the
// runner would compute it against its acknowledged state.
func (m *syncModel) class(id string, v int) (Priority, bool) {
	switch {
	case !m.runner[id]:
		// The runner-less answer is ignored by the buffer; answer Urgent so
		// that a buffer which trusted it would be caught.
		return Urgent, false
	case m.acked[id] == v:
		return None, true
	case m.urgent[id][v]:
		return Urgent, true
	default:
		return Typical, true
	}
}

// effective is the priority SYNC-3 gives an entry.
func (m *syncModel) effective(id string, v int) Priority {
	p, runner := m.class(id, v)
	if !runner {
		return Typical
	}
	return p
}

func (m *syncModel) classifier() Classifier {
	return func(u *structs.Allocation) (Priority, bool) { return m.class(u.ID, version(u)) }
}

func (m *syncModel) add(t *rapid.T) {
	id := rapid.SampledFrom(m.ids).Draw(t, "id")
	m.latest[id]++
	v := m.latest[id]
	m.urgent[id][v] = rapid.Bool().Draw(t, "statusChanged")
	m.b.Add(upd(id, fmt.Sprintf("v%d", v)))
	m.buf[id] = v
}

func (m *syncModel) readd(t *rapid.T) {
	id := rapid.SampledFrom(m.ids).Draw(t, "id")
	v := m.latest[id]
	if v == 0 {
		t.Skip("never added")
	}
	m.b.Add(upd(id, fmt.Sprintf("v%d", v)))
	m.buf[id] = v
}

func (m *syncModel) toggleRunner(t *rapid.T) {
	id := rapid.SampledFrom(m.ids).Draw(t, "id")
	m.runner[id] = !m.runner[id]
}

func (m *syncModel) tick(t *rapid.T) {
	if m.inflight != nil {
		t.Skip("a batch is in flight")
	}
	if !m.contacted {
		m.contacted = rapid.Bool().Draw(t, "contact")
	}
	m.n++
	m.sinceOK++
	res := m.b.Tick(TickInput{ServersContacted: m.contacted, Classify: m.classifier()})
	if res.N != m.n {
		t.Fatalf("Tick().N = %d, want %d", res.N, m.n)
	}

	// The naive oracle.
	want, wantBatch := Hold, map[string]int(nil)
	anyUrgent := false
	for id, v := range m.buf {
		anyUrgent = anyUrgent || m.effective(id, v) == Urgent
	}
	if len(m.buf) > 0 && m.contacted && (m.n%5 == 0 || anyUrgent) {
		wantBatch = map[string]int{}
		for id, v := range m.buf {
			if m.effective(id, v) != None {
				wantBatch[id] = v
			}
		}
		clear(m.buf)
		want = Rephase
		if len(wantBatch) > 0 {
			want = Send
		}
	}
	if res.Action != want {
		t.Fatalf("tick %d: Tick().Action = %v (%v), want %v", m.n, res.Action, res.Reason, want)
	}
	got := map[string]int{}
	allocs := res.Batch.Allocs()
	for i, a := range allocs {
		got[a.ID] = version(a)
		if i > 0 && allocs[i-1].ID >= a.ID {
			t.Fatalf("tick %d: batch not sorted by alloc ID: %q before %q", m.n, allocs[i-1].ID, a.ID)
		}
	}
	if want == Send && !maps.Equal(got, wantBatch) {
		t.Fatalf("tick %d: batch = %v, want %v", m.n, got, wantBatch)
	}

	// SYNC-5.1: with servers contacted, an Urgent entry rides this tick.
	if m.contacted && anyUrgent && res.Action != Send {
		t.Fatalf("tick %d: urgent update held back: %v (%v)", m.n, res.Action, res.Reason)
	}
	// SYNC-5.2 in ticks: a send with nothing Urgent comes only on a
	// multiple of 5 ticks since the last success, so at least 5 after it.
	if res.Action == Send && !res.Batch.Urgent() && (m.sinceOK < 5 || m.sinceOK%5 != 0) {
		t.Fatalf("tick %d: non-urgent batch %d ticks after the last success", m.n, m.sinceOK)
	}
	if res.Action == Send {
		m.inflight, m.sent = &res.Batch, got
	}
}

func (m *syncModel) fail(t *rapid.T) {
	if m.inflight == nil {
		t.Skip("nothing in flight")
	}
	m.b.Failed(*m.inflight)
	for id, v := range m.sent {
		if _, newer := m.buf[id]; !newer {
			m.buf[id] = v
		}
	}
	m.inflight, m.sent = nil, nil
	if m.b.N() != m.n {
		t.Fatalf("Failed changed n to %d, want %d kept", m.b.N(), m.n)
	}
}

func (m *syncModel) succeed(t *rapid.T) {
	if m.inflight == nil {
		t.Skip("nothing in flight")
	}
	for _, e := range m.inflight.Entries() {
		id, v := e.Alloc.ID, version(e.Alloc)
		// SYNC-5.4: the server never receives an older state after a newer.
		if v < m.delivered[id] {
			t.Fatalf("alloc %s: server received v%d after v%d", id, v, m.delivered[id])
		}
		m.delivered[id] = v
		m.history[id] = append(m.history[id], v)
		if e.HasRunner {
			m.acked[id] = v
		}
	}
	m.b.Succeeded()
	m.n, m.sinceOK = 0, 0
	m.inflight, m.sent = nil, nil
}

// check is the invariant after every action.
func (m *syncModel) check(t *rapid.T) {
	if m.b.Len() != len(m.buf) {
		t.Fatalf("Buffer.Len() = %d, want %d (%v)", m.b.Len(), len(m.buf), m.buf)
	}
	for _, id := range m.ids {
		got, ok := m.b.Get(id)
		v, want := m.buf[id]
		if ok != want || (ok && version(got) != v) {
			t.Fatalf("alloc %s: buffered %v (%v), want v%d (%v)", id, got, ok, v, want)
		}
		latest := m.latest[id]
		if latest == 0 {
			continue
		}
		// SYNC-1/SYNC-3: the buffer only ever holds the newest state, and
		// the newest state is buffered, in flight or already delivered.
		if ok && version(got) != latest {
			t.Fatalf("alloc %s: buffer holds v%d, newest is v%d", id, version(got), latest)
		}
		if !ok && m.sent[id] != latest && m.delivered[id] != latest {
			t.Fatalf("alloc %s: newest v%d lost (in flight v%d, delivered v%d)",
				id, latest, m.sent[id], m.delivered[id])
		}
	}
}

// drain heals everything and ticks until the buffer is empty: every alloc's
// newest state must reach the server (SYNC-5.3 at the buffer's level).
func (m *syncModel) drain(t *rapid.T) {
	if m.inflight != nil {
		m.succeed(t)
	}
	m.contacted = true
	for i := 0; i < 3*FullSyncEvery && (len(m.buf) > 0 || m.inflight != nil); i++ {
		m.tick(t)
		if m.inflight != nil {
			m.succeed(t)
		}
		m.check(t)
	}
	for _, id := range slices.Sorted(maps.Keys(m.latest)) {
		if m.delivered[id] != m.latest[id] {
			t.Fatalf("alloc %s: server converged to v%d, newest is v%d (history %v)",
				id, m.delivered[id], m.latest[id], m.history[id])
		}
	}
}

// TestSYNC5_BufferProperties is the rapid state machine: SYNC-5.1 (urgent
// rides the next tick), SYNC-5.2 (non-urgent sends at most every 5th tick),
// newest-update-never-lost and SYNC-5.4 (no older after newer), against
// the naive oracle of SYNC-1/SYNC-3.
func TestSYNC5_BufferProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ids := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "c", "d"}), 1, 4,
			rapid.ID[string]).Draw(t, "ids")
		m := newSyncModel(ids)
		t.Repeat(map[string]func(*rapid.T){
			"add":          m.add,
			"readd":        m.readd,
			"toggleRunner": m.toggleRunner,
			"tick":         m.tick,
			"fail":         m.fail,
			"succeed":      m.succeed,
			"":             m.check,
		})
		m.drain(t)
	})
}

// TestSYNC5_UrgentRidesNextTick states SYNC-5.1 directly: whatever the
// history, an urgent update added now is in the batch of the very next tick
// once servers are contacted.
func TestSYNC5_UrgentRidesNextTick(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b Buffer
		steps := rapid.IntRange(0, 30).Draw(t, "steps")
		for i := range steps {
			switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("op%d", i)) {
			case 0:
				b.Add(upd(rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "id"), "v0"))
			case 1:
				res := b.Tick(TickInput{ServersContacted: rapid.Bool().Draw(t, "contacted")})
				if res.Action == Send {
					if rapid.Bool().Draw(t, "ok") {
						b.Succeeded()
					} else {
						b.Failed(res.Batch)
					}
				}
			case 2:
				b.Succeeded()
			}
		}
		id := rapid.SampledFrom([]string{"a", "b", "c", "z"}).Draw(t, "urgentID")
		b.Add(upd(id, "v-urgent"))
		res := b.Tick(TickInput{ServersContacted: true, Classify: func(u *structs.Allocation) (Priority, bool) {
			if u.ID == id {
				return Urgent, true
			}
			return Typical, true
		}})
		if res.Action != Send {
			t.Fatalf("next tick after urgent add = %v (%v), want send", res.Action, res.Reason)
		}
		for _, a := range res.Batch.Allocs() {
			if a.ID == id {
				if a.ClientDescription != "v-urgent" {
					t.Fatalf("batch carries %q for %s, want the urgent update", a.ClientDescription, id)
				}
				return
			}
		}
		t.Fatalf("urgent update %s missing from batch", id)
	})
}
