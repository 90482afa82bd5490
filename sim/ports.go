package sim

import (
	"context"
	"errors"
	"time"

	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	metrics "github.com/hashicorp/go-metrics"
)

// The ports are what one client incarnation is given of the world's
// shared parts: each holds the incarnation's injected calls at the world's
// gate while it lives, and cuts it off once it crashed, so a dying client
// winding down affects nothing it shares with the next incarnation (the
// CSI plugin, the metrics sink) and nothing it does then is traced.

var errCrashed = errors.New("client crashed")

// live reports whether the incarnation is still the running one.
func (inc *incarnation) live() bool { return inc.alive.Load() }

// hold holds an injected call of a live incarnation at the gate.
func (w *World) hold(inc *incarnation, key string) {
	if inc.live() {
		w.nudge()
		w.gate.hold(key)
	}
}

// holdIf holds the call if point p is held.
func (w *World) holdIf(p Hold, inc *incarnation, key string) {
	if w.cfg.Hold.has(p) {
		w.hold(inc, key)
	}
}

// driverPort is the incarnation's view of its mock driver instance.
type driverPort struct {
	w   *World
	inc *incarnation
	d   *mock.Driver
}

var _ drivers.Driver = driverPort{}

func (p driverPort) Name() string                        { return p.d.Name() }
func (p driverPort) Capabilities() *drivers.Capabilities { return p.d.Capabilities() }

func (p driverPort) StartTask(cfg *drivers.TaskConfig) (*drivers.TaskHandle, error) {
	if cfg != nil {
		p.w.holdIf(HoldDriver, p.inc, "driver StartTask "+cfg.ID)
	}
	return p.d.StartTask(cfg)
}

func (p driverPort) WaitTask(ctx context.Context, taskID string) (<-chan *drivers.ExitResult, error) {
	p.w.holdIf(HoldDriver, p.inc, "driver WaitTask "+taskID)
	return p.d.WaitTask(ctx, taskID)
}

func (p driverPort) StopTask(taskID string, timeout time.Duration, signal string) error {
	p.w.holdIf(HoldDriver, p.inc, "driver StopTask "+taskID)
	return p.d.StopTask(taskID, timeout, signal)
}

func (p driverPort) DestroyTask(taskID string, force bool) error {
	p.w.holdIf(HoldDriver, p.inc, "driver DestroyTask "+taskID)
	return p.d.DestroyTask(taskID, force)
}

func (p driverPort) SignalTask(taskID, signal string) error {
	p.w.holdIf(HoldDriver, p.inc, "driver SignalTask "+taskID)
	return p.d.SignalTask(taskID, signal)
}

func (p driverPort) RecoverTask(h *drivers.TaskHandle) error {
	if h != nil {
		p.w.holdIf(HoldDriver, p.inc, "driver RecoverTask "+h.TaskID)
	}
	return p.d.RecoverTask(h)
}

// rpcPort is the incarnation's connection as its RPC client: each call is
// held at the gate (HoldRPC) before it is sent, so that a call answered at
// once does not race the runners' goroutines within one instant: without
// the hold, a restarted client's first alloc pull (a server stop) raced
// its restored alloc runners' kill rules. It is a ContextRPCClient, like
// the connection.
type rpcPort struct {
	w   *World
	inc *incarnation
}

// ReadsArgsOnly is the connection's (the reference client's
// ArgsReadingRPCClient): the port itself reads a call's args only before
// the call returns (the sync log copies what it keeps).
func (p rpcPort) ReadsArgsOnly() bool { return p.inc.conn.ReadsArgsOnly() }

func (p rpcPort) RPC(method string, args, reply any) error {
	return p.RPCContext(context.Background(), method, args, reply)
}

// RPCContext holds the call, then makes it on the incarnation's
// connection (cut once the incarnation crashed). UpdateAlloc calls and the
// first successful alloc pull are logged (synclog.go). A call the client
// cancels through ctx while it lives (its Shutdown at a graceful stop)
// ends once the world releases that cancellation at the gate (HoldRPC),
// one at a time after everything settled and after every other held
// call (holdLate): a call does not end at once on its
// caller's cue, so a Shutdown that returns without waiting for a
// goroutine still in a call returns with that call in flight, every
// time (Stop checks it), not only when that goroutine loses a race.
func (p rpcPort) RPCContext(ctx context.Context, method string, args, reply any) error {
	p.inc.calls.Add(1)
	defer p.inc.calls.Add(-1)
	c := p.w.sync.callBegin(p.inc, method, args, p.w.clk.Now())
	p.w.holdIf(HoldRPC, p.inc, "rpc "+method)
	if ctx.Done() != nil {
		held, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
		stop := context.AfterFunc(ctx, func() {
			if p.w.cfg.Hold.has(HoldRPC) && p.inc.live() {
				p.w.nudge()
				p.w.gate.holdLate("rpc cancel " + method)
			}
			cancel(context.Cause(ctx))
		})
		defer stop()
		defer cancel(nil)
		ctx = held
	}
	err := p.inc.conn.RPCContext(ctx, method, args, reply)
	p.w.sync.callEnd(p.inc, method, c, p.w.clk.Now(), err)
	return err
}

// csiPort is the incarnation's view of the shared CSI plugin.
type csiPort struct {
	w   *World
	inc *incarnation
}

var (
	_ interfaces.CSIManager = csiPort{}
	_ interfaces.RPCClient  = rpcPort{}
)

func (p csiPort) MountVolume(ctx context.Context, allocID, alias string, vol *structs.VolumeRequest) (*interfaces.CSIMountPoint, error) {
	if !p.inc.live() {
		return nil, errCrashed
	}
	p.w.holdIf(HoldCSI, p.inc, "csi MountVolume "+allocID+"/"+alias)
	return p.mount(ctx, allocID, alias, vol)
}

func (p csiPort) UnmountVolume(ctx context.Context, allocID, alias string, vol *structs.VolumeRequest) error {
	if !p.inc.live() {
		return errCrashed
	}
	p.w.holdIf(HoldCSI, p.inc, "csi UnmountVolume "+allocID+"/"+alias)
	return p.unmount(ctx, allocID, alias, vol)
}

// metricsPort is the incarnation's metrics sink: counters and samples of
// a live incarnation are logged one by one and tallied (hooktime.go);
// hook telemetry of a crashed incarnation is dropped, and gauges and
// key-value points, which hook telemetry does not make, are ignored.
type metricsPort struct {
	w   *World
	inc *incarnation
}

var _ metrics.MetricSink = metricsPort{}

func (metricsPort) SetGauge([]string, float32)                            {}
func (metricsPort) SetGaugeWithLabels([]string, float32, []metrics.Label) {}
func (metricsPort) EmitKey([]string, float32)                             {}

func (p metricsPort) IncrCounter(key []string, val float32) {
	p.IncrCounterWithLabels(key, val, nil)
}

func (p metricsPort) IncrCounterWithLabels(key []string, val float32, labels []metrics.Label) {
	if p.inc.live() {
		p.w.logEmission(p.inc, hookstatstest.Counter, key, val, labels)
	}
}

func (p metricsPort) AddSample(key []string, val float32) {
	p.AddSampleWithLabels(key, val, nil)
}

func (p metricsPort) AddSampleWithLabels(key []string, val float32, labels []metrics.Label) {
	if p.inc.live() {
		p.w.logEmission(p.inc, hookstatstest.Sample, key, val, labels)
	}
}
