package hookres

import (
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// HookResources is the per-alloc-runner store of hook resources
// (HOOKRES-1). It is safe for concurrent use. The zero value holds an empty
// CSI mount map. It must not be copied after first use.
type HookResources struct {
	mu        sync.RWMutex
	csiMounts map[string]*interfaces.CSIMountPoint
}

// New returns the hook resources of one alloc runner, holding an empty CSI
// mount map (HOOKRES-1, HOOKRES-2).
func New() *HookResources {
	return &HookResources{csiMounts: map[string]*interfaces.CSIMountPoint{}}
}

// SetCSIMounts replaces the CSI mount map, keyed by group volume alias,
// atomically with a deep copy of mounts (HOOKRES-2): later changes to mounts
// or to the mount points it references do not reach the stored map. A nil
// mounts stores the empty map. Nil entries are dropped, so a reader finds
// such an alias missing rather than a nil mount point (HOOKRES-3: a missing
// entry fails the task's prestart, it never crashes).
func (h *HookResources) SetCSIMounts(mounts map[string]*interfaces.CSIMountPoint) {
	c := copyMounts(mounts) // copy outside the lock: the argument is the caller's
	h.mu.Lock()
	defer h.mu.Unlock()
	h.csiMounts = c
}

// GetCSIMounts returns a deep copy of the CSI mount map (HOOKRES-2): never
// nil, empty until the first SetCSIMounts. The caller owns the result and
// may mutate it freely; that never affects the stored map.
func (h *HookResources) GetCSIMounts() map[string]*interfaces.CSIMountPoint {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return copyMounts(h.csiMounts)
}

// copyMounts returns a new non-nil map with a new CSIMountPoint per non-nil
// entry of m.
func copyMounts(m map[string]*interfaces.CSIMountPoint) map[string]*interfaces.CSIMountPoint {
	c := make(map[string]*interfaces.CSIMountPoint, len(m))
	for alias, mp := range m {
		if mp == nil {
			continue
		}
		cp := *mp
		c[alias] = &cp
	}
	return c
}
