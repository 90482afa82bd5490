package mutexheld

import (
	"errors"
	"fmt"
	"log/slog"

	"example.com/gallery/inert"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// Runner is the alloc runner.
type Runner struct {
	*inert.Base
	db     interfaces.StateDB
	logger *slog.Logger

	// mu guards alloc, and is held while the alloc is persisted so that
	// what is announced is never ahead of what is on disk.
}

var _ interfaces.AllocRunner = (*Runner)(nil)

// New is the runner's interfaces.AllocRunnerFactory.
func New(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	if cfg == nil || cfg.Alloc == nil || cfg.StateUpdater == nil || cfg.StateDB == nil {
		return nil, errors.New("mutexheld: config needs an alloc, a state DB and a state updater")
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	base, err := inert.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("mutexheld: %w", err)
	}
	return &Runner{Base: base, db: cfg.StateDB, logger: logger}, nil
}

// Run marks the alloc running and persists it; the announcement goes
// out once the write is done and the lock released.
func (r *Runner) Run() {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	r.A.ClientStatus = structs.AllocClientStatusRunning
	go r.announce()
	if err := r.db.PutAllocation(r.A.CopySkipJob()); err != nil {
		r.logger.Warn("persisting alloc failed", "error", err)
	}
}

// announce pushes the current alloc.
func (r *Runner) announce() {
	r.Mu.Lock()
	a := r.A.CopySkipJob()
	r.Mu.Unlock()
	r.Updater.AllocStateUpdated(a)
}
