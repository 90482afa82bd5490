package concurrent

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/benbjohnson/clock"
	metrics "github.com/hashicorp/go-metrics"
)

// Ends of a lone runner's life, drawn per check.
const (
	endShutdown        = iota // Shutdown
	endDestroy                // Destroy
	endStopThenDestroy        // Update to a stopped alloc, then Destroy
	endBoth                   // Shutdown and Destroy from two goroutines
	ends
)

// loneRunners is how many lone runners a round runs side by side.
const loneRunners = 4

// checkRunners runs loneRunners lone runner checks at once.
func checkRunners(f interfaces.Factory, seed uint64, out *prop.Outcome, reach func(string)) {
	n := loneRunners
	outs := make([]prop.Outcome, n)
	reached := make([][]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			checkRunner(f, seed, uint64(i), &outs[i], func(name string) { reached[i] = append(reached[i], name) })
		})
	}
	wg.Wait()
	for i := range n {
		out.Violations = append(out.Violations, outs[i].Violations...)
		if out.Harness == nil {
			out.Harness = outs[i].Harness
		}
		for _, name := range reached[i] {
			reach(name)
		}
	}
}

// checkRunner is one check of a lone alloc runner: its Run starts while
// users call it, and a Shutdown or Destroy races the start.
func checkRunner(f interfaces.Factory, seed, n uint64, out *prop.Outcome, reach func(string)) {
	r := rand.New(rand.NewPCG(seed, 2+n))
	wall := clock.New() // the check's own waits
	clk := newScaledClock(wall)
	w := &watch{}
	driver := mock.New(mock.Config{Clock: clk})
	defer driver.Close()
	m, err := hookstats.NewMetrics(&metrics.BlackholeSink{})
	if err != nil {
		out.Harness = err
		return
	}
	contacted := make(chan struct{})
	close(contacted)
	alloc := newAlloc(10+int(n), 1, n%2 == 1, clk.Now())
	cfg := &interfaces.Config{
		Alloc:              alloc,
		Logger:             slog.New(slog.NewTextHandler(io.Discard, nil)),
		Clock:              clk,
		Rand:               rand.New(rand.NewPCG(seed, 3)),
		ClientConfig:       &interfaces.ClientConfig{NodeID: nodeID, Datacenter: "dc1", Region: "global"},
		Metrics:            m,
		StateDB:            statePort{w: w, db: state.NewMemDB(state.MemConfig{})},
		StateUpdater:       &updater{w: w},
		DriverManager:      drivers.NewRegistry(driverPort{w: w, d: driver}),
		CSIManager:         csiPort{w: w},
		AllocDirFactory:    allocdir.MemFactory(nil, allocdir.Config{Clock: clk}),
		ServersContactedCh: contacted,
		RPCClient:          rpcPort{w: w},
	}
	violate := func(what, got, want string) {
		out.Violations = append(out.Violations, prop.Violation{At: clk.Now(), Alloc: alloc.ID, What: what, Got: got, Want: want})
	}
	ar, err := f.NewAllocRunner(cfg)
	if err != nil {
		violate("NewAllocRunner", err.Error(), "no error")
		return
	}
	u := newUsers(wall, []string{alloc.ID}, func(string) (interfaces.AllocRunner, bool) { return ar, true }, nil)
	u.start(2, seed^(n<<32|0x5eed))
	ran := make(chan struct{})
	start := make(chan struct{})
	go func() {
		defer close(ran)
		<-start
		ar.Run()
	}()
	// The end races Run's start: at once, a few scheduler turns or a
	// spin of up to tens of microseconds later, or milliseconds later.
	close(start)
	switch r.IntN(4) {
	case 0:
	case 1:
		for range r.IntN(64) {
			runtime.Gosched()
		}
	case 2:
		spin(r.IntN(1 << 16))
	default:
		pause(wall, time.Duration(1+r.IntN(4))*time.Millisecond)
	}
	end := r.IntN(ends)
	var want []<-chan struct{}
	switch end {
	case endShutdown:
		ar.Shutdown()
		want = append(want, ar.ShutdownCh())
	case endDestroy:
		ar.Destroy()
		want = append(want, ar.DestroyCh(), ar.ShutdownCh())
	case endStopThenDestroy:
		stop := alloc.Copy()
		stop.DesiredStatus, stop.AllocModifyIndex = structs.AllocDesiredStatusStop, 2
		ar.Update(stop)
		ar.Destroy()
		want = append(want, ar.DestroyCh(), ar.ShutdownCh())
	default:
		go ar.Shutdown()
		ar.Destroy()
		want = append(want, ar.ShutdownCh())
	}
	timeout := wall.Timer(returnWait)
	defer timeout.Stop()
	for i, ch := range append(want, ran) {
		select {
		case <-ch:
		case <-timeout.C:
			what := "Run to return"
			if i < len(want) {
				what = "ShutdownCh or DestroyCh to close"
			}
			violate(fmt.Sprintf("end %d of a lone runner: waiting for %s", end, what), fmt.Sprintf("still waiting after %v:\n%s", returnWait, stacks()), "done")
			return
		}
	}
	reach(fmt.Sprintf("runner-end-%d", end))
	done := u.end()
	select {
	case <-done:
	case <-timeout.C:
		violate("AllocRunner calls", fmt.Sprintf("still running after %v:\n%s", returnWait, stacks()), "return")
		return
	}
	for _, p := range u.problems {
		violate("a concurrent call's result", p, "a well-formed result")
	}
}

// spins is where spin's work goes, so that the compiler keeps it.
var spins atomic.Uint64

// spin waits n steps without blocking (a wait shorter than a timer's).
func spin(n int) {
	x := uint64(n)
	for i := range n {
		x = x*6364136223846793005 + uint64(i)
	}
	spins.Add(x)
}
