package client

import (
	"cmp"
	"maps"
	"slices"
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// runnerEntry is one live runner and the AllocModifyIndex of the last
// server alloc it was given.
type runnerEntry struct {
	id          string
	ar          interfaces.AllocRunner
	modifyIndex uint64
}

// registry holds the client's runners:
//   - live: one per alloc the servers still place here, by alloc ID;
//     ClientRPC, AllocRunner, classification and acknowledgement see only
//     these;
//   - retiring: runners whose alloc left the servers, while their Destroy
//     runs; Shutdown still shuts them down;
//   - failed: allocs reported failed (factory or restore error) that are
//     not rebuilt while the servers still place them here;
//   - terminal: allocs the servers placed here already client-terminal,
//     which get no runner, with the AllocModifyIndex they had: the pull
//     fetches one again only once that index moves.
type registry struct {
	mu   sync.RWMutex
	live map[string]*runnerEntry
	// sorted is the live runners in alloc-ID order, built on demand and
	// dropped (nil) whenever live gains or loses an entry: every sync
	// tick reads it, and sorting the live entries each time was 5 % of
	// BenchmarkClients100x50's CPU.
	sorted   *liveRunners
	retiring map[uint64]interfaces.AllocRunner
	nextKey  uint64
	failed   map[string]struct{}
	terminal map[string]uint64
}

func newRegistry() *registry {
	return &registry{
		live:     map[string]*runnerEntry{},
		retiring: map[uint64]interfaces.AllocRunner{},
		failed:   map[string]struct{}{},
		terminal: map[string]uint64{},
	}
}

func (r *registry) get(id string) (interfaces.AllocRunner, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.live[id]
	if !ok {
		return nil, false
	}
	return e.ar, true
}

// entry returns a copy of a live entry.
func (r *registry) entry(id string) (runnerEntry, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.live[id]
	if !ok {
		return runnerEntry{}, false
	}
	return *e, true
}

func (r *registry) add(id string, ar interfaces.AllocRunner, modifyIndex uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.live[id] = &runnerEntry{id: id, ar: ar, modifyIndex: modifyIndex}
	r.sorted = nil
}

func (r *registry) setModifyIndex(id string, idx uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.live[id]; ok {
		e.modifyIndex = idx
	}
}

// retire moves a live runner to the retiring set and returns the key that
// releases it; ok is false when id has no live runner.
func (r *registry) retire(id string) (interfaces.AllocRunner, uint64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.live[id]
	if !ok {
		return nil, 0, false
	}
	delete(r.live, id)
	r.sorted = nil
	key := r.addRetiringLocked(e.ar)
	return e.ar, key, true
}

// addRetiring puts a runner that was never live (a failed restore) in the
// retiring set.
func (r *registry) addRetiring(ar interfaces.AllocRunner) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.addRetiringLocked(ar)
}

func (r *registry) addRetiringLocked(ar interfaces.AllocRunner) uint64 {
	r.nextKey++
	r.retiring[r.nextKey] = ar
	return r.nextKey
}

func (r *registry) release(key uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.retiring, key)
}

func (r *registry) markFailed(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed[id] = struct{}{}
}

func (r *registry) isFailed(id string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.failed[id]
	return ok
}

// markTerminal notes an alloc that got no runner because the servers
// placed it already client-terminal, at AllocModifyIndex idx.
func (r *registry) markTerminal(id string, idx uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.terminal[id] = idx
}

// forgetGone drops the failed and terminal allocs that the servers no
// longer place here.
func (r *registry) forgetGone(onServer map[string]uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id := range r.failed {
		if _, ok := onServer[id]; !ok {
			delete(r.failed, id)
		}
	}
	for id := range r.terminal {
		if _, ok := onServer[id]; !ok {
			delete(r.terminal, id)
		}
	}
}

// wants returns, sorted, the allocs of a Node.GetClientAllocs index map
// that the client must fetch: those without a runner (unless reported
// failed, or seen client-terminal at the same AllocModifyIndex) and
// those whose runner holds a lower AllocModifyIndex.
func (r *registry) wants(listed map[string]uint64) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	for id, idx := range listed {
		if e, ok := r.live[id]; ok {
			if idx > e.modifyIndex {
				out = append(out, id)
			}
			continue
		}
		if _, failed := r.failed[id]; failed {
			continue
		}
		if seen, ok := r.terminal[id]; ok && idx <= seen {
			continue
		}
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// liveEntries returns copies of the live entries sorted by alloc ID.
func (r *registry) liveEntries() []runnerEntry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]runnerEntry, 0, len(r.live))
	for _, e := range r.live {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b runnerEntry) int { return cmp.Compare(a.id, b.id) })
	return out
}

// liveRunners is the live runners sorted by alloc ID: ids[i] is ars[i]'s.
// A registry hands out one value to every reader until live changes:
// read it, never modify it.
type liveRunners struct {
	ids []string
	ars []interfaces.AllocRunner
}

// liveSorted returns the live runners in alloc-ID order, shared (see
// liveRunners).
func (r *registry) liveSorted() *liveRunners {
	r.mu.RLock()
	s := r.sorted
	r.mu.RUnlock()
	if s != nil {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sorted == nil {
		ids := slices.Sorted(maps.Keys(r.live))
		ars := make([]interfaces.AllocRunner, len(ids))
		for i, id := range ids {
			ars[i] = r.live[id].ar
		}
		r.sorted = &liveRunners{ids: ids, ars: ars}
	}
	return r.sorted
}

// all returns the live entries sorted by alloc ID and the retiring
// runners in retirement order.
func (r *registry) all() ([]runnerEntry, []interfaces.AllocRunner) {
	live := r.liveEntries()
	r.mu.RLock()
	defer r.mu.RUnlock()
	retiring := make([]interfaces.AllocRunner, 0, len(r.retiring))
	for _, k := range slices.Sorted(maps.Keys(r.retiring)) {
		retiring = append(retiring, r.retiring[k])
	}
	return live, retiring
}

func runnersOf(entries []runnerEntry) []interfaces.AllocRunner {
	out := make([]interfaces.AllocRunner, len(entries))
	for i, e := range entries {
		out[i] = e.ar
	}
	return out
}
