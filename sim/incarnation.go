package sim

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/allocsim/allocsim/sim/transport"
)

var (
	errClosed         = errors.New("sim: world closed")
	errNotRunning     = errors.New("sim: no client is running")
	errAlreadyRunning = errors.New("sim: a client is already running")
)

// incarnation is one run of the client process: from Start to a crash or
// the end of the run. The state DB's storage, the alloc dirs and the CSI
// plugin outlive it; its driver instance, connection and DB handle do not.
type incarnation struct {
	n      int
	label  string
	client interfaces.Client
	conn   *transport.Conn
	driver *mock.Driver
	db     interfaces.StateDB
	// alive is false from the crash (or the end) on: pushes are no longer
	// traced.
	alive atomic.Bool
	// down is true once Shutdown returned: any activity after that is a
	// leak.
	down atomic.Bool
	// calls counts the RPCs in progress (rpcPort).
	calls atomic.Int32
}

// startIncarnation starts the next client incarnation: a fresh mock
// driver on the same clock (it recovers persisted handles, STATE-4), a new
// connection, the current DB handle, a rand stream of its own.
func (w *World) startIncarnation() error {
	w.mu.Lock()
	switch {
	case w.closed:
		w.mu.Unlock()
		return errClosed
	case w.inc != nil:
		w.mu.Unlock()
		return errAlreadyRunning
	}
	w.incN++
	inc := &incarnation{n: w.incN, label: fmt.Sprintf("%s/%d", w.id, w.incN), db: w.db}
	inc.alive.Store(true)
	// It is the current incarnation from now on: its restore writes are
	// traced and held like any others.
	w.inc = inc
	w.mu.Unlock()

	inc.driver = mock.New(mock.Config{Clock: w.clk, Faults: liveFaults{inc: inc, next: w.inj.Driver()}, OnEvent: func(ev mock.DriverEvent) {
		if inc.live() {
			w.onDriverEvent(ev)
		}
	}})
	inc.conn = w.net.Dial(w.node.NodeID)
	m, err := hookstats.NewMetrics(metricsPort{w: w, inc: inc})
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	opts := &interfaces.ClientOptions{
		Node:               w.node,
		Logger:             w.logger,
		Clock:              w.clk,
		Rand:               seeds.Stream(w.sc.Seed, fmt.Sprintf("client/%d", inc.n)),
		StateDB:            w.clientDB(inc.db),
		DriverManager:      drivers.NewRegistry(driverPort{w: w, inc: inc, d: inc.driver}),
		CSIManager:         csiPort{w: w, inc: inc},
		AllocDirFactory:    w.allocDirFactory(inc, allocdir.MemFactory(w.fsys, allocdir.Config{Clock: w.clk})),
		Metrics:            m,
		RPCClient:          rpcPort{w: w, inc: inc},
		AllocRunnerFactory: w.runnerFactory(inc),
	}
	withIncarnation(inc.label, func() {
		inc.client, err = w.cfg.Factory.NewClient(opts)
		if err == nil {
			err = inc.client.Start()
		}
	})
	w.emit(trace.KindWorld, trace.MsgClientStart, map[string]any{"incarnation": inc.n, "error": errString(err)})
	if err != nil {
		w.mu.Lock()
		w.inc = nil
		w.mu.Unlock()
		inc.alive.Store(false)
		inc.conn.Close()
		inc.driver.Close()
		if inc.client != nil {
			w.shutdown(inc)
		}
		return fmt.Errorf("sim: start client incarnation %d: %w", inc.n, err)
	}
	w.srv.Connect(w.node.NodeID, w.net.Forwarder(inc.conn, inc.client))
	return nil
}

// clientDB is the state DB handle the client is given: db itself, or
// without its extensions (Config.UnbatchedStateDB).
func (w *World) clientDB(db interfaces.StateDB) interfaces.StateDB {
	if w.cfg.UnbatchedStateDB {
		return unbatchedDB{db}
	}
	return db
}

// unbatchedDB offers only the methods of interfaces.StateDB.
type unbatchedDB struct{ interfaces.StateDB }

// Crash crashes the running client. A process death cuts every external
// effect at once, so first: it persists nothing more (its DB handle is
// closed; the storage is reopened for the next incarnation), reaches
// nobody (its connection is closed, ending its blocking queries; the
// server loses its path to the node) and drives nothing (its driver
// instance is closed: blocked driver calls fail, the tasks are abandoned,
// still running, to be recovered by the next incarnation's driver). Then
// the client is shut down so its goroutines wind down; every one of them
// must have ended once Shutdown returns (checked at the next settled
// instant).
func (w *World) Crash() error {
	w.mu.Lock()
	inc := w.inc
	if inc == nil {
		w.mu.Unlock()
		return errNotRunning
	}
	w.inc = nil
	inc.alive.Store(false)
	w.mu.Unlock()
	w.emit(trace.KindWorld, trace.MsgClientCrash, map[string]any{"incarnation": inc.n})
	w.srv.Connect(w.node.NodeID, nil)
	if err := w.reopenDB(inc); err != nil {
		return err
	}
	inc.conn.Close()
	inc.driver.Close()
	w.shutdown(inc)
	return nil
}

// Stop shuts the running client down gracefully, as an agent restart
// does: Shutdown runs while the incarnation still lives, with its state
// DB, servers and driver there (while it waits for a call in flight, the
// world goes on stepping), so it writes what STATE-2 writes on shutdown,
// traced; the tasks are left running (AR-1), to be
// recovered by the next incarnation's driver. Then the incarnation ends
// as at a crash: DB handle, connection and driver instance closed.
func (w *World) Stop() error {
	w.mu.Lock()
	inc := w.inc
	w.mu.Unlock()
	if inc == nil {
		return errNotRunning
	}
	w.emit(trace.KindWorld, trace.MsgClientStop, map[string]any{"incarnation": inc.n})
	inc.client.Shutdown()
	if n := inc.calls.Load(); n != 0 {
		w.violation("client incarnation %d's Shutdown returned with %d RPC call(s) in flight, want none (a goroutine of the client outlived Shutdown, which returns once all of them ended)", inc.n, n)
	}
	w.mu.Lock()
	if w.inc == inc {
		w.inc = nil
	}
	inc.alive.Store(false)
	w.mu.Unlock()
	w.srv.Connect(w.node.NodeID, nil)
	inc.conn.Close()
	w.retire(inc)
	return w.reopenDB(inc)
}

// Restart starts a new client incarnation after a crash; it restores from
// the state DB (STATE-3). First the plan's alloc_dir_loss removes the
// directories of the node's allocs it decides to lose, as a wiped data
// dir would: their runners' Restore fails.
func (w *World) Restart() error {
	w.loseAllocDirs()
	return w.startIncarnation()
}

// loseAllocDirs removes the alloc dirs the plan's alloc_dir_loss decides
// (one decision per alloc placed on the node, traced as a fault), through
// the alloc dir implementation itself and outside any incarnation: no
// runner's port call.
func (w *World) loseAllocDirs() {
	dirs := allocdir.MemFactory(w.fsys, allocdir.Config{Clock: w.clk})
	for _, id := range w.srv.NodeAllocIDs(w.node.NodeID) {
		if w.inj.AllocDirLoss(id) {
			if err := dirs(id).Destroy(); err != nil {
				w.violation("sim: alloc_dir_loss of %s: %v", id, err)
			}
		}
	}
}

// reopenDB closes the incarnation's DB handle and opens the storage again
// for the next one.
func (w *World) reopenDB(inc *incarnation) error {
	r, ok := inc.db.(state.Reopener)
	if !ok {
		return fmt.Errorf("sim: state DB %s cannot be reopened", inc.db.Name())
	}
	db, err := r.Reopen()
	if err != nil {
		return fmt.Errorf("sim: crash: %w", err)
	}
	w.mu.Lock()
	w.db = db
	w.mu.Unlock()
	return nil
}

// shutdown shuts the incarnation's client down, closes its driver
// instance (if still open) and queues the leak check.
func (w *World) shutdown(inc *incarnation) {
	inc.client.Shutdown()
	w.retire(inc)
}

// retire marks a shut-down incarnation down, closes its driver instance
// (if still open) and queues the leak check.
func (w *World) retire(inc *incarnation) {
	inc.down.Store(true)
	inc.driver.Close()
	w.mu.Lock()
	w.retired = append(w.retired, inc)
	w.mu.Unlock()
}

// checkRetired counts what is left of shut-down incarnations; with every
// other goroutine settled, none of theirs may remain.
func (w *World) checkRetired(retired []*incarnation) {
	for _, inc := range retired {
		if n, groups := leftGoroutines(inc.label); n != 0 {
			w.violation("client incarnation %d left %d goroutines after Shutdown returned, want none (a goroutine the runner started and never stopped): %s",
				inc.n, n, strings.Join(groups, "; "))
		}
	}
}

// onDriverEvent traces a mock driver event (called with the driver's
// lock held: it only records).
func (w *World) onDriverEvent(ev mock.DriverEvent) {
	alloc, task, _ := strings.Cut(ev.TaskID, "/")
	w.rec.Emit(trace.Record{At: ev.At, Kind: trace.KindDriver, Alloc: alloc, Task: task, Op: string(ev.Op), Msg: ev.Detail})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
