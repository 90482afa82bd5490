package leaker

import (
	"errors"
	"fmt"
	"time"

	"example.com/gallery/inert"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
)

// heartbeatInterval is how often the heartbeat marks the alloc alive.
const heartbeatInterval = 10 * time.Second

// Runner is the alloc runner.
type Runner struct {
	*inert.Base
	clock clock.Clock

	lastSeen time.Time
}

var _ interfaces.AllocRunner = (*Runner)(nil)

// New is the runner's interfaces.AllocRunnerFactory.
func New(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	if cfg == nil || cfg.Alloc == nil || cfg.StateUpdater == nil || cfg.Clock == nil {
		return nil, errors.New("leaker: config needs an alloc, a clock and a state updater")
	}
	base, err := inert.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("leaker: %w", err)
	}
	return &Runner{Base: base, clock: cfg.Clock}, nil
}

// Run reports the alloc running, once, and starts the heartbeat.
func (r *Runner) Run() {
	go r.heartbeat()
	r.Mu.Lock()
	r.A.ClientStatus = structs.AllocClientStatusRunning
	a := r.A.CopySkipJob()
	r.Mu.Unlock()
	r.Updater.AllocStateUpdated(a)
}

// heartbeat marks the alloc alive on every tick.
func (r *Runner) heartbeat() {
	t := r.clock.Ticker(heartbeatInterval)
	defer t.Stop()
	for now := range t.C {
		r.Mu.Lock()
		r.lastSeen = now
		r.Mu.Unlock()
	}
}
