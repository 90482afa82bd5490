package reference

import (
	"fmt"

	"github.com/allocsim/allocsim/impl/allocrunner"
	"github.com/allocsim/allocsim/impl/client"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/minimal"
)

// Factory is the reference runner: the node client of impl/client running
// the alloc runners of impl/allocrunner.
var Factory = interfaces.Factory{
	Name:           "reference",
	NewClient:      client.New,
	NewAllocRunner: allocrunner.NewAllocRunner,
}

// Ticking is the reference runner with a node client whose sync loop
// ticks every 200 ms even with nothing to send (client.Ticking), as a
// runner written elsewhere typically does: what the simulator's
// per-event cost is measured with.
var Ticking = interfaces.Factory{
	Name:           "reference-ticking",
	NewClient:      client.Ticking,
	NewAllocRunner: allocrunner.NewAllocRunner,
}

// Minimal is the minimal runner of AR-3 on the reference node client: the
// client-communication profile only (no tasks run).
var Minimal = WithAllocRunner("minimal", minimal.NewAllocRunner)

// WithAllocRunner returns the runner under test called name that runs
// newAR's alloc runners on the reference node client: the way to check an
// alloc runner written elsewhere without writing a node client too.
func WithAllocRunner(name string, newAR interfaces.AllocRunnerFactory) interfaces.Factory {
	return interfaces.Factory{Name: name, NewClient: client.New, NewAllocRunner: newAR}
}

// FactoryOf turns what a runner package exports into the runner under
// test called name: an interfaces.Factory (or a pointer to one, or a func
// returning one) as it is, with name filling an empty Name; an alloc
// runner constructor (interfaces.AllocRunnerFactory, or a func of that
// signature) on the reference node client, as WithAllocRunner. conform run
// --pkg P --factory F calls it with P's F. Anything else, or a nil, is an
// error naming the type.
func FactoryOf(name string, v any) (interfaces.Factory, error) {
	var f interfaces.Factory
	switch v := v.(type) {
	case interfaces.Factory:
		f = v
	case *interfaces.Factory:
		if v == nil {
			return f, fmt.Errorf("runner %s: factory is a nil *interfaces.Factory", name)
		}
		f = *v
	case func() interfaces.Factory:
		if v == nil {
			return f, fmt.Errorf("runner %s: factory is a nil func", name)
		}
		f = v()
	case interfaces.AllocRunnerFactory:
		f = WithAllocRunner(name, v)
	case func(*interfaces.Config) (interfaces.AllocRunner, error):
		f = WithAllocRunner(name, v)
	default:
		return f, fmt.Errorf("runner %s: factory has type %T; want an interfaces.Factory, a func() interfaces.Factory or an alloc runner constructor func(*interfaces.Config) (interfaces.AllocRunner, error)", name, v)
	}
	if f.Name == "" {
		f.Name = name
	}
	if f.NewClient == nil || f.NewAllocRunner == nil {
		return f, fmt.Errorf("runner %s: factory leaves NewClient or NewAllocRunner nil", name)
	}
	return f, nil
}
