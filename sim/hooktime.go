package sim

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
	metrics "github.com/hashicorp/go-metrics"
)

// Hook timing (TELEM-3, TELEM-4). The world's alloc dir ports take the
// virtual latency of the scenario's HookLatency, and the world logs every
// port call a hook makes (alloc dir Build, task dir Build, CSI mounts and
// unmounts) with its invoke and return instants, and every hook metric
// emission with its virtual instant, so that properties can tell which
// hook execution emitted what. Both logs are kept for every run; they are
// traced (KindPort, KindHookMetric) only when HookLatency is set, so the
// traces of older scenarios are unchanged.

// Port call operations (PortCall.Op).
const (
	PortAllocDirBuild = trace.PortAllocDirBuild
	PortTaskDirBuild  = trace.PortTaskDirBuild
	PortCSIMount      = trace.PortCSIMount
	PortCSIUnmount    = trace.PortCSIUnmount
)

// PortCall is one call a live client incarnation made on a world port.
type PortCall struct {
	// Incarnation is the client incarnation (1, 2, ...) that made it.
	Incarnation int
	// Op is one of the Port* operations.
	Op string
	// Alloc is the alloc; Task the task (task dir) or volume alias (CSI).
	Alloc, Task string
	// Invoke is the virtual instant of the call; Return that of its
	// return, zero while Returned is false.
	Invoke, Return time.Time
	Returned       bool
	// Live is whether the incarnation was still the running one when the
	// call returned (a crashed one emits nothing more).
	Live bool
	// Err is the call's error, "" for none.
	Err string
}

// Duration is Return - Invoke.
func (c PortCall) Duration() time.Duration { return c.Return.Sub(c.Invoke) }

// HookEmission is one go-metrics call of a live incarnation, as made.
type HookEmission struct {
	Incarnation int
	// At is the virtual instant of the emission.
	At time.Time
	// Kind is hookstatstest.Counter or Sample (gauges and key-value
	// points are not logged: hook telemetry makes none).
	Kind hookstatstest.Kind
	// Name is the dotted key, service name included.
	Name string
	// Labels are a copy of the emission's labels, in order.
	Labels []metrics.Label
	// Value is the value as go-metrics passed it.
	Value float32
}

// String renders the emission on one line.
func (e HookEmission) String() string {
	return fmt.Sprintf("%s %s = %s", e.Kind, hookstatstest.FlatKey(e.Name, e.Labels),
		strconv.FormatFloat(float64(e.Value), 'g', -1, 32))
}

// hookLog is the world's log of port calls and emissions.
type hookLog struct {
	mu        sync.Mutex
	calls     []*PortCall
	emissions []HookEmission
	tally     hookstatstest.Tally // the emissions aggregated, as World.Metrics reads them
}

// PortCalls is every port call of a live incarnation so far, sorted by
// invoke instant, then op, alloc, task, incarnation, return.
func (w *World) PortCalls() []PortCall {
	w.hooks.mu.Lock()
	out := make([]PortCall, 0, len(w.hooks.calls))
	for _, c := range w.hooks.calls {
		out = append(out, *c)
	}
	w.hooks.mu.Unlock()
	slices.SortStableFunc(out, func(a, b PortCall) int {
		return cmp.Or(a.Invoke.Compare(b.Invoke), cmp.Compare(a.Op, b.Op), cmp.Compare(a.Alloc, b.Alloc),
			cmp.Compare(a.Task, b.Task), cmp.Compare(a.Incarnation, b.Incarnation), a.Return.Compare(b.Return))
	})
	return out
}

// HookEmissions is every metric emission of a live incarnation so far,
// sorted by instant, then incarnation, name, labels, kind and value (the
// order of same-instant emissions of different goroutines is not
// observable).
func (w *World) HookEmissions() []HookEmission {
	w.hooks.mu.Lock()
	out := slices.Clone(w.hooks.emissions)
	w.hooks.mu.Unlock()
	slices.SortStableFunc(out, func(a, b HookEmission) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Incarnation, b.Incarnation),
			cmp.Compare(hookstatstest.FlatKey(a.Name, a.Labels), hookstatstest.FlatKey(b.Name, b.Labels)),
			cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Value, b.Value))
	})
	return out
}

// hookLatency is the scenario's port latency (zero without one).
func (w *World) hookLatency() scenario.HookLatency {
	if w.sc.HookLatency == nil {
		return scenario.HookLatency{}
	}
	return *w.sc.HookLatency
}

// portCall makes call f of a port of inc after latency, logging it.
func (w *World) portCall(inc *incarnation, op, alloc, task string, latency time.Duration, f func() error) error {
	if !inc.live() {
		return f()
	}
	c := &PortCall{Incarnation: inc.n, Op: op, Alloc: alloc, Task: task, Invoke: w.clk.Now()}
	w.hooks.mu.Lock()
	w.hooks.calls = append(w.hooks.calls, c)
	w.hooks.mu.Unlock()
	w.tracePort(c, "invoke", nil)
	if latency > 0 {
		<-w.clk.After(latency)
	}
	err := f()
	now, live := w.clk.Now(), inc.live()
	w.hooks.mu.Lock()
	c.Return, c.Returned, c.Live, c.Err = now, true, live, errString(err)
	w.hooks.mu.Unlock()
	if live {
		msg := "ok"
		if err != nil {
			msg = "error: " + err.Error()
		}
		w.tracePort(c, msg, map[string]any{"incarnation": inc.n, "elapsed": now.Sub(c.Invoke).String()})
	}
	return err
}

func (w *World) tracePort(c *PortCall, msg string, data any) {
	if w.sc.HookLatency != nil {
		w.rec.Emit(trace.Record{At: w.clk.Now(), Kind: trace.KindPort, Alloc: c.Alloc, Task: c.Task,
			Op: c.Op, Msg: msg, Data: trace.Encode(data)})
	}
}

// logEmission logs (and, with HookLatency, traces) one emission of inc.
func (w *World) logEmission(inc *incarnation, kind hookstatstest.Kind, key []string, val float32, labels []metrics.Label) {
	e := HookEmission{Incarnation: inc.n, At: w.clk.Now(), Kind: kind, Name: strings.Join(key, "."),
		Labels: slices.Clone(labels), Value: val}
	w.hooks.mu.Lock()
	w.hooks.emissions = append(w.hooks.emissions, e)
	w.hooks.tally.Add(kind, e.Name, e.Labels, val)
	w.hooks.mu.Unlock()
	if w.sc.HookLatency != nil {
		w.rec.Emit(trace.Record{At: e.At, Kind: trace.KindHookMetric, Op: e.String(),
			Data: trace.Encode(map[string]any{"incarnation": inc.n})})
	}
}

// allocDirFactory wraps the world's alloc dirs for inc: Build and every
// task dir's Build take the scenario's latency and are logged.
func (w *World) allocDirFactory(inc *incarnation, next interfaces.AllocDirFactory) interfaces.AllocDirFactory {
	return func(allocID string) interfaces.AllocDir {
		return &allocDirPort{AllocDir: next(allocID), w: w, inc: inc, id: allocID, tasks: map[string]*interfaces.TaskDir{}}
	}
}

// allocDirPort is the incarnation's view of one alloc dir.
type allocDirPort struct {
	interfaces.AllocDir
	w   *World
	inc *incarnation
	id  string

	mu    sync.Mutex
	tasks map[string]*interfaces.TaskDir
}

var _ interfaces.AllocDir = (*allocDirPort)(nil)

func (p *allocDirPort) Build() error {
	return p.w.portCall(p.inc, PortAllocDirBuild, p.id, "", p.w.hookLatency().AllocDirBuild.D(), p.AllocDir.Build)
}

func (p *allocDirPort) NewTaskDir(task string) *interfaces.TaskDir {
	inner := p.AllocDir.NewTaskDir(task)
	if inner == nil {
		return nil
	}
	td := interfaces.NewTaskDir(*inner, func() error {
		return p.w.portCall(p.inc, PortTaskDirBuild, p.id, task, p.w.hookLatency().TaskDirBuild.D(), inner.Build)
	})
	p.mu.Lock()
	p.tasks[task] = td
	p.mu.Unlock()
	return td
}

func (p *allocDirPort) GetTaskDir(task string) *interfaces.TaskDir {
	p.mu.Lock()
	td, ok := p.tasks[task]
	p.mu.Unlock()
	if ok {
		return td
	}
	return p.AllocDir.GetTaskDir(task)
}

func (p *allocDirPort) Move(other interfaces.AllocDir, tasks []string) error {
	if o, ok := other.(*allocDirPort); ok {
		other = o.AllocDir
	}
	return p.AllocDir.Move(other, tasks)
}

// mount and unmount are the logged CSI calls of csiPort.
func (p csiPort) mount(ctx context.Context, allocID, alias string, vol *structs.VolumeRequest) (*interfaces.CSIMountPoint, error) {
	var mp *interfaces.CSIMountPoint
	err := p.w.portCall(p.inc, PortCSIMount, allocID, alias, 0, func() error {
		var err error
		mp, err = p.w.csi.MountVolume(ctx, allocID, alias, vol)
		return err
	})
	return mp, err
}

func (p csiPort) unmount(ctx context.Context, allocID, alias string, vol *structs.VolumeRequest) error {
	return p.w.portCall(p.inc, PortCSIUnmount, allocID, alias, 0, func() error {
		return p.w.csi.UnmountVolume(ctx, allocID, alias, vol)
	})
}
