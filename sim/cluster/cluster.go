package cluster

import (
	"errors"
	"fmt"
	"log/slog"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
	"github.com/allocsim/allocsim/sim/transport"
	"github.com/allocsim/allocsim/sim/vclock"
)

// DefaultStart is the virtual instant a run starts at when Config.Start
// is zero: an ordinary morning (no DST transition, no month end).
var DefaultStart = time.Date(2024, 6, 14, 9, 0, 0, 0, time.UTC)

// MaxClients bounds Config.Clients.
const MaxClients = 10000

// Config configures a Cluster.
type Config struct {
	// Factory is the runner under test; NewClient and NewAllocRunner are
	// both required. The client must build its runners with
	// ClientOptions.AllocRunnerFactory (the cluster observes them there).
	Factory interfaces.Factory
	// Seed drives every choice: node IDs, the server's IDs, each client's
	// source, the churn.
	Seed uint64
	// Clients is the number of clients, 1 to MaxClients.
	Clients int
	// Start is the clock's initial instant; zero means DefaultStart.
	Start time.Time
	// RPCLatency is the virtual time every client RPC takes to reach the
	// server; zero is none.
	RPCLatency time.Duration
	// Logger is handed to every client; nil discards.
	Logger *slog.Logger
}

// Cluster is N clients and one server on one virtual clock, run inside
// the caller's testing/synctest bubble. Build it with New; it is not safe
// for concurrent use by several callers (the clients run concurrently
// with each other, as in a real deployment).
type Cluster struct {
	cfg     Config
	clk     *vclock.Clock
	srv     *server.Server
	net     *transport.Network
	clients []*client
	steps   uint64
	errs    []error
	closed  bool
	end     time.Time // the instant Close was called
}

// New builds the cluster and starts every client, in order. It must be
// called inside a testing/synctest bubble, like every other method.
func New(cfg Config) (*Cluster, error) {
	switch {
	case cfg.Factory.NewClient == nil || cfg.Factory.NewAllocRunner == nil:
		return nil, errors.New("cluster: Factory.NewClient and Factory.NewAllocRunner are both required")
	case cfg.Clients < 1 || cfg.Clients > MaxClients:
		return nil, fmt.Errorf("cluster: %d clients: want 1 to %d", cfg.Clients, MaxClients)
	case cfg.RPCLatency < 0:
		return nil, fmt.Errorf("cluster: negative RPC latency %v", cfg.RPCLatency)
	}
	if cfg.Start.IsZero() {
		cfg.Start = DefaultStart
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	c := &Cluster{cfg: cfg, clk: vclock.New(cfg.Start)}
	if err := c.clk.Err(); err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	c.clk.SetBarrier(synctest.Wait)
	// The study reads the server's counters, never its history.
	srv, err := server.New(server.Config{Clock: c.clk, Rand: seeds.Stream(cfg.Seed, "server"), DiscardHistory: true})
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	c.srv = srv
	c.net, err = transport.New(transport.Config{Clock: c.clk, Server: receiver{c: c}, Faults: latency(cfg.RPCLatency)})
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	seen := map[string]bool{}
	for i := range cfg.Clients {
		id := seeds.ID(seeds.Stream(cfg.Seed, fmt.Sprintf("node/%d", i)))
		if seen[id] {
			return nil, fmt.Errorf("cluster: seed %d draws node ID %s twice", cfg.Seed, id)
		}
		seen[id] = true
		if err := srv.RegisterNode(id, syncpolicy.NodeStatusReady); err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
		c.clients = append(c.clients, &client{c: c, index: i, obs: newObserver(i)})
		// Hook telemetry is not what a sync study measures: the nodes
		// turn it off (TELEM-5), as they have no sink for it.
		c.clients[i].node = &interfaces.ClientConfig{NodeID: id, Datacenter: "dc1", NodePool: "default", Region: "global",
			DisableAllocationHookMetrics: true}
	}
	for _, cl := range c.clients {
		if err := cl.start(); err != nil {
			return nil, errors.Join(err, c.Close())
		}
		// Each client settles before the next starts, so the timers they
		// arm (tickers of one phase, their first pulls) are in client
		// order, not in the order racing goroutines armed them.
		synctest.Wait()
	}
	return c, nil
}

// Clients is the number of clients.
func (c *Cluster) Clients() int { return len(c.clients) }

// NodeID is client i's node.
func (c *Cluster) NodeID(i int) string { return c.clients[i].node.NodeID }

// Now is the virtual time.
func (c *Cluster) Now() time.Time { return c.clk.Now() }

// StartTime is the instant the run started at.
func (c *Cluster) StartTime() time.Time { return c.cfg.Start }

// Server is the shared server.
func (c *Cluster) Server() *server.Server { return c.srv }

// Steps is the number of settled instants the cluster advanced through.
func (c *Cluster) Steps() uint64 { return c.steps }

// Place registers jobs on client i's node, in one server pass
// (server.RegisterJobsOn): a new job is placed there, a changed one
// replaces its allocs there.
func (c *Cluster) Place(i int, jobs ...*structs.Job) ([]*structs.Allocation, error) {
	if i < 0 || i >= len(c.clients) {
		return nil, fmt.Errorf("cluster: no client %d (of %d)", i, len(c.clients))
	}
	allocs, err := c.srv.RegisterJobsOn(c.NodeID(i), jobs...)
	if err != nil {
		return nil, fmt.Errorf("cluster: client %d: %w", i, err)
	}
	return allocs, nil
}

// Apply performs workload operations now: the placements and updates of
// one client in one server pass (Place), then the stops in order.
func (c *Cluster) Apply(ops ...Op) error {
	var errs []error
	byClient := map[int][]*structs.Job{}
	var order []int
	for _, op := range ops {
		switch op.Kind {
		case OpPlace, OpUpdate:
			if _, ok := byClient[op.Client]; !ok {
				order = append(order, op.Client)
			}
			byClient[op.Client] = append(byClient[op.Client], op.Job)
		case OpStop:
			if op.Job == nil {
				errs = append(errs, fmt.Errorf("cluster: %s: no job", op))
			}
		default:
			errs = append(errs, fmt.Errorf("cluster: %s: unknown operation", op))
		}
	}
	for _, i := range order {
		if _, err := c.Place(i, byClient[i]...); err != nil {
			errs = append(errs, err)
		}
	}
	for _, op := range ops {
		if op.Kind == OpStop && op.Job != nil {
			if err := c.srv.StopJob(op.Job.ID); err != nil {
				errs = append(errs, fmt.Errorf("cluster: %s: %w", op, err))
			}
		}
	}
	return errors.Join(errs...)
}

// Close shuts every client down (connection first, so its blocking
// queries end), advancing the clock while that needs it, and closes the
// state DBs. Observation stops first: Result reads what happened until
// Close. It returns the errors of the run (a livelock, a hung shutdown,
// a state DB that did not close), joined.
func (c *Cluster) Close() error {
	if c.closed {
		return errors.New("cluster: already closed")
	}
	c.closed = true
	c.end = c.clk.Now()
	synctest.Wait()
	for _, cl := range c.clients {
		cl.obs.stop()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, cl := range c.clients {
			cl.shutdown()
		}
	}()
	c.drain(done, "client shutdown")
	for _, cl := range c.clients {
		if cl.db != nil {
			if err := cl.db.Close(); err != nil {
				c.errs = append(c.errs, fmt.Errorf("cluster: close client %d's state DB: %w", cl.index, err))
			}
		}
	}
	return errors.Join(c.errs...)
}

// latency is the transport's fault hook: every call takes the same
// latency, none is dropped.
type latency time.Duration

func (l latency) RPC(string) (time.Duration, error) { return time.Duration(l), nil }
