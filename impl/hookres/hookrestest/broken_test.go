package hookrestest

import (
	"maps"
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// Deliberately broken stores: each gets one thing wrong, the way a
// runner written elsewhere might (#16623's shapes among them).

// copyAll is the broken stores' deep copy (never nil for a non-nil m).
func copyAll(m mounts) mounts { return deepCopy(m) }

// aliasGetStore copies what it is given but hands out its own map.
type aliasGetStore struct {
	mu sync.RWMutex
	m  mounts
}

func newAliasGetStore() *aliasGetStore { return &aliasGetStore{m: mounts{}} }

func (s *aliasGetStore) SetCSIMounts(m mounts) {
	c := copyAll(m)
	if c == nil {
		c = mounts{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m = c
}

func (s *aliasGetStore) GetCSIMounts() mounts {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.m
}

// keepArgStore keeps the caller's map and copies what it hands out.
type keepArgStore struct {
	mu sync.RWMutex
	m  mounts
}

func newKeepArgStore() *keepArgStore { return &keepArgStore{m: mounts{}} }

func (s *keepArgStore) SetCSIMounts(m mounts) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m = m
}

func (s *keepArgStore) GetCSIMounts() mounts {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.m == nil {
		return mounts{}
	}
	return copyAll(s.m)
}

// mergeStore is the get → mutate → set setter of Nomad 1.5.2 (#16623):
// each set merges into what it read, and the read and the write are two
// critical sections.
type mergeStore struct {
	mu sync.RWMutex
	m  mounts
}

func newMergeStore() *mergeStore { return &mergeStore{m: mounts{}} }

func (s *mergeStore) SetCSIMounts(m mounts) {
	cur := s.GetCSIMounts()
	for k, v := range copyAll(m) {
		cur[k] = v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m = cur
}

func (s *mergeStore) GetCSIMounts() mounts {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return copyAll(s.m)
}

// nilInitStore is a zero-value store whose getter hands out a copy of a
// nil map as nil.
type nilInitStore struct {
	mu sync.RWMutex
	m  mounts
}

func newNilInitStore() *nilInitStore { return &nilInitStore{} }

func (s *nilInitStore) SetCSIMounts(m mounts) {
	c := copyAll(m)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m = c
}

func (s *nilInitStore) GetCSIMounts() mounts {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return copyAll(s.m)
}

// unlockedStore copies on both sides but has no lock: it swaps whole maps,
// so it never corrupts one, and only the race detector sees the
// unsynchronised field.
type unlockedStore struct{ m mounts }

func newUnlockedStore() *unlockedStore { return &unlockedStore{m: mounts{}} }

func (s *unlockedStore) SetCSIMounts(m mounts) {
	c := copyAll(m)
	if c == nil {
		c = mounts{}
	}
	s.m = c
}

func (s *unlockedStore) GetCSIMounts() mounts { return copyAll(s.m) }

// shallowStore copies the maps but shares the mount points (maps.Clone).
type shallowStore struct {
	mu sync.RWMutex
	m  mounts
}

func newShallowStore() *shallowStore { return &shallowStore{m: mounts{}} }

func (s *shallowStore) SetCSIMounts(m mounts) {
	c := maps.Clone(m)
	if c == nil {
		c = mounts{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m = c
}

func (s *shallowStore) GetCSIMounts() mounts {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return maps.Clone(s.m)
}

// piecewiseStore locks every step but not the replacement: it clears its
// map, then inserts entry by entry, each under the lock, so a reader
// between two steps sees a partial map.
type piecewiseStore struct {
	mu sync.RWMutex
	m  mounts
}

func newPiecewiseStore() *piecewiseStore { return &piecewiseStore{m: mounts{}} }

func (s *piecewiseStore) SetCSIMounts(m mounts) {
	s.mu.Lock()
	clear(s.m)
	s.mu.Unlock()
	for k, v := range m {
		var c *interfaces.CSIMountPoint
		if v != nil {
			cp := *v
			c = &cp
		}
		s.mu.Lock()
		s.m[k] = c
		s.mu.Unlock()
	}
}

func (s *piecewiseStore) GetCSIMounts() mounts {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return copyAll(s.m)
}
