package reference

import (
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
