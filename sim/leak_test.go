package sim

import (
	"regexp"
	"runtime"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestLeftGoroutines: goroutines started under a label are counted and
// described until they end, including grandchildren.
func TestLeftGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		withIncarnation("w1/1", func() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				wg.Add(1)
				go func() { defer wg.Done(); <-stop }()
				<-stop
			}()
		})
		synctest.Wait()
		n, groups := leftGoroutines("w1/1")
		must.EqOp(t, 2, n)
		must.SliceLen(t, 2, groups)
		// Each group names its entry function and where it blocks.
		must.StrContains(t, groups[0], "1 × github.com/allocsim/allocsim/sim.TestLeftGoroutines.func1.1.1 (sim/leak_test.go:")
		must.StrContains(t, groups[1], "1 × github.com/allocsim/allocsim/sim.TestLeftGoroutines.func1.1.1.1 (sim/leak_test.go:")
		n, _ = leftGoroutines("w1/2")
		must.EqOp(t, 0, n)
		close(stop)
		wg.Wait()
		n, _ = leftGoroutines("w1/1")
		must.EqOp(t, 0, n)
	})
}

// leaker is a runner that starts a heartbeat goroutine on a ticker and
// never stops it: on the injected clock or on the time package's.
func leaker(name string, ticks func(cfg *interfaces.Config) <-chan time.Time) interfaces.Factory {
	return wrongFactory(name, func(cfg *interfaces.Config) *structs.Allocation {
		c := ticks(cfg)
		go func() {
			for range c {
			}
		}()
		return runningAlloc(cfg, cfg.Clock.Now(), structs.NewTaskEvent(structs.TaskReceived, cfg.Clock.Now()))
	})
}

// TestLeakReported: goroutines a runner leaves are a violation at Close
// naming where they were started, and, left blocked in the bubble when
// the run ends, are reported to WatchConfig.Leaked instead of ending the
// process (synctest.Test's deadlock panic is recovered).
func TestLeakReported(t *testing.T) {
	for _, f := range []interfaces.Factory{
		leaker("mockticker", func(cfg *interfaces.Config) <-chan time.Time { return cfg.Clock.Ticker(time.Second).C }),
		leaker("timeticker", func(*interfaces.Config) <-chan time.Time { return time.NewTicker(time.Second).C }),
	} {
		t.Run(f.Name, func(t *testing.T) {
			var left []string
			var err error
			Test(t, WatchConfig{Leaked: func(g []string) { left = g }}, func(t *testing.T) {
				_, err = Run(Config{Scenario: twoAllocs(), Factory: f})
			})
			must.ErrorContains(t, err, "client incarnation 1 left 2 goroutines after Shutdown returned, want none")
			// The goroutine's function and file are named (the closure's
			// name depends on the compiler: matched loosely).
			must.RegexMatch(t, regexp.MustCompile(`: 2 × github.com/allocsim/allocsim/sim\.\S*leaker\.func\d+\.1 \(sim/leak_test.go:\d+\), started by github.com/allocsim/allocsim/sim\.\S*leaker\.func\d+ \(sim/leak_test.go:\d+\)`), err.Error())
			must.SliceLen(t, 2, left)
			must.RegexMatch(t, regexp.MustCompile(`^chan receive in github.com/allocsim/allocsim/sim\.\S*leaker\.func\d+\.1 \(sim/leak_test.go:\d+\), started by github.com/allocsim/allocsim/sim\.\S*leaker\.func\d+ \(sim/leak_test.go:\d+\)$`), left[0])
		})
	}
}

// TestHarnessEntries: the leak check's cheap path recognises a test's
// own goroutine as the harness's and a goroutine the test started as
// not, from the last two frames of their stacks.
func TestHarnessEntries(t *testing.T) {
	tail := func() []uintptr {
		pcs := make([]uintptr, 128)
		n := runtime.Callers(0, pcs)
		must.Less(t, len(pcs), n) // not truncated
		return pcs[n-2 : n]
	}
	must.EqOp(t, "testing.tRunner", entry(tail()))
	var started []uintptr
	done := make(chan struct{})
	go func() { defer close(done); started = tail() }()
	<-done
	must.EqOp(t, "", entry(started))
}
