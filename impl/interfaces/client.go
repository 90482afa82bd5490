package interfaces

import (
	"log/slog"
	"math/rand/v2"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	metrics "github.com/hashicorp/go-metrics"
)

// Client is a node-level client (impl/client is the reference one): it
// pulls its allocs from the servers (Node.GetClientAllocs, an index map of
// alloc ID to AllocModifyIndex, then Alloc.GetAllocs for the allocs that
// are new or changed; model/structs/rpc.go), runs one AllocRunner each, syncs their states back with Node.UpdateAlloc (SYNC-3)
// and answers the server's calls for its allocs (API-7). The simulator
// drives clients only through this interface.
type Client interface {
	// Start restores persisted allocs (STATE-3) and starts the client's
	// loops; it returns once they run. Errors are restore failures that
	// prevent the client from starting at all.
	Start() error
	// Shutdown stops every loop and shuts every runner down (tasks keep
	// running); it returns when all of the client's goroutines have ended.
	Shutdown()
	// ClientRPC handles a server-to-client call (Allocations.SetPauseState,
	// Allocations.GetPauseState, Allocations.Signal, Allocations.Restart).
	ClientRPC(method string, args any, reply any) error
	// AllocRunner returns the runner of an alloc, if the client has one.
	AllocRunner(allocID string) (AllocRunner, bool)
	// NodeID is the client's node.
	NodeID() string
}

// ClientOptions is everything a client is given. Like Config, all of it is
// injected.
type ClientOptions struct {
	Node   *ClientConfig
	Logger *slog.Logger
	Clock  clock.Clock
	// Rand is the client's seeded source; runners get sources derived from
	// it in alloc-ID order.
	Rand          *rand.Rand
	StateDB       StateDB
	DriverManager drivers.DriverManager
	CSIManager    CSIManager
	// AllocDirFactory builds alloc dirs.
	AllocDirFactory AllocDirFactory
	// Metrics receives hook telemetry (TELEM-1).
	Metrics *metrics.Metrics
	// RPCClient reaches the servers (Node.GetClientAllocs, Alloc.GetAllocs,
	// Node.UpdateAlloc).
	RPCClient RPCClient
	// AllocRunnerFactory builds the client's alloc runners; required. The
	// client MUST build every runner with it: the simulator wraps it to
	// observe what runners compute.
	AllocRunnerFactory AllocRunnerFactory
}

// ClientFactory builds a client.
type ClientFactory func(opts *ClientOptions) (Client, error)

// Factory is a runner under test: what the conformance suite is given
// (properties.Run) and what the simulator builds clients from.
type Factory struct {
	// Name identifies the runner in reports ("reference", "minimal", ...).
	Name string
	// NewClient builds the node client; required (impl/reference's
	// WithAllocRunner pairs an alloc runner with the reference client).
	NewClient ClientFactory
	// NewAllocRunner builds alloc runners; required. The simulator hands
	// the client a wrapper of it as ClientOptions.AllocRunnerFactory.
	NewAllocRunner AllocRunnerFactory
}
