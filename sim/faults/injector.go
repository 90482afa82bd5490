package faults

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/benbjohnson/clock"
)

// The errors injected faults return; errors.Is finds them through the
// wrapping of the component that returned them.
var (
	ErrDriverStart   = errors.New("simulated driver start failure")
	ErrDriverRecover = errors.New("simulated driver recover failure")
	ErrDriverStop    = errors.New("simulated driver stop failure")
	ErrStateDBWrite  = errors.New("simulated state DB write failure")
	ErrRPC           = errors.New("simulated rpc failure")
	ErrCSIMount      = errors.New("simulated CSI mount failure")
	ErrRunnerBuild   = errors.New("simulated alloc runner build failure")
)

// Fired is one per-call fault that fired, for the trace.
type Fired struct {
	Class Class
	// Key is what the call was about: a driver task ID ("<alloc>/<task>"),
	// a state DB write, an RPC method, a CSI volume ("<alloc>/<alias>").
	Key string
	// Alloc and Task locate it when the key names them (for a CSI volume,
	// Task is the volume alias).
	Alloc, Task string
	// Detail says what the fault did ("delay=1.5s", "exit_code=1").
	Detail string
}

// Config configures an Injector.
type Config struct {
	// Seed is the run seed.
	Seed uint64
	// Plan is the run's plan; only its per-call faults are used here (the
	// world fires the timed ones).
	Plan Plan
	// Clock and Start locate the run in time, for Until. A nil Clock
	// never heals anything.
	Clock clock.Clock
	Start time.Time
	// OnFire, if set, observes every fault that fires. It must not block.
	OnFire func(Fired)
}

// Injector decides per-call faults. It is safe for concurrent use.
type Injector struct {
	cfg     Config
	perCall map[Class]Fault

	mu     sync.Mutex
	calls  map[string]uint64
	healed bool
}

// Heal ends every per-call fault: from now on no call is faulted (the
// suite's liveness phase, after the scenario's faults).
func (in *Injector) Heal() {
	in.mu.Lock()
	in.healed = true
	in.mu.Unlock()
}

// NewInjector returns the injector of cfg's plan. If a per-call class is
// listed twice, the first entry counts.
func NewInjector(cfg Config) *Injector {
	in := &Injector{cfg: cfg, perCall: map[Class]Fault{}, calls: map[string]uint64{}}
	for _, f := range cfg.Plan {
		if _, dup := in.perCall[f.Class]; !f.Class.Timed() && !dup {
			in.perCall[f.Class] = f
		}
	}
	return in
}

// hit counts one call of class c about key and, if the fault fires for
// it, returns the decision's source (for the fault's parameters).
func (in *Injector) hit(c Class, key string) (Fault, *rand.Rand, bool) {
	f, ok := in.perCall[c]
	if !ok {
		return Fault{}, nil, false
	}
	in.mu.Lock()
	ck := string(c) + "\x00" + key
	n := in.calls[ck]
	in.calls[ck] = n + 1
	healed := in.healed
	in.mu.Unlock()
	if healed {
		return Fault{}, nil, false
	}
	if in.cfg.Clock != nil && !f.activeAt(in.cfg.Clock.Now().Sub(in.cfg.Start)) {
		return Fault{}, nil, false
	}
	r := seeds.Decision(in.cfg.Seed, string(c), key, n)
	if r.Float64() >= f.Rate {
		return Fault{}, nil, false
	}
	return f, r, true
}

// fire reports a fired fault about a key of the form "<alloc>/<task>".
func (in *Injector) fire(c Class, key, detail string) {
	alloc, task, _ := strings.Cut(key, "/")
	in.fireAt(Fired{Class: c, Key: key, Alloc: alloc, Task: task, Detail: detail})
}

func (in *Injector) fireAt(fd Fired) {
	if in.cfg.OnFire != nil {
		in.cfg.OnFire(fd)
	}
}

// upTo draws a duration in [1ns, max] (max ≤ 0 gives 1ns): injected delays
// are never zero, so no zero-length timer is armed (DESIGN hazards).
func upTo(r *rand.Rand, max time.Duration) time.Duration {
	if max <= 1 {
		return 1
	}
	return 1 + time.Duration(r.Int64N(int64(max)))
}

// StateDBWrite is the state DB FaultHook decision for one write, keyed by
// its path ("put <alloc>/task-<name>/<key>", state.Write.String).
func (in *Injector) StateDBWrite(w state.Write) error {
	if f, planned := in.perCall[StateDBWriteFailure]; !planned || f.Key != "" && f.Key != w.Key {
		return nil // what hit decides then, without naming the key
	}
	key := w.String()
	if _, _, ok := in.hit(StateDBWriteFailure, key); ok {
		in.fireAt(Fired{Class: StateDBWriteFailure, Key: key, Alloc: w.AllocID, Task: w.Task, Detail: "error=" + ErrStateDBWrite.Error()})
		return ErrStateDBWrite
	}
	return nil
}

// RPC decides one client-server call of method: how long it takes to
// arrive (0: at once) and whether it is dropped (ErrRPC).
func (in *Injector) RPC(method string) (time.Duration, error) {
	var latency time.Duration
	if f, r, ok := in.hit(RPCLatency, method); ok {
		latency = upTo(r, f.Max)
		in.fireAt(Fired{Class: RPCLatency, Key: method, Detail: "latency=" + latency.String()})
	}
	if _, _, ok := in.hit(RPCFailure, method); ok {
		in.fireAt(Fired{Class: RPCFailure, Key: method, Detail: "dropped"})
		return latency, ErrRPC
	}
	return latency, nil
}

// CSIMount decides one mount of volume alias for allocID: its latency
// (0: at once) and whether it fails (ErrCSIMount).
func (in *Injector) CSIMount(allocID, alias string) (time.Duration, error) {
	key := allocID + "/" + alias
	var latency time.Duration
	if f, r, ok := in.hit(CSIMountLatency, key); ok {
		latency = upTo(r, f.Max)
		in.fire(CSIMountLatency, key, "latency="+latency.String())
	}
	if _, _, ok := in.hit(CSIMountFailure, key); ok {
		in.fire(CSIMountFailure, key, "error="+ErrCSIMount.Error())
		return latency, ErrCSIMount
	}
	return latency, nil
}

// AllocDirLoss decides whether allocID's directory is gone when the
// client restarts after a crash (one decision per alloc and restart).
func (in *Injector) AllocDirLoss(allocID string) bool {
	if _, _, ok := in.hit(AllocDirLoss, allocID); ok {
		in.fireAt(Fired{Class: AllocDirLoss, Key: allocID, Alloc: allocID, Detail: "alloc dir removed"})
		return true
	}
	return false
}

// RunnerBuildFailure decides whether one call of the alloc runner factory
// for allocID fails (ErrRunnerBuild) instead of building a runner.
func (in *Injector) RunnerBuildFailure(allocID string) error {
	if _, _, ok := in.hit(RunnerBuildFailure, allocID); ok {
		in.fireAt(Fired{Class: RunnerBuildFailure, Key: allocID, Alloc: allocID, Detail: "error=" + ErrRunnerBuild.Error()})
		return ErrRunnerBuild
	}
	return nil
}

// exitResult draws how an injected exit ends: half the time a non-zero
// code, else a signal.
func exitResult(r *rand.Rand) (code, signal int, detail string) {
	if r.IntN(2) == 0 {
		code = []int{1, 2, 127}[r.IntN(3)]
		return code, 0, fmt.Sprintf("exit_code=%d", code)
	}
	signal = []int{9, 15}[r.IntN(2)]
	return 0, signal, fmt.Sprintf("signal=%d", signal)
}
