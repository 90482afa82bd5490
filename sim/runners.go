package sim

import (
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// recordRunner remembers the runner the factory under test built for
// alloc (the newest one per alloc ID, across incarnations).
func (w *World) recordRunner(alloc *structs.Allocation, ar interfaces.AllocRunner, err error) {
	if alloc == nil || ar == nil || err != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	o := w.observed[alloc.ID]
	if o == nil {
		o = &observedAlloc{}
		w.observed[alloc.ID] = o
	}
	o.runner = ar
}

// AllocRunner returns the newest runner the factory under test built for
// alloc id, or nil. Properties call it at settled instants only (e.g. to
// hand a runner updates directly, AR-10); a runner of a crashed
// incarnation is still returned until the next one replaces it.
func (w *World) AllocRunner(id string) interfaces.AllocRunner {
	w.mu.Lock()
	defer w.mu.Unlock()
	if o := w.observed[id]; o != nil {
		return o.runner
	}
	return nil
}
