package sim

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/internal/bubbletime"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/csi"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/allocsim/allocsim/sim/transport"
	"github.com/allocsim/allocsim/sim/vclock"
)

// Node configuration of the simulated client (TELEM-2 labels come from it).
const (
	Datacenter = "dc1"
	NodePool   = "default"
	Region     = "global"
)

var (
	errNoClientFactory = errors.New("sim: Factory.NewClient is nil: the simulator has no default client (impl/reference names the built-in runners)")
	errNoRunnerFactory = errors.New("sim: Factory.NewAllocRunner is nil: the simulator has no default alloc runner (impl/reference names the built-in runners)")
)

// Config configures a World.
type Config struct {
	// Scenario is the run (validated by New).
	Scenario scenario.Scenario
	// Factory is the runner under test; NewClient and NewAllocRunner are
	// both required. The world wraps NewAllocRunner to observe the
	// runners' StateUpdater, so the client must build its runners with
	// ClientOptions.AllocRunnerFactory.
	Factory interfaces.Factory
	// Logger is handed to the client; nil discards.
	Logger *slog.Logger
	// DiscardTrace counts trace records without keeping them (long
	// benchmarks); the trace is then empty.
	DiscardTrace bool
	// Hold says which injected calls the world holds and releases one at
	// a time (see Hold); zero means DefaultHold.
	Hold Hold
	// UnbatchedStateDB hands each client incarnation its state DB as a
	// plain interfaces.StateDB, without impl/state's extensions (Batch,
	// the alloc runner's frozen puts), as a state DB of the client's user's
	// own would be: the client's 60 s snapshot then writes alloc by alloc.
	// The storage and what is traced are the same.
	UnbatchedStateDB bool
}

// Hold is a set of injection points whose calls the world holds at its
// gate and releases one at a time, in an order drawn from the seed.
type Hold uint8

// Injection points.
const (
	HoldDriver  Hold = 1 << iota // every mock driver call
	HoldCSI                      // CSI mounts and unmounts
	HoldStateDB                  // state DB writes
	HoldRPC                      // client-to-server RPCs, before they are sent
	// HoldPriority holds every GetUpdatePriority call of the client's
	// sync tick (priority.go); not in DefaultHold.
	HoldPriority
	// HoldNone holds nothing: goroutines race freely between clock
	// events (the replay test then judges whether the runner is
	// deterministic on its own).
	HoldNone Hold = 1 << 7
	// DefaultHold holds driver and CSI calls, state DB writes and RPCs,
	// so that neither a failing write nor a reply that comes at once (no
	// latency fault) races the runners' goroutines within one instant
	// (DET-3).
	// A runner under a hold must not wait for a sync.Mutex that another
	// goroutine holds across a held call: a goroutine waiting for a mutex
	// is not durably blocked, so the world would never settle (it hangs;
	// sim.Test's stall watchdog then ends the process with a diagnosis).
	// Locks held across injected calls must be channels (the reference
	// runner's channel locks, impl/interfaces' stateLock); a runner that cannot comply runs with a smaller
	// set, e.g. HoldDriver | HoldCSI.
	DefaultHold = HoldDriver | HoldCSI | HoldStateDB | HoldRPC
)

func (h Hold) has(p Hold) bool {
	if h == 0 {
		h = DefaultHold
	}
	return h&p != 0 && h&HoldNone == 0
}

// worldIDs numbers worlds within the process, for goroutine labels only
// (never traced).
var worldIDs atomic.Uint64

// World is one simulated run: a virtual clock, the server, the network,
// the CSI plugin, the state DB and alloc dirs that outlive client
// crashes, the fault injector, and the client under test, run one settled
// instant at a time inside the caller's testing/synctest bubble. See the
// package doc.
type World struct {
	cfg    Config
	sc     scenario.Scenario
	id     string
	clk    *vclock.Clock
	gate   *gate
	rec    *trace.Recorder
	inj    *faults.Injector
	srv    *server.Server
	net    *transport.Network
	csi    *csi.Plugin
	fsys   *allocdir.MemFS
	node   *interfaces.ClientConfig
	logger *slog.Logger
	watch  *worldWatch // what the stall watchdog reads (watch.go)
	// bubble sleeps the synctest bubble's own clock in step with clk,
	// offset behind it (instep.go); nil outside a bubble.
	bubble  *bubbletime.Waiter
	offset  time.Duration
	hooks   hookLog // port calls and metric emissions (hooktime.go)
	configs configs // the runners' Configs, for SpareRunner (spare.go)
	sync    syncLog // UpdateAlloc calls, first contacts, pushes (synclog.go)

	mu         sync.Mutex
	db         interfaces.StateDB
	inc        *incarnation
	incN       int
	retired    []*incarnation
	observed   map[string]*observedAlloc
	dirty      []string    // IDs of the observed allocs pushed since the last trace (observe.go)
	stamps     [2]stampLog // the stamp check's verdicts, DET-1 and SYNC-1 (stamps.go)
	violations []string
	jump       time.Duration
	agenda     []agendaItem
	agendaSeq  int
	steps      uint64
	started    bool
	closed     bool

	// stampCounts is checkTaskStamps' scratch map, reused under mu.
	stampCounts map[stampEvent]int
}

// New builds the world of cfg.Scenario. It must be called inside a
// testing/synctest bubble (the caller's synctest.Test), like every other
// World method: the world advances the clock with synctest.Wait barriers.
// The client is not started: call Start.
func New(cfg Config) (*World, error) {
	sc := cfg.Scenario
	if cfg.Factory.NewClient == nil {
		return nil, errNoClientFactory
	}
	if cfg.Factory.NewAllocRunner == nil {
		return nil, errNoRunnerFactory
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	if sc.Profile == "" {
		sc.Profile = string(schedule.ProfileEnt)
	}
	w := &World{
		cfg: cfg, sc: sc, id: fmt.Sprintf("w%d", worldIDs.Add(1)),
		clk: vclock.New(sc.Start), rec: trace.NewRecorder(!cfg.DiscardTrace),
		observed: map[string]*observedAlloc{}, logger: cfg.Logger,
	}
	if w.logger == nil {
		w.logger = slog.New(slog.DiscardHandler)
	}
	if err := w.clk.Err(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	w.clk.SetBarrier(synctest.Wait)
	w.alignBubble()
	w.gate = newGate(seeds.Stream(sc.Seed, "schedule"))
	if err := w.build(); err != nil {
		return nil, err
	}
	w.schedule()
	w.watch = w.watchWorld()
	return w, nil
}

// build makes the world's parts.
func (w *World) build() error {
	sc := w.sc
	w.inj = faults.NewInjector(faults.Config{
		Seed: sc.Seed, Plan: sc.Faults, Clock: w.clk, Start: sc.Start, OnFire: w.onFault,
	})
	srv, err := server.New(server.Config{
		Clock: w.clk, Rand: seeds.Stream(sc.Seed, "server"), Profile: schedule.Profile(sc.Profile), Trace: w.rec,
	})
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	w.srv = srv
	w.net, err = transport.New(transport.Config{Clock: w.clk, Server: srv, Faults: w.inj, Trace: w.rec})
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	w.csi = csi.New(csi.Config{Clock: w.clk, Faults: w.inj, Trace: w.rec})
	w.fsys = allocdir.NewMemFS(w.clk)
	w.db = state.NewMemDB(state.MemConfig{FaultHook: w.stateFault, BatchHook: w.stateBatch})
	loc := time.UTC
	if sc.LocalZone != "" {
		if loc, err = schedule.Location(sc.LocalZone); err != nil {
			return fmt.Errorf("sim: local zone: %w", err)
		}
	}
	w.node = &interfaces.ClientConfig{
		NodeID: seeds.ID(seeds.Stream(sc.Seed, "node")), Datacenter: Datacenter, NodeClass: sc.NodeClass, NodePool: NodePool,
		Region: Region, LocalZone: loc, ScheduleProfile: sc.Profile,
		DisableAllocationHookMetrics: sc.DisableAllocationHookMetrics,
	}
	if err := srv.RegisterNode(w.node.NodeID, syncpolicy.NodeStatusReady); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	return nil
}

// Start starts the client (incarnation 1). Its errors are the client's
// construction or Start errors.
func (w *World) Start() error {
	w.mu.Lock()
	if w.started {
		w.mu.Unlock()
		return errors.New("sim: world already started")
	}
	w.started = true
	w.mu.Unlock()
	w.emit(trace.KindWorld, "start", map[string]any{
		"scenario": w.sc.Name, "seed": w.sc.Seed, "node": w.node.NodeID, "runner": w.cfg.Factory.Name,
	})
	return w.startIncarnation()
}

// Now is the virtual time.
func (w *World) Now() time.Time { return w.clk.Now() }

// Clock is the world's virtual clock.
func (w *World) Clock() *vclock.Clock { return w.clk }

// Scenario is the run's scenario.
func (w *World) Scenario() scenario.Scenario { return w.sc }

// Server is the simulated server.
func (w *World) Server() *server.Server { return w.srv }

// Network is the simulated network.
func (w *World) Network() *transport.Network { return w.net }

// CSI is the simulated CSI plugin.
func (w *World) CSI() *csi.Plugin { return w.csi }

// NodeID is the client's node.
func (w *World) NodeID() string { return w.node.NodeID }

// NodeClass is the client node's class (the scenario's; empty is none).
func (w *World) NodeClass() string { return w.node.NodeClass }

// Trace is the run's trace recorder.
func (w *World) Trace() *trace.Recorder { return w.rec }

// Steps is the number of settled instants the world has advanced through.
func (w *World) Steps() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.steps
}

// Client is the running client, or nil while it is crashed.
func (w *World) Client() interfaces.Client {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.inc == nil {
		return nil
	}
	return w.inc.client
}

// Metrics reads the hook telemetry recorded so far (TELEM-1).
func (w *World) Metrics() []hookstatstest.Metric {
	w.hooks.mu.Lock()
	defer w.hooks.mu.Unlock()
	return w.hooks.tally.Metrics()
}

// Violations are the harness-detected violations so far: goroutines left
// by a shut-down client, activity of a client after its Shutdown
// returned, a hung shutdown, a livelock.
func (w *World) Violations() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.violations...)
}

func (w *World) violation(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	w.mu.Lock()
	w.violations = append(w.violations, msg)
	w.mu.Unlock()
	w.rec.Append(trace.Record{At: w.clk.Now(), Kind: trace.KindViolation, Msg: msg})
}

// emit records a world-level record at the current instant.
func (w *World) emit(kind trace.Kind, msg string, data any) {
	w.rec.Emit(trace.Record{At: w.clk.Now(), Kind: kind, Msg: msg, Data: trace.Encode(data)})
}

// onFault traces a per-call fault.
func (w *World) onFault(f faults.Fired) {
	w.rec.Emit(trace.Record{At: w.clk.Now(), Kind: trace.KindFault, Alloc: f.Alloc, Task: f.Task,
		Op: string(f.Class) + " " + f.Key, Msg: f.Detail})
}

// stateFault is the state DB's fault hook: it holds (HoldStateDB),
// decides and traces every write (STATE-1); a write of a batch was held
// with its batch (stateBatch).
func (w *World) stateFault(wr state.Write) error {
	w.mu.Lock()
	inc := w.inc
	w.mu.Unlock()
	if inc == nil {
		// Only a live client writes through an open handle; this is the
		// final shutdown, after the trace ended.
		return nil
	}
	if w.cfg.Hold.has(HoldStateDB) && !wr.InBatch {
		w.hold(inc, "statedb "+wr.String())
	}
	err := w.inj.StateDBWrite(wr)
	msg := "ok"
	if err != nil {
		msg = err.Error()
	}
	rec := trace.Record{At: w.clk.Now(), Kind: trace.KindStateDB, Alloc: wr.AllocID, Task: wr.Task, Msg: msg}
	if w.rec.Keeps() { // a recorder that only counts needs no Op built
		rec.Op = wr.Op + " " + wr.Key
	}
	w.rec.Emit(rec)
	return err
}

// stateBatch is the state DB's batch hook: a batch of writes (a client's
// 60 s snapshot, state.DB.Batch) is held once, as one call, before its
// first write (HoldStateDB). Its writes are decided and traced one by one
// (stateFault); the trace orders them by alloc within the instant either
// way.
func (w *World) stateBatch() {
	w.mu.Lock()
	inc := w.inc
	w.mu.Unlock()
	if inc != nil && w.cfg.Hold.has(HoldStateDB) {
		w.hold(inc, "statedb batch")
	}
}

// TaskLocalState reads a task's persisted local state (STATE-1
// local_state: hook states, handle, RunComplete) from the state DB
// storage, as a restore would load it now; nil if none. It only reads.
func (w *World) TaskLocalState(allocID, task string) (*interfaces.LocalState, error) {
	w.mu.Lock()
	db := w.db
	w.mu.Unlock()
	ls, _, err := db.GetTaskRunnerState(allocID, task)
	return ls, err
}
