package sim

import (
	"errors"
	"math/rand/v2"
	"sync"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// configs keeps, per alloc ID, a copy of the Config the client under
// test last built a runner with (runnerFactory), for SpareRunner.
type configs struct {
	mu   sync.Mutex
	byID map[string]interfaces.Config
}

func (c *configs) put(cfg interfaces.Config) {
	if cfg.Alloc == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]interfaces.Config{}
	}
	c.byID[cfg.Alloc.ID] = cfg
}

func (c *configs) get(id string) (interfaces.Config, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cfg, ok := c.byID[id]
	return cfg, ok
}

// Spare is an alloc runner the client never sees (World.SpareRunner) and
// what it did to the ports of its own.
type Spare struct {
	Runner interfaces.AllocRunner
	mu     sync.Mutex
	pushes int
}

// Pushes is how many allocs the runner pushed (AllocStateUpdated).
func (s *Spare) Pushes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pushes
}

// spareUpdater is a spare's StateUpdater: it counts pushes.
type spareUpdater struct{ s *Spare }

func (u spareUpdater) AllocStateUpdated(*structs.Allocation) {
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	u.s.pushes++
}

func (u spareUpdater) PutAllocation(*structs.Allocation) error { return nil }

// SpareRunner builds, with the factory under test, an alloc runner the
// client never sees, for a property that calls AR-1's methods in an order
// the client does not (a Run after a Shutdown, as a client's goroutine
// that reaches Run late would). Its Config is a copy of the one the
// client built alloc id's latest runner with, for an alloc of ID
// id+"-spare", on ports of its own where a run leaves state: an
// in-memory state DB and alloc dir storage, and a StateUpdater that
// counts pushes; the clock, driver, CSI plugin and RPC are the world's. Never
// registered, restored or traced as an alloc; the caller ends it
// (Shutdown or Destroy) before the run ends.
func (w *World) SpareRunner(id string) (*Spare, error) {
	cfg, ok := w.configs.get(id)
	if !ok {
		return nil, errors.New("sim: no runner was built for alloc " + id)
	}
	s := &Spare{}
	a := cfg.Alloc.CopySkipJob()
	a.ID += "-spare"
	cfg.Alloc = a
	cfg.Rand = rand.New(rand.NewPCG(1, 2))
	cfg.StateDB = state.NewMemDB(state.MemConfig{})
	cfg.AllocDirFactory = allocdir.MemFactory(allocdir.NewMemFS(w.clk), allocdir.Config{Clock: w.clk})
	cfg.StateUpdater = spareUpdater{s}
	ar, err := w.cfg.Factory.NewAllocRunner(&cfg)
	if err != nil {
		return nil, err
	}
	s.Runner = ar
	return s, nil
}
