package coinflip

import (
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"

	"example.com/gallery/inert"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// Runner is the alloc runner.
type Runner struct {
	*inert.Base
	db     interfaces.StateDB
	logger *slog.Logger
}

var _ interfaces.AllocRunner = (*Runner)(nil)

// New is the runner's interfaces.AllocRunnerFactory.
func New(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	if cfg == nil || cfg.Alloc == nil || cfg.StateUpdater == nil {
		return nil, errors.New("coinflip: config needs an alloc and a state updater")
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	base, err := inert.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("coinflip: %w", err)
	}
	return &Runner{Base: base, db: cfg.StateDB, logger: logger}, nil
}

// Run reports the alloc running, once. About half of the allocs are also
// checkpointed to the state DB here, so that a node starting thousands of
// them does not write them all at once; the client's snapshot covers the
// others.
func (r *Runner) Run() {
	r.Mu.Lock()
	r.A.ClientStatus = structs.AllocClientStatusRunning
	a := r.A.CopySkipJob()
	r.Mu.Unlock()
	if r.db != nil && rand.IntN(2) == 0 {
		if err := r.db.PutAllocation(a); err != nil {
			r.logger.Warn("checkpointing alloc failed", "error", err)
		}
	}
	r.Updater.AllocStateUpdated(a)
}
