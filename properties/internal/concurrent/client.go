package concurrent

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/internal/watchdog"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/benbjohnson/clock"
	metrics "github.com/hashicorp/go-metrics"
)

// returnWait bounds every wait of a check for the runner (Shutdown, Run,
// the users' last calls): far beyond what a check needs, so that only a
// hang reaches it.
const returnWait = 10 * time.Second

// afterShutdown is how long a check goes on watching the ports once
// Shutdown returned.
const afterShutdown = 2 * time.Millisecond

// checkClient is one check of a node client: allocs run, get updated,
// stopped and removed while users call, and the client shuts down.
func checkClient(f interfaces.Factory, seed uint64, out *prop.Outcome, reach func(string)) {
	r := rand.New(rand.NewPCG(seed, 0))
	wall := clock.New() // the check's own waits
	clk := newScaledClock(wall)
	w := &watch{}
	n := 2 + r.IntN(2)
	var allocs []*structs.Allocation
	var ids []string
	for i := range n {
		a := newAlloc(i, 1, i == 0, clk.Now())
		allocs = append(allocs, a)
		ids = append(ids, a.ID)
	}
	srv := newServer(w, wall, allocs)
	driver := mock.New(mock.Config{Clock: clk})
	defer driver.Close()
	m, err := hookstats.NewMetrics(&metrics.BlackholeSink{})
	if err != nil {
		out.Harness = err
		return
	}
	opts := &interfaces.ClientOptions{
		Node:            &interfaces.ClientConfig{NodeID: nodeID, Datacenter: "dc1", Region: "global"},
		Logger:          slog.New(slog.NewTextHandler(io.Discard, nil)),
		Clock:           clk,
		Rand:            rand.New(rand.NewPCG(seed, 1)),
		StateDB:         statePort{w: w, db: state.NewMemDB(state.MemConfig{})},
		DriverManager:   drivers.NewRegistry(driverPort{w: w, d: driver}),
		CSIManager:      csiPort{w: w},
		AllocDirFactory: allocdir.MemFactory(nil, allocdir.Config{Clock: clk}),
		Metrics:         m,
		RPCClient:       srv,
	}
	var rs runs
	opts.AllocRunnerFactory = rs.factory(f.NewAllocRunner, w, wall)
	violate := func(what, got, want string) {
		out.Violations = append(out.Violations, prop.Violation{At: clk.Now(), What: what, Got: got, Want: want})
	}
	c, err := f.NewClient(opts)
	if err != nil {
		violate("NewClient", err.Error(), "no error")
		return
	}
	if err := c.Start(); err != nil {
		violate("client Start", err.Error(), "no error")
		return
	}
	u := newUsers(wall, ids, c.AllocRunner, c.ClientRPC)
	u.start(3, seed)
	closes := windowCloses(clk.Now())
	pause(wall, time.Duration(2+r.IntN(4))*time.Millisecond)
	// The server changes the allocs: one updated in place, one stopped
	// (the second), one removed from the node (the last).
	srv.change(func(index uint64, as map[string]*structs.Allocation) {
		up := as[ids[0]].Copy()
		up.AllocModifyIndex, up.ModifyIndex = index, index
		as[ids[0]] = up
		stop := as[ids[1]].Copy()
		stop.DesiredStatus, stop.AllocModifyIndex, stop.ModifyIndex = structs.AllocDesiredStatusStop, index, index
		as[ids[1]] = stop
		if len(ids) > 2 {
			delete(as, ids[len(ids)-1])
		}
	})
	pause(wall, time.Duration(r.IntN(5))*time.Millisecond)
	u.hush()
	if w.inFlight.Load() > 0 {
		reach("port-call-at-shutdown")
	}
	before := u.calls.Load()
	if !watchdog.Within(returnWait, c.Shutdown) {
		violate("Client.Shutdown", fmt.Sprintf("still running after %v:\n%s", returnWait, stacks()), "returns (interfaces.Client)")
		return
	}
	if left := w.hush(); left > 0 {
		violate("port calls in flight when Client.Shutdown returned", fmt.Sprint(left),
			"none: Shutdown returns when all of the client's goroutines have ended (interfaces.Client, rule 8)")
	}
	if open := rs.open(); open > 0 {
		violate("runners whose ShutdownCh is open when Client.Shutdown returned", fmt.Sprint(open),
			"none: the client shut every runner down or destroyed it (AR-1: both close ShutdownCh) and all its goroutines ended")
	}
	if left := rs.inFlight.Load(); left > 0 {
		violate("AllocRunner.Run calls in progress when Client.Shutdown returned", fmt.Sprint(left),
			"none: Shutdown returns when all of the client's goroutines have ended (interfaces.Client, rule 8)")
	}
	if u.calls.Load() > before {
		reach("calls-during-shutdown")
	}
	if clk.Now().Before(closes) {
		reach("window-closes-after-shutdown")
	}
	u.pace()
	// Watch on until the scheduled alloc's window closed (its pause
	// gate's timer fired) if it had not yet, and for afterShutdown.
	pause(wall, min(max(clk.Until(closes)/speedup, 0), 120*time.Millisecond)+afterShutdown)
	done := u.end()
	select {
	case <-done:
	case <-wall.After(returnWait):
		violate("AllocRunner calls after Client.Shutdown", fmt.Sprintf("still running after %v:\n%s", returnWait, stacks()), "return")
		return
	}
	if late := w.lateCalls(); len(late) > 0 {
		violate("port calls after Client.Shutdown returned", fmt.Sprint(late),
			"none: no goroutine of the client or its runners is left (interfaces.Client, rule 8)")
	}
	for _, p := range u.problems {
		violate("a concurrent call's result", p, "a well-formed result")
	}
}

// pause waits d on clk (real time).
func pause(clk clock.Clock, d time.Duration) {
	if d > 0 {
		<-clk.After(d)
	}
}

// stacks is the goroutine dump of a hang, cut to a readable size.
func stacks() string {
	buf := make([]byte, 1<<16)
	buf = buf[:runtime.Stack(buf, true)]
	return string(buf)
}
