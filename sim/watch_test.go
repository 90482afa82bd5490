package sim

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/internal/watchdog"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// lockClient is a deliberately wrong client (DET-3): on Start (or
// lockDelay later), one of its goroutines takes a lock and, holding it,
// makes an injected call that the world holds at its gate; another
// goroutine then waits for the lock. The waiter is not durably blocked,
// so the world never settles: the stall watchdog must say so.
type lockClient struct {
	opts *interfaces.ClientOptions
	// rw: a sync.RWMutex write-locked across a state DB write at once,
	// waited for with RLock; else a sync.Mutex locked across an RPC after
	// lockDelay of virtual time (the world then wedges in a clock advance,
	// after settled steps).
	rw bool
	mu sync.Mutex
	rm sync.RWMutex
	// pushes is what the locks guard.
	pushes int
}

// lockDelay is when the Mutex variant of lockClient takes its lock.
const lockDelay = 30 * time.Second

func (c *lockClient) Start() error {
	locked := make(chan struct{})
	go func() {
		if c.rw {
			c.rm.Lock()
			close(locked)
			_ = c.opts.StateDB.PutAllocation(&structs.Allocation{ID: "a1"})
			c.rm.Unlock()
			return
		}
		<-c.opts.Clock.After(lockDelay)
		c.mu.Lock()
		close(locked)
		var reply structs.NodeClientAllocsIndexResponse
		_ = c.opts.RPCClient.RPC("Node.GetClientAllocs", &structs.NodeClientAllocsRequest{NodeID: c.opts.Node.NodeID}, &reply)
		c.mu.Unlock()
	}()
	go func() {
		<-locked
		if c.rw {
			c.rm.RLock()
			_ = c.pushes
			c.rm.RUnlock()
			return
		}
		c.mu.Lock()
		c.pushes++
		c.mu.Unlock()
	}()
	return nil
}

func (c *lockClient) Shutdown() {}

func (c *lockClient) ClientRPC(string, any, any) error {
	return errors.New("lock client serves nothing")
}

func (c *lockClient) AllocRunner(string) (interfaces.AllocRunner, bool) { return nil, false }

func (c *lockClient) NodeID() string { return c.opts.Node.NodeID }

// lockFactory is the wrong runner, named after its lock.
func lockFactory(rw bool) interfaces.Factory {
	name := "lock-across-rpc"
	if rw {
		name = "rwlock-across-statedb"
	}
	return interfaces.Factory{
		Name: name,
		NewClient: func(opts *interfaces.ClientOptions) (interfaces.Client, error) {
			return &lockClient{opts: opts, rw: rw}, nil
		},
		NewAllocRunner: minimalFactory().NewAllocRunner,
	}
}

const (
	// watchChildEnv selects the wrong runner of TestWatchdogChild: "mutex"
	// or "rwmutex"; unset, the test skips.
	watchChildEnv = "ALLOCSIM_WATCHDOG_CHILD"
	// watchChildSeed is the seed of the child's scenario.
	watchChildSeed = 424242
)

// TestWatchdogChild runs the wrong runner under Test; the world wedges
// and the watchdog ends the process. It runs only as the subprocess of
// TestWatchdogDiagnosesLockStall.
func TestWatchdogChild(t *testing.T) {
	variant := os.Getenv(watchChildEnv)
	if variant == "" {
		t.Skip("the subprocess of TestWatchdogDiagnosesLockStall")
	}
	sc := simpleScenario(nil, simpleJob("j1", 1, nil))
	sc.Seed = watchChildSeed
	Test(t, WatchConfig{}, func(t *testing.T) {
		w, err := New(Config{Scenario: sc, Factory: lockFactory(variant == "rwmutex")})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		w.Run()
		_ = w.Close()
	})
	t.Fatal("the world settled: the wrong runner should have wedged it")
}

// TestWatchdogDiagnosesLockStall runs a runner that holds a lock across a
// held injected call while another of its goroutines waits for the lock,
// in a subprocess (a wedged bubble cannot be unwound), with a 2 s stall
// period (from the flag, and from the environment), and checks the
// diagnosis: the runner, the rule, the seed, the waiting goroutine's
// stack, the lock holder's stack at the gate and why it hangs.
func TestWatchdogDiagnosesLockStall(t *testing.T) {
	for _, tc := range []struct {
		variant, runner, frame, held string
		viaEnv                       bool
		// where the world wedged
		now, step, waiting string
	}{
		{"mutex", "lock-across-rpc", "sync.(*Mutex).Lock", "rpc Node.GetClientAllocs", false,
			"2024-06-14T08:55:00Z", "3", "synctest.Wait, settling step 4"},
		{"rwmutex", "rwlock-across-statedb", "sync.(*RWMutex).RLock", "statedb put a1/alloc", true,
			"2024-06-14T08:55:00Z", "none (the world has not settled once)", "synctest.Wait, settling step 1"},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			t.Parallel()
			// Only a bound so that a broken watchdog cannot hang CI; the
			// test asserts no duration.
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			args := []string{"-test.run=^TestWatchdogChild$", "-test.count=1"}
			env := append(os.Environ(), watchChildEnv+"="+tc.variant)
			if tc.viaEnv {
				env = append(env, watchdog.EnvStall+"=2s")
			} else {
				args = append(args, "-sim.stall=2s")
			}
			cmd := exec.CommandContext(ctx, os.Args[0], args...)
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			must.True(t, errors.As(err, &exit), must.Sprintf("child: %v\n%s", err, out))
			must.EqOp(t, 2, exit.ExitCode(), must.Sprintf("the watchdog exits 2\n%s", out))
			text := string(out)
			for _, want := range []string{
				"DET-3: the world did not settle",
				`runner "` + tc.runner + `"`,
				"seed " + strconv.Itoa(watchChildSeed),
				"--- seed\n" + strconv.Itoa(watchChildSeed) + "\n",
				"virtual time:      " + tc.now,
				"last settled step: " + tc.step,
				"waiting for:       " + tc.waiting,
				"held at the gate:  1\n  " + tc.held,
				"A goroutine waiting for a sync.Mutex or sync.RWMutex is not durably blocked, so synctest.Wait never returns",
				"must be channels",
				"like the stateLock of impl/interfaces' doc",
				"goroutine(s) of the bubble waiting for a sync lock",
				tc.frame,
				"goroutine(s) of the bubble holding an injected call at the world's gate",
				"To reproduce: go test ./sim -run '^TestWatchdogChild$'",
			} {
				must.StrContains(t, text, want, must.Sprint(text))
			}
			if tc.step == "" {
				must.StrNotContains(t, text, "last settled step: none", must.Sprint("it wedged after settled steps\n", text))
			}
			// The lock waiter comes before the other goroutines.
			must.Less(t, strings.Index(text, "holding an injected call"), strings.Index(text, tc.frame))
		})
	}
}

// TestRunPattern: the reproduce command selects exactly the test.
func TestRunPattern(t *testing.T) {
	must.EqOp(t, `^TestReplay$/^reference$`, runPattern("TestReplay/reference"))
	must.EqOp(t, `^TestX$/^a\.b\(1\)$`, runPattern("TestX/a.b(1)"))
}
