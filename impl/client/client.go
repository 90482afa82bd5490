package client

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/benbjohnson/clock"
	metrics "github.com/hashicorp/go-metrics"
)

// Client is the reference node client (interfaces.Client). Build it with
// New; see the package documentation for its loops and their contract.
type Client struct {
	opts    interfaces.ClientOptions
	node    interfaces.ClientConfig // the client's own copy
	logger  *slog.Logger
	clock   clock.Clock
	factory interfaces.AllocRunnerFactory
	rpc     rpcCaller

	// baseLabels are the TELEM-2 client labels, built once in New.
	baseLabels []metrics.Label
	// runnerSeeds derives every runner's source, in alloc-ID order within
	// one restore or one pull; only the restore and then the pull loop use
	// it, one after the other.
	runnerSeeds *rand.Rand
	// retryJitter draws the SYNC-3 retry delays; only the sync loop uses it.
	retryJitter *rand.Rand

	updates  *pendingUpdates
	runners  *registry
	contact  *serversContact
	ctx      context.Context
	cancel   context.CancelFunc
	loops    sync.WaitGroup // pull, sync and snapshot loops
	runs     sync.WaitGroup // Run and Destroy calls of runners
	stateMu  sync.Mutex
	started  bool
	stopped  bool
	stopOnce sync.Once

	// parkSync: the sync loop stops its ticker while the buffer is empty
	// (New); Ticking's never does.
	parkSync bool
}

var _ interfaces.Client = (*Client)(nil)

// New builds a client from opts; it matches interfaces.ClientFactory.
// Node, Clock, Rand, StateDB, RPCClient and AllocRunnerFactory are
// required (reference.Factory pairs this client with the reference alloc
// runner); a nil Logger discards. New draws
// four values from opts.Rand to seed two private sources (runner seeds and
// retry jitter), so that the loops never share a source and the draws
// never depend on how the loops interleave (DET-1, DET-3).
func New(opts *interfaces.ClientOptions) (interfaces.Client, error) {
	return newClient(opts, Policies{}, true)
}

// Ticking is the reference client with a sync loop that never parks: its
// ticker fires every 200 ms whether or not anything is buffered, as a
// runner written elsewhere typically does (SYNC-3 allows both; the
// benchmarks measure the simulator's cost per event with it).
func Ticking(opts *interfaces.ClientOptions) (interfaces.Client, error) {
	return newClient(opts, Policies{}, false)
}

// Policies are the sync decisions the client takes from model/syncpolicy
// (its Buffer's methods), which a mutant of impl/mutants may replace by a
// wrong one. A nil field is model/'s: the zero value is the reference.
type Policies struct {
	Add    func(b *syncpolicy.Buffer, alloc *structs.Allocation)                     // SYNC-1: newest wins
	Tick   func(b *syncpolicy.Buffer, in syncpolicy.TickInput) syncpolicy.TickResult // SYNC-3, SYNC-5: a tick's decision
	Failed func(b *syncpolicy.Buffer, batch syncpolicy.Batch)                        // SYNC-3: the failed batch re-inserted
}

// Factory returns the factory of the reference client deciding by p;
// Factory(Policies{}) behaves exactly as New.
func Factory(p Policies) interfaces.ClientFactory {
	return func(opts *interfaces.ClientOptions) (interfaces.Client, error) { return newClient(opts, p, true) }
}

func newClient(opts *interfaces.ClientOptions, p Policies, parkSync bool) (interfaces.Client, error) {
	if err := checkOptions(opts); err != nil {
		return nil, err
	}
	c := &Client{
		opts:     *opts,
		node:     *opts.Node,
		logger:   opts.Logger,
		clock:    opts.Clock,
		factory:  opts.AllocRunnerFactory,
		rpc:      newRPCCaller(opts.RPCClient),
		updates:  newPendingUpdates(opts.StateDB, p),
		runners:  newRegistry(),
		contact:  newServersContact(),
		parkSync: parkSync,
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	c.logger = c.logger.With("node_id", c.node.NodeID)
	c.baseLabels = hookstats.BaseLabels(c.node.NodeID, c.node.Datacenter, c.node.NodeClass, c.node.NodePool)
	c.runnerSeeds = rand.New(rand.NewPCG(opts.Rand.Uint64(), opts.Rand.Uint64()))
	c.retryJitter = rand.New(rand.NewPCG(opts.Rand.Uint64(), opts.Rand.Uint64()))
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c, nil
}

func checkOptions(opts *interfaces.ClientOptions) error {
	switch {
	case opts == nil:
		return errors.New("client options are nil")
	case opts.Node == nil:
		return errors.New("client options: node config is nil")
	case opts.Clock == nil:
		return errors.New("client options: clock is nil")
	case opts.Rand == nil:
		return errors.New("client options: rand source is nil")
	case opts.StateDB == nil:
		return errors.New("client options: state DB is nil")
	case opts.RPCClient == nil:
		return errors.New("client options: RPC client is nil")
	case opts.AllocRunnerFactory == nil:
		return errors.New("client options: alloc runner factory is nil (reference.Factory pairs this client with the reference alloc runner)")
	}
	return nil
}

// NodeID is the client's node.
func (c *Client) NodeID() string { return c.node.NodeID }

// AllocRunner returns the live runner of an alloc. A runner being
// destroyed (its alloc left the server) is no longer returned.
func (c *Client) AllocRunner(allocID string) (interfaces.AllocRunner, bool) {
	return c.runners.get(allocID)
}

// Start restores the persisted allocs (STATE-3), runs them, and starts the
// pull, sync and snapshot loops. Only a failure to list the state DB fails
// it; per-alloc restore failures are logged or reported to the servers.
// Start may be called once, and not after Shutdown.
func (c *Client) Start() error {
	c.stateMu.Lock()
	defer c.stateMu.Unlock()
	switch {
	case c.stopped:
		return errors.New("client is shut down")
	case c.started:
		return errors.New("client already started")
	}
	if err := c.restore(); err != nil {
		return err
	}
	c.started = true
	c.loops.Add(3)
	go c.pullLoop(c.ctx)
	go c.syncLoop(c.ctx)
	go c.snapshotLoop(c.ctx)
	return nil
}

// Shutdown stops the loops, persists and shuts down every runner (tasks
// keep running) and returns once every goroutine the client started has
// ended: the loops, every runner's Run and every Destroy in progress. An
// RPC in flight is cancelled only if the RPCClient implements
// ContextRPCClient; otherwise Shutdown waits for it to return.
func (c *Client) Shutdown() {
	c.stopOnce.Do(func() {
		c.stateMu.Lock()
		c.stopped = true
		c.stateMu.Unlock()
		c.cancel()
		c.loops.Wait() // no runner is added after this
		live, retiring := c.runners.all()
		for _, e := range live {
			if err := e.ar.PersistState(); err != nil { // STATE-2: on shutdown
				c.logger.Error("persisting alloc runner state on shutdown failed", "alloc_id", e.id, "error", err)
			}
		}
		all := slices.Concat(runnersOf(live), retiring)
		for _, ar := range all {
			ar.Shutdown()
		}
		c.runs.Wait()
		// A runner's Shutdown may finish in its own goroutine (the reference
		// runner persists its alloc there); the client has shut down only
		// when every runner has (AR-1: Shutdown closes ShutdownCh).
		for _, ar := range all {
			<-ar.ShutdownCh()
		}
	})
}

// goRun calls ar.Run in a goroutine the client owns.
func (c *Client) goRun(ar interfaces.AllocRunner) {
	c.runs.Add(1)
	go func() {
		defer c.runs.Done()
		ar.Run()
	}()
}
