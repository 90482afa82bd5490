// Package sim is the deterministic simulator (DESIGN.md "Determinism",
// "Runs, traces, properties"; SPEC §11 DET-1..DET-4): it runs a client
// under test, built from an interfaces.Factory, against a virtual clock,
// a simulated server and network, a simulated CSI plugin, a mock driver
// and a state DB that outlives crashes, injects the faults of the
// scenario's plan, and records a byte-stable trace.
//
// # Using a World
//
// A World lives inside a testing/synctest bubble, which the caller's test
// opens with sim.Test (synctest.Test under the stall watchdog, below);
// everything else happens inside it:
//
//	func TestX(t *testing.T) {
//		sim.Test(t, sim.WatchConfig{}, func(t *testing.T) {
//			w, err := sim.New(sim.Config{Scenario: sc, Factory: f})
//			...
//			err = w.Start()               // client incarnation 1
//			ok := w.RunUntil(pred, time.Minute)
//			w.Advance(10 * time.Second)
//			_ = w.Crash(); _ = w.Restart()
//			err = w.Close()               // violations, joined
//			_ = w.Trace().WriteFile(path)
//		})
//	}
//
// sim.Run(cfg) does New, Start, Run (to the scenario's end) and Close.
// Factory.NewClient and Factory.NewAllocRunner are both required: the
// simulator has no default runner (impl/reference names the built-in ones).
//
// # How time advances (one event queue, one barrier per instant)
//
// The clock is a sim/vclock Clock on a benbjohnson/clock Mock, set to the
// scenario's start. Everything that takes time is a timer on it: driver
// starts and task exits (mock driver), CSI mount latency, RPC latency,
// the server's 50 ms commit window and blocking-query timeout, the
// client's own tickers and timers. The world advances one instant at a
// time:
//
//  1. settle: synctest.Wait until every goroutine of the bubble is
//     durably blocked; then release the held injected calls one at a
//     time (see below), waiting again after each;
//  2. observe: read the runners' newest states, write the records of the
//     instant in their deterministic order (sim/trace);
//  3. move the Mock to the earlier of the next due timer (read from the
//     Mock's queue, mockqueue.go) and the next world event, firing every
//     timer due then (the Mock settles after each timer); settle, observe;
//  4. run the world events due then (scenario jobs, API calls, timed
//     faults), after the timers of the same instant, each in a goroutine
//     of its own that the world waits for (advancing the clock while it
//     needs it, e.g. a crash's shutdown), settling after each;
//  5. apply a pending clock jump; repeat.
//
// The time package in step: inside the bubble the time package is
// virtual too. New moves the bubble's clock to the scenario's start, and
// before every move of the world's clock the bubble sleeps to the same
// instant, so a runner on time.Now, time.Sleep and time's timers sees the
// world's now; when one of its goroutines wakes on such a timer between
// two instants of the world and pushes or makes an injected call, the
// world stops at that instant too (instep.go, internal/bubbletime).
//
// Held calls: driver calls, CSI calls, state DB writes and RPCs (before
// they are sent) of the client under test are held at the world's gate
// and released one at a time, in an order drawn from the seed's
// "schedule" stream among the held calls sorted by key (Hold,
// DefaultHold). Same-instant races between a runner's goroutines at these
// points therefore resolve the same way on every run of a seed. A runner
// must not make a goroutine wait for a sync.Mutex that another goroutine
// holds across a held call (a goroutine waiting for a mutex is not
// durably blocked, so the world would never settle; the stall watchdog
// below says so): such locks must be channels, or the runner runs with a
// smaller Hold set.
//
// # Stall watchdog (DET-3: the world did not settle)
//
// A barrier that never returns cannot be noticed from inside the bubble,
// whose time then stands still. sim.Test (synctest.Test plus a watchdog)
// handles it:
//
//  1. before it opens the bubble, it starts a watchdog goroutine on the
//     real clock (internal/watchdog, the simulator's one real-clock
//     reader; detlint is not run on it);
//  2. every World built in the bubble publishes, through atomics only
//     (watch.go), a progress counter bumped on each return of
//     synctest.Wait and of a clock advance, the barrier it is in, its last
//     settled step and that step's virtual time; it is watched from New to
//     the end of Close;
//  3. once the bubble's open worlds (or, after the body returned, the wait
//     for the bubble's goroutines to exit) have made no progress for the
//     stall period, the watchdog prints to standard error "DET-3: the
//     world did not settle" with each world's runner (Factory.Name), seed,
//     virtual time, last settled step, barrier, held calls, scenario and
//     last trace lines; why; the stacks of the bubble's goroutines (the
//     runtime marks them "synctest bubble <n>") in this order: waiting for
//     a sync.Mutex or RWMutex, holding a call at the gate (the lock
//     holders), otherwise not durably blocked, durably blocked; and the
//     replay command;
//  4. it ends the process with exit status 2: a wedged bubble cannot be
//     unwound.
//
// The stall period is 10 s of real time; WatchConfig.Stall sets another
// for a test, and -sim.stall=<d> or ALLOCSIM_STALL=<d> (0: off) override
// both, e.g. at a debugger. A test that keeps a world open while it works
// for seconds between world calls must raise it.
//
// GOMAXPROCS is not pinned: a test binary cannot pin it per run, and
// synctest makes it unnecessary for ordering (the barriers above do not
// depend on parallelism; the replay test runs under both -race and not).
//
// # Randomness
//
// One seed drives everything: every component draws from its own PCG
// stream derived by name (sim/seeds: "server", "client/<n>", "schedule",
// "node", "scenario"), and per-call fault decisions are keyed by what the
// call is about and its ordinal (seeds.Decision), so the order in which
// goroutines call does not change them.
//
// # Faults, crashes and clock jumps
//
// The scenario's plan (sim/faults) is swarm-drawn from the seed. Per-call
// faults act through the mock driver's Faults hook, the state DB's
// FaultHook, the transport and the CSI plugin. Timed faults are world
// events: a partition cuts the network for a period (sim/transport); a
// crash (Crash) cuts the client off at once (DB handle closed and the
// storage reopened, connection closed, driver instance closed: nothing it
// does afterwards reaches the world or the trace), shuts it down, and
// checks that all of its goroutines ended (pprof labels, leak.go), and a
// restart (Restart) starts a new incarnation on the same storage, which
// restores (STATE-3) and recovers tasks through a fresh driver instance
// (STATE-4); a clock jump suspends the host: time moves forward at once
// and every overdue timer fires once on resuming, in deadline order.
//
// # Observation and the trace
//
// Runners are observed through a wrapper of the StateUpdater their
// factory is given (the client must build runners with the
// AllocRunnerFactory of its options); the world traces, per settled instant, each alloc's client status change,
// each task's state change and each new task event. The driver's OnEvent,
// the transport, the CSI plugin, the state DB's fault hook and the server
// trace their own records; hook telemetry is read from the InmemSink at
// Close. The world also logs every alloc dir, task dir and CSI port call
// with its invoke and return instants (PortCalls) and every hook metric
// emission with its virtual instant (HookEmissions); a scenario's
// HookLatency gives alloc and task dir Builds virtual latency and traces
// both logs (KindPort, KindHookMetric), hooktime.go. Close seals the trace before tearing the client down.
//
// # Determinism checks (DET-1 stamps, DET-4 replay)
//
// Every run checks DET-1's clock rule where it observes a pushed alloc
// (stamps.go): a stamp the world has not seen before for that alloc (a
// task event's Time; a task state's StartedAt, FinishedAt, LastRestart;
// DeploymentStatus.Timestamp) must be the virtual now of the push (the
// clock moves only between settled instants and SYNC-1 pushes every
// change at once); after a restart a stamp no later than the
// incarnation's start and not before the run's may be restored state.
// The run's first offending stamp and the count are one violation at
// Close: "DET-1 (runner "<name>", seed <n>): <alloc>/<task> @<now>:
// TaskEvent "<type>".Time = <got>, want the world's virtual now <now>
// (...)"; a stamp of an earlier instant of the run is a late push,
// "SYNC-1 (runner ...): ... pushed <d> after the instant it was made".
// Close also reports goroutines a shut-down client left (LEAK, naming
// where each was started) and the server's rejections of the client's
// updates (SYNC-4, rejections.go).
//
// CheckReplay(cfg, opts) is DET-4 as a check: it runs cfg in fresh
// worlds (two, or opts.Runs) inside the caller's bubble and compares each
// trace with the first byte for byte; a difference is a *ReplayError
// naming the rule, the runner, the seed, the first differing line with
// two lines of context and both versions, and the replay command; failed
// runs come back as Failure values.
//
// # Failures
//
// Failure prints a failed run in labelled sections (seed, scenario, fault
// plan, violation, last trace lines) ending with the replay command;
// TestReplay takes -seed=<n> to replay one seed.
package sim
