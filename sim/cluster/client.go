package cluster

import (
	"fmt"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/transport"
)

// client is one node of the cluster: the client under test and what it is
// given of its own (driver, state DB, alloc dirs, connection).
type client struct {
	c      *Cluster
	index  int
	node   *interfaces.ClientConfig
	obs    *observer
	driver *mock.Driver
	db     interfaces.StateDB
	conn   *transport.Conn
	client interfaces.Client
}

// start builds and starts the client and connects the server to it.
func (cl *client) start() error {
	c := cl.c
	clk := c.clk
	cl.driver = mock.New(mock.Config{Clock: clk})
	cl.db = state.NewMemDB(state.MemConfig{})
	cl.conn = c.net.Dial(cl.node.NodeID)
	opts := &interfaces.ClientOptions{
		Node:               cl.node,
		Logger:             c.cfg.Logger,
		Clock:              clk,
		Rand:               seeds.Stream(c.cfg.Seed, fmt.Sprintf("client/%d", cl.index)),
		StateDB:            cl.db,
		DriverManager:      drivers.NewRegistry(cl.driver),
		AllocDirFactory:    allocdir.MemFactory(allocdir.NewMemFS(clk), allocdir.Config{Clock: clk}),
		RPCClient:          rpcTap{cl: cl},
		AllocRunnerFactory: cl.runnerFactory(),
	}
	var err error
	cl.client, err = c.cfg.Factory.NewClient(opts)
	if err == nil {
		err = cl.client.Start()
	}
	if err != nil {
		return fmt.Errorf("cluster: start client %d (node %s): %w", cl.index, cl.node.NodeID, err)
	}
	c.srv.Connect(cl.node.NodeID, c.net.Forwarder(cl.conn, cl.client))
	return nil
}

// shutdown disconnects the client and shuts it down; the tasks it leaves
// running are the driver's, closed last.
func (cl *client) shutdown() {
	cl.c.srv.Connect(cl.node.NodeID, nil)
	if cl.conn != nil {
		cl.conn.Close()
	}
	if cl.client != nil {
		cl.client.Shutdown()
	}
	if cl.driver != nil {
		cl.driver.Close()
	}
}

// runnerFactory wraps the runner factory under test so that every runner
// pushes its computed states through the client's observer (observe.go).
func (cl *client) runnerFactory() interfaces.AllocRunnerFactory {
	f := cl.c.cfg.Factory.NewAllocRunner
	return func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		c := *cfg
		if c.StateUpdater != nil {
			c.StateUpdater = updaterTap{cl: cl, next: cfg.StateUpdater}
		}
		return f(&c)
	}
}
