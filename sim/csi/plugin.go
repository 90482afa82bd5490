package csi

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/benbjohnson/clock"
)

// Operation names, as traced.
const (
	OpMount   = "MountVolume"
	OpUnmount = "UnmountVolume"
)

var errNotCSI = errors.New("volume is not a csi volume")

// Faults decides a mount's latency and failure; *faults.Injector
// implements it.
type Faults interface {
	CSIMount(allocID, alias string) (time.Duration, error)
}

// Config configures a Plugin.
type Config struct {
	// Clock is the world's virtual clock (required).
	Clock clock.Clock
	// Faults, if set, is consulted once per mount.
	Faults Faults
	// Trace receives csi records; nil discards them.
	Trace trace.Sink
}

// Plugin is the simulated CSI plugin. It is safe for concurrent use.
type Plugin struct {
	cfg Config

	mu     sync.Mutex
	mounts map[string]*interfaces.CSIMountPoint
	calls  map[string]int
}

var _ interfaces.CSIManager = (*Plugin)(nil)

// New returns a plugin with nothing mounted.
func New(cfg Config) *Plugin {
	if cfg.Trace == nil {
		cfg.Trace = trace.Discard{}
	}
	return &Plugin{cfg: cfg, mounts: map[string]*interfaces.CSIMountPoint{}, calls: map[string]int{}}
}

// MountPath is where a mount of alias for allocID lands.
func MountPath(allocID, alias string, vol *structs.VolumeRequest) string {
	return fmt.Sprintf("/csi/per-alloc/%s/%s/%s", allocID, alias, vol.Source)
}

type callData struct {
	Volume  string `json:"volume,omitempty"`
	Source  string `json:"source,omitempty"`
	Latency string `json:"latency,omitempty"`
	Mount   string `json:"mount,omitempty"`
	Error   string `json:"error,omitempty"`
}

// MountVolume mounts vol (package doc).
func (p *Plugin) MountVolume(ctx context.Context, allocID, alias string, vol *structs.VolumeRequest) (*interfaces.CSIMountPoint, error) {
	op := OpMount + ":" + alias
	p.count(OpMount)
	if vol == nil || vol.Type != structs.VolumeTypeCSI {
		err := fmt.Errorf("mount %s for alloc %s: %w", alias, allocID, errNotCSI)
		p.emit(allocID, op, "return", callData{Error: err.Error()})
		return nil, err
	}
	var latency time.Duration
	var fault error
	if p.cfg.Faults != nil {
		latency, fault = p.cfg.Faults.CSIMount(allocID, alias)
	}
	d := callData{Volume: vol.Name, Source: vol.Source}
	if latency > 0 {
		d.Latency = latency.String()
	}
	p.emit(allocID, op, "invoke", d)
	if latency > 0 {
		if err := p.wait(ctx, latency); err != nil {
			err = fmt.Errorf("mount %s for alloc %s: %w", alias, allocID, err)
			p.emit(allocID, op, "return", callData{Error: err.Error()})
			return nil, err
		}
	}
	if fault != nil {
		err := fmt.Errorf("mount %s for alloc %s: %w", alias, allocID, fault)
		p.emit(allocID, op, "return", callData{Error: err.Error()})
		return nil, err
	}
	mp := &interfaces.CSIMountPoint{Source: MountPath(allocID, alias, vol)}
	p.mu.Lock()
	p.mounts[allocID+"/"+alias] = mp
	p.mu.Unlock()
	p.emit(allocID, op, "return", callData{Mount: mp.Source})
	out := *mp
	return &out, nil
}

// UnmountVolume forgets a mount; unmounting what is not mounted is fine.
func (p *Plugin) UnmountVolume(_ context.Context, allocID, alias string, _ *structs.VolumeRequest) error {
	p.count(OpUnmount)
	p.mu.Lock()
	delete(p.mounts, allocID+"/"+alias)
	p.mu.Unlock()
	p.emit(allocID, OpUnmount+":"+alias, "return", nil)
	return nil
}

// Mounts returns the current mounts, keyed "<allocID>/<alias>", as
// sorted keys and their sources.
func (p *Plugin) Mounts() map[string]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]string, len(p.mounts))
	for k, mp := range p.mounts {
		out[k] = mp.Source
	}
	return out
}

// MountKeys returns the keys of Mounts, sorted.
func (p *Plugin) MountKeys() []string { return slices.Sorted(maps.Keys(p.Mounts())) }

// Calls returns how many times op was called.
func (p *Plugin) Calls(op string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[op]
}

func (p *Plugin) count(op string) {
	p.mu.Lock()
	p.calls[op]++
	p.mu.Unlock()
}

func (p *Plugin) wait(ctx context.Context, d time.Duration) error {
	fired := make(chan struct{})
	tm := p.cfg.Clock.AfterFunc(d, func() { close(fired) })
	select {
	case <-fired:
		return nil
	case <-ctx.Done():
		tm.Stop()
		return ctx.Err()
	}
}

func (p *Plugin) emit(allocID, op, msg string, data any) {
	p.cfg.Trace.Emit(trace.Record{At: p.cfg.Clock.Now(), Kind: trace.KindCSI, Alloc: allocID, Op: op, Msg: msg, Data: trace.Encode(data)})
}
