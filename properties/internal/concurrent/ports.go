package concurrent

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// watch counts the port calls of one runner or client and tells those
// made once it had to be quiet (after its Shutdown returned).
type watch struct {
	inFlight atomic.Int64
	quiet    atomic.Bool
	mu       sync.Mutex
	late     []string // calls started while quiet, first few
	calls    atomic.Int64
}

// enter records the start of a port call; the returned func its end.
func (w *watch) enter(what string) func() {
	w.calls.Add(1)
	if w.quiet.Load() {
		w.mu.Lock()
		if len(w.late) < 4 {
			w.late = append(w.late, what)
		}
		w.mu.Unlock()
	}
	w.inFlight.Add(1)
	return func() { w.inFlight.Add(-1) }
}

// hush marks the end of the watched party's life: it returns how many of
// its port calls were still in flight.
func (w *watch) hush() int64 {
	w.quiet.Store(true)
	return w.inFlight.Load()
}

// lateCalls are the calls started after hush.
func (w *watch) lateCalls() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.late...)
}

// driverPort is a driver whose calls the watch counts.
type driverPort struct {
	w *watch
	d drivers.Driver
}

var _ drivers.Driver = driverPort{}

func (p driverPort) Name() string                        { return p.d.Name() }
func (p driverPort) Capabilities() *drivers.Capabilities { return p.d.Capabilities() }

func (p driverPort) StartTask(cfg *drivers.TaskConfig) (*drivers.TaskHandle, error) {
	defer p.w.enter("driver StartTask")()
	return p.d.StartTask(cfg)
}

func (p driverPort) WaitTask(ctx context.Context, taskID string) (<-chan *drivers.ExitResult, error) {
	defer p.w.enter("driver WaitTask")()
	return p.d.WaitTask(ctx, taskID)
}

func (p driverPort) StopTask(taskID string, timeout time.Duration, signal string) error {
	defer p.w.enter("driver StopTask")()
	return p.d.StopTask(taskID, timeout, signal)
}

func (p driverPort) DestroyTask(taskID string, force bool) error {
	defer p.w.enter("driver DestroyTask")()
	return p.d.DestroyTask(taskID, force)
}

func (p driverPort) SignalTask(taskID, signal string) error {
	defer p.w.enter("driver SignalTask")()
	return p.d.SignalTask(taskID, signal)
}

func (p driverPort) RecoverTask(h *drivers.TaskHandle) error {
	defer p.w.enter("driver RecoverTask")()
	return p.d.RecoverTask(h)
}

// csiPort mounts every volume at once (the check's jobs have none).
type csiPort struct{ w *watch }

func (p csiPort) MountVolume(_ context.Context, allocID, alias string, _ *structs.VolumeRequest) (*interfaces.CSIMountPoint, error) {
	defer p.w.enter("CSI MountVolume")()
	return &interfaces.CSIMountPoint{Source: "/csi/" + allocID + "/" + alias}, nil
}

func (p csiPort) UnmountVolume(context.Context, string, string, *structs.VolumeRequest) error {
	defer p.w.enter("CSI UnmountVolume")()
	return nil
}

// updater is a lone runner's StateUpdater: it keeps the latest alloc.
type updater struct {
	w      *watch
	mu     sync.Mutex
	latest *structs.Allocation
	n      int
}

func (u *updater) AllocStateUpdated(a *structs.Allocation) {
	defer u.w.enter("StateUpdater AllocStateUpdated")()
	cp := a.Copy()
	u.mu.Lock()
	u.latest, u.n = cp, u.n+1
	u.mu.Unlock()
}

func (u *updater) PutAllocation(*structs.Allocation) error {
	defer u.w.enter("StateUpdater PutAllocation")()
	return nil
}

// rpcPort is a lone runner's RPCClient: no server answers.
type rpcPort struct{ w *watch }

func (p rpcPort) RPC(method string, _, _ any) error {
	defer p.w.enter("RPC " + method)()
	return fmt.Errorf("no server in this check: %s", method)
}
