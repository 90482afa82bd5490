package sim

import (
	"errors"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// leakyClient is a client that leaves a goroutine behind after Shutdown
// (released by the test), and may push an alloc through a runner's state
// updater after Shutdown, to show the world catches both.
type leakyClient struct {
	opts    *interfaces.ClientOptions
	release chan struct{}
	wg      *sync.WaitGroup
	// pushAfter, if set, is called from the leaked goroutine after
	// Shutdown returned.
	pushAfter func()
	stopped   chan struct{}
}

func (c *leakyClient) Start() error {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		<-c.stopped
		if c.pushAfter != nil {
			// Push only once Shutdown has returned and the world has marked
			// the incarnation down: wait for the world's next clock step
			// rather than racing the return of Crash.
			<-c.opts.Clock.After(time.Millisecond)
			c.pushAfter()
		}
		<-c.release
	}()
	return nil
}

func (c *leakyClient) Shutdown() { close(c.stopped) }

func (c *leakyClient) ClientRPC(string, any, any) error {
	return errors.New("leaky client serves nothing")
}

func (c *leakyClient) AllocRunner(string) (interfaces.AllocRunner, bool) { return nil, false }

func (c *leakyClient) NodeID() string { return c.opts.Node.NodeID }

// leakyFactory builds leaky clients; release ends their goroutines.
func leakyFactory(release chan struct{}, wg *sync.WaitGroup, push bool) interfaces.Factory {
	return interfaces.Factory{
		Name: "leaky",
		NewClient: func(opts *interfaces.ClientOptions) (interfaces.Client, error) {
			c := &leakyClient{opts: opts, release: release, wg: wg, stopped: make(chan struct{})}
			if push {
				ar, err := opts.AllocRunnerFactory(&interfaces.Config{
					Alloc:        &structs.Allocation{ID: "a1"},
					StateUpdater: nopUpdater{},
				})
				if err != nil {
					return nil, err
				}
				c.pushAfter = ar.Run
			}
			return c, nil
		},
		NewAllocRunner: minimalFactory().NewAllocRunner,
	}
}

type nopUpdater struct{}

func (nopUpdater) AllocStateUpdated(*structs.Allocation)   {}
func (nopUpdater) PutAllocation(*structs.Allocation) error { return nil }
