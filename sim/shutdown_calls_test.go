package sim

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// pullingClient keeps one blocking alloc pull in flight, made with a
// context its Shutdown cancels; Shutdown waits for the pulling goroutine
// unless leave is set (a client whose Shutdown returns before a
// goroutine it cancelled ended).
type pullingClient struct {
	opts   *interfaces.ClientOptions
	leave  bool
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (c *pullingClient) Start() error {
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	rpc := c.opts.RPCClient.(interface {
		RPCContext(ctx context.Context, method string, args, reply any) error
	})
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		args := &structs.NodeClientAllocsRequest{NodeID: c.opts.Node.NodeID, QueryOptions: structs.QueryOptions{Region: "global", MinQueryIndex: 1 << 40}}
		var reply structs.NodeClientAllocsIndexResponse
		_ = rpc.RPCContext(ctx, structs.RPCNodeGetClientAllocs, args, &reply)
	}()
	return nil
}

func (c *pullingClient) Shutdown() {
	c.cancel()
	if !c.leave {
		c.wg.Wait()
	}
}

func (c *pullingClient) ClientRPC(string, any, any) error { return errors.New("serves nothing") }

func (c *pullingClient) AllocRunner(string) (interfaces.AllocRunner, bool) { return nil, false }

func (c *pullingClient) NodeID() string { return c.opts.Node.NodeID }

// TestStopChecksCallsInFlight: at a graceful stop, the call a client
// cancels ends only once the world releases it (after everything else),
// so a Shutdown that does not wait for the goroutine making it returns
// with the call in flight, and the world reports it; one that waits
// passes.
func TestStopChecksCallsInFlight(t *testing.T) {
	for _, leave := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			var c *pullingClient
			f := interfaces.Factory{Name: "pulling", NewClient: func(opts *interfaces.ClientOptions) (interfaces.Client, error) {
				c = &pullingClient{opts: opts, leave: leave}
				return c, nil
			}, NewAllocRunner: minimalFactory().NewAllocRunner}
			w, err := New(Config{Scenario: simpleScenario(nil), Factory: f})
			must.NoError(t, err)
			must.NoError(t, w.Start())
			w.Advance(time.Second) // the pull is in flight, blocking
			w.Do(func() { must.NoError(t, w.Stop()) })
			c.wg.Wait()
			err = w.Close()
			if leave {
				must.ErrorContains(t, err, "client incarnation 1's Shutdown returned with 1 RPC call(s) in flight")
			} else {
				must.NoError(t, err)
			}
		})
	}
}
