package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// serversContact is ServersContactedCh (SYNC-3, STATE-4): closed once,
// after the first successful alloc pull.
type serversContact struct {
	once sync.Once
	ch   chan struct{}
}

func newServersContact() *serversContact { return &serversContact{ch: make(chan struct{})} }

func (s *serversContact) mark() { s.once.Do(func() { close(s.ch) }) }

func (s *serversContact) done() bool {
	select {
	case <-s.ch:
		return true
	default:
		return false
	}
}

// nextRunnerRand derives one runner's source from the client's runner
// seeds. Callers draw in alloc-ID order, once per alloc that reaches the
// factory, so each alloc's source depends only on the seed and the history
// of allocs (DET-1).
func (c *Client) nextRunnerRand() *rand.Rand {
	return rand.New(rand.NewPCG(c.runnerSeeds.Uint64(), c.runnerSeeds.Uint64()))
}

// runnerConfig is the AR-2 config of one runner. Each runner gets its own
// copies of the node config and the base labels.
func (c *Client) runnerConfig(alloc *structs.Allocation, rng *rand.Rand) *interfaces.Config {
	node := c.node
	return &interfaces.Config{
		Alloc:              alloc,
		Logger:             c.logger.With("alloc_id", alloc.ID),
		Clock:              c.clock,
		Rand:               rng,
		ClientConfig:       &node,
		BaseLabels:         slices.Clone(c.baseLabels),
		Metrics:            c.opts.Metrics,
		StateDB:            c.opts.StateDB,
		StateUpdater:       c.updates,
		DriverManager:      c.opts.DriverManager,
		CSIManager:         c.opts.CSIManager,
		AllocDirFactory:    c.opts.AllocDirFactory,
		PrevAllocWatcher:   noPrevAlloc{},
		PrevAllocMigrator:  noPrevAlloc{},
		ServersContactedCh: c.contact.ch,
		RPCClient:          c.opts.RPCClient,
	}
}

// build runs the factory for alloc. A factory error, or a factory that
// returns no runner, is reported as a failed placement (AR-3, SYNC-1) and
// the alloc is not rebuilt while the servers keep it here.
func (c *Client) build(alloc *structs.Allocation, rng *rand.Rand) (interfaces.AllocRunner, bool) {
	ar, err := c.factory(c.runnerConfig(alloc, rng))
	if err == nil && ar == nil {
		err = errors.New("factory returned no runner")
	}
	if err != nil {
		c.logger.Error("building alloc runner failed", "alloc_id", alloc.ID, "error", err)
		c.reportFailed(alloc, err)
		return nil, false
	}
	return ar, true
}

// reportFailed buffers the stripped alloc with ClientStatus failed (SYNC-1)
// and marks it not to be rebuilt.
func (c *Client) reportFailed(alloc *structs.Allocation, err error) {
	s := alloc.Stripped()
	s.ClientStatus = structs.AllocClientStatusFailed
	s.ClientDescription = fmt.Sprintf("failed to build alloc runner: %v", err)
	c.updates.AllocStateUpdated(s)
	c.runners.markFailed(alloc.ID)
}

// goDestroy calls Destroy in a goroutine the client owns; the runner stays
// retiring, so that Shutdown waits for it, until DestroyCh closes (AR-1).
func (c *Client) goDestroy(ar interfaces.AllocRunner, key uint64) {
	c.runs.Add(1)
	go func() {
		defer c.runs.Done()
		defer c.runners.release(key)
		ar.Destroy()
		<-ar.DestroyCh()
	}()
}

// noPrevAlloc is the watcher and migrator of every runner this client
// builds: allocs carry no previous allocation here, so there is never
// anything to wait for or migrate (STATE-3 step 3 asks for no-op ones).
type noPrevAlloc struct{}

var _ interfaces.PrevAllocMigrator = noPrevAlloc{}

func (noPrevAlloc) Wait(context.Context) error                         { return nil }
func (noPrevAlloc) IsWaiting() bool                                    { return false }
func (noPrevAlloc) IsMigrating() bool                                  { return false }
func (noPrevAlloc) Migrate(context.Context, interfaces.AllocDir) error { return nil }
