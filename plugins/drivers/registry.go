package drivers

import (
	"fmt"
	"sort"
	"sync"
)

// Registry is a map-based DriverManager. The zero value is empty and ready
// to use; it is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	drivers map[string]Driver
}

var _ DriverManager = (*Registry)(nil)

// NewRegistry returns a registry holding ds (see Register).
func NewRegistry(ds ...Driver) *Registry {
	r := &Registry{}
	for _, d := range ds {
		r.Register(d)
	}
	return r
}

// Register adds d under d.Name(), replacing any driver of that name (the
// simulator swaps in a fresh driver instance after a client crash). A nil
// d is ignored.
func (r *Registry) Register(d Driver) {
	if d == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.drivers == nil {
		r.drivers = map[string]Driver{}
	}
	r.drivers[d.Name()] = d
}

// Dispense returns the driver called name.
func (r *Registry) Dispense(name string) (Driver, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	d, ok := r.drivers[name]
	if !ok {
		return nil, fmt.Errorf("dispense driver %q: %w", name, ErrDriverNotFound)
	}
	return d, nil
}

// Names returns the registered driver names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.drivers))
	for n := range r.drivers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
