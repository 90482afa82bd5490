package client

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// TestNewChecksOptions: required options are reported by name.
func TestNewChecksOptions(t *testing.T) {
	r := newRig(t)
	cases := []struct {
		name   string
		mutate func(o *interfaces.ClientOptions)
		want   string
	}{
		{"node", func(o *interfaces.ClientOptions) { o.Node = nil }, "client options: node config is nil"},
		{"clock", func(o *interfaces.ClientOptions) { o.Clock = nil }, "client options: clock is nil"},
		{"rand", func(o *interfaces.ClientOptions) { o.Rand = nil }, "client options: rand source is nil"},
		{"state DB", func(o *interfaces.ClientOptions) { o.StateDB = nil }, "client options: state DB is nil"},
		{"rpc", func(o *interfaces.ClientOptions) { o.RPCClient = nil }, "client options: RPC client is nil"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := r.options()
			tc.mutate(opts)
			_, err := New(opts)
			must.EqError(t, err, tc.want)
		})
	}
	_, err := New(nil)
	must.EqError(t, err, "client options are nil")
}

// TestLifecycle: Start once, not after Shutdown; Shutdown is idempotent,
// persists and shuts down every runner and waits for their Run.
func TestLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1), testAlloc("b", 1))
		c := r.start()
		must.Eq(t, "node-1", c.NodeID())
		must.EqError(t, c.Start(), "client already started")
		synctest.Wait()
		r.shutdown()
		for _, id := range []string{"a", "b"} {
			fr := r.ff.runner(id)
			must.Eq(t, []string{"run", "persist", "shutdown"}, fr.callLog(), must.Sprintf("runner %s", id))
			<-fr.WaitCh() // Run has returned: Shutdown waited for it
		}
		c.Shutdown()
		must.EqError(t, c.Start(), "client is shut down")
	})
}

// TestShutdownBeforeStart: Shutdown of a client never started returns.
func TestShutdownBeforeStart(t *testing.T) {
	r := newRig(t)
	c, err := New(r.options())
	must.NoError(t, err)
	c.Shutdown()
	must.EqError(t, c.Start(), "client is shut down")
}

// TestShutdownPlainRPCClient: with a transport that cannot be cancelled,
// Shutdown returns once the transport fails the blocked pull.
func TestShutdownPlainRPCClient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1))
		r.startWith(func(o *interfaces.ClientOptions) { o.RPCClient = r.srv })
		r.advance(time.Second)
		must.Len(t, 1, r.srv.sent())
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.client.Shutdown()
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("Shutdown returned while the pull was still in flight")
		default:
		}
		r.srv.closeOnce()
		<-done
	})
}

// TestShutdownCancelsHangingUpdate: a hanging Node.UpdateAlloc on a
// ContextRPCClient is cancelled by Shutdown.
func TestShutdownCancelsHangingUpdate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.with(func(s *fakeServer) { s.hang = make(chan struct{}) })
		r.srv.put(testAlloc("a", 1))
		r.start()
		r.advance(time.Second) // the RPC hangs
		r.client.Shutdown()
		must.Eq(t, []string{"run", "persist", "shutdown"}, r.ff.runner("a").callLog())
	})
}

// TestSTATE2_Snapshot: every runner persists every 60 s.
func TestSTATE2_Snapshot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.ff.configure = func(fr *fakeRunner) { fr.quiet = true }
		r.srv.put(testAlloc("a", 1))
		r.start()
		r.advance(59 * time.Second)
		must.Eq(t, []string{"run"}, r.ff.runner("a").callLog())
		r.advance(time.Second)
		must.Eq(t, []string{"run", "persist"}, r.ff.runner("a").callLog())
		r.advance(60 * time.Second)
		must.Eq(t, []string{"run", "persist", "persist"}, r.ff.runner("a").callLog())
		r.shutdown()
	})
}

// TestAR2_RunnerConfig: what each runner is given (AR-2, TELEM-2/5).
func TestAR2_RunnerConfig(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1), testAlloc("b", 1))
		c := r.start()
		synctest.Wait()
		a, b := r.ff.runner("a").cfg, r.ff.runner("b").cfg
		must.Eq(t, hookstats.BaseLabels("node-1", "dc1", "", "default"), a.BaseLabels)
		must.Eq(t, "none", a.BaseLabels[2].Value)
		must.True(t, a.ClientConfig.DisableAllocationHookMetrics)
		must.Eq(t, "global", a.ClientConfig.Region)
		must.True(t, a.ClientConfig != b.ClientConfig) // own copies
		a.BaseLabels[0].Value = "mutated"
		must.Eq(t, "node-1", b.BaseLabels[0].Value)
		must.NotNil(t, a.PrevAllocWatcher)
		must.NotNil(t, a.PrevAllocMigrator)
		must.NoError(t, a.PrevAllocMigrator.Migrate(t.Context(), nil))
		must.NoError(t, a.PrevAllocWatcher.Wait(t.Context()))
		must.False(t, a.PrevAllocMigrator.IsMigrating() || a.PrevAllocWatcher.IsWaiting())
		must.True(t, a.Clock == clock.Clock(r.clk))
		must.NotNil(t, a.StateUpdater)
		must.NoError(t, a.StateUpdater.PutAllocation(testAlloc("z", 1)))
		<-a.ServersContactedCh
		must.NotEq(t, a.Rand.Uint64(), b.Rand.Uint64())
		_, ok := c.AllocRunner("a")
		must.True(t, ok)
		r.shutdown()
	})
}

// TestDET1_RunnerRandFromSeed: runner sources are derived from the
// client's seed in alloc-ID order: the same seed gives the same streams.
func TestDET1_RunnerRandFromSeed(t *testing.T) {
	draws := func(seed uint64) []uint64 {
		var out []uint64
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t)
			r.seed = seed
			r.srv.put(testAlloc("b", 1), testAlloc("a", 1))
			r.start()
			synctest.Wait()
			out = []uint64{r.ff.runner("a").cfg.Rand.Uint64(), r.ff.runner("b").cfg.Rand.Uint64()}
			r.shutdown()
		})
		return out
	}
	one := draws(1)
	must.Eq(t, one, draws(1))
	must.NotEq(t, one, draws(2))
	// The first runner (alloc-ID order) gets the first derived source.
	seeds := rand.New(rand.NewPCG(1, 7))
	runnerSeeds := rand.New(rand.NewPCG(seeds.Uint64(), seeds.Uint64()))
	first := rand.New(rand.NewPCG(runnerSeeds.Uint64(), runnerSeeds.Uint64()))
	must.Eq(t, first.Uint64(), one[0])
}

// TestRunnerFactoryRequired: a client has no default alloc runner; a nil
// factory is refused (reference.Factory names both halves).
func TestRunnerFactoryRequired(t *testing.T) {
	r := newRig(t)
	opts := r.options()
	opts.AllocRunnerFactory = nil
	_, err := New(opts)
	must.EqError(t, err, "client options: alloc runner factory is nil (reference.Factory pairs this client with the reference alloc runner)")
}

// TestRegistryOrder: the registry lists live runners by alloc ID and
// retiring ones in retirement order.
func TestRegistryOrder(t *testing.T) {
	reg := newRegistry()
	x, y, z := &fakeRunner{}, &fakeRunner{}, &fakeRunner{}
	reg.add("c", x, 1)
	reg.add("a", y, 1)
	reg.add("b", z, 1)
	_, k1, ok := reg.retire("c")
	must.True(t, ok)
	_, _, ok = reg.retire("nope")
	must.False(t, ok)
	reg.setModifyIndex("nope", 3)
	live, retiring := reg.all()
	var ids []string
	for _, e := range live {
		ids = append(ids, e.id)
	}
	must.Eq(t, []string{"a", "b"}, ids)
	must.Eq(t, []interfaces.AllocRunner{x}, retiring)
	reg.release(k1)
	_, retiring = reg.all()
	must.SliceEmpty(t, retiring)
	must.True(t, slices.Equal([]interfaces.AllocRunner{y, z}, runnersOf(live)))
	_, ok = reg.entry("zz")
	must.False(t, ok)
}

// slowShutdownRunner finishes its Shutdown one virtual second later, in a
// timer callback, as the reference runner finishes persisting in its own
// goroutine.
type slowShutdownRunner struct {
	*fakeRunner
	clk  *vclock.Clock
	done chan struct{}
	once sync.Once
}

func (r *slowShutdownRunner) Shutdown() {
	r.fakeRunner.Shutdown() // Run returns now; the shutdown finishes later
	r.once.Do(func() { r.clk.AfterFunc(time.Second, func() { close(r.done) }) })
}

func (r *slowShutdownRunner) ShutdownCh() <-chan struct{} { return r.done }

// TestShutdownWaitsForRunnerShutdown: the client's Shutdown returns only
// once every runner's ShutdownCh closed (interfaces.Client: all of the
// client's work has ended), not when Run returned.
func TestShutdownWaitsForRunnerShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a", 1))
		var slow *slowShutdownRunner
		c := r.startWith(func(o *interfaces.ClientOptions) {
			o.AllocRunnerFactory = func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
				ar, err := r.ff.build(cfg)
				if err != nil {
					return nil, err
				}
				slow = &slowShutdownRunner{fakeRunner: ar.(*fakeRunner), clk: r.clk, done: make(chan struct{})}
				return slow, nil
			}
		})
		synctest.Wait()
		must.NotNil(t, slow)
		returned := make(chan struct{})
		go func() {
			c.Shutdown()
			close(returned)
		}()
		synctest.Wait()
		select {
		case <-returned:
			t.Fatal("Shutdown returned before the runner's ShutdownCh closed")
		default:
		}
		r.clk.Add(time.Second)
		<-returned
	})
}
