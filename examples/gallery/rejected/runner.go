package rejected

import (
	"errors"
	"fmt"

	"example.com/gallery/inert"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// Runner is the alloc runner.
type Runner struct {
	*inert.Base
}

var _ interfaces.AllocRunner = (*Runner)(nil)

// New is the runner's interfaces.AllocRunnerFactory.
func New(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	if cfg == nil || cfg.Alloc == nil || cfg.StateUpdater == nil {
		return nil, errors.New("rejected: config needs an alloc and a state updater")
	}
	base, err := inert.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("rejected: %w", err)
	}
	return &Runner{Base: base}, nil
}

// Run reports the alloc running, once.
func (r *Runner) Run() {
	r.Mu.Lock()
	r.A.ClientStatus = structs.AllocClientStatusRunning
	u := r.statusUpdate()
	r.Mu.Unlock()
	r.Updater.AllocStateUpdated(u)
}

// statusUpdate is what the servers need to hear about the alloc: which
// one it is, and what the client computed of it.
func (r *Runner) statusUpdate() *structs.Allocation {
	s := r.A.ClientState()
	return &structs.Allocation{
		ID:                r.A.ID,
		ClientStatus:      s.ClientStatus,
		ClientDescription: s.ClientDescription,
		TaskStates:        s.TaskStates,
		DeploymentStatus:  s.DeploymentStatus,
		NetworkStatus:     s.NetworkStatus,
	}
}
