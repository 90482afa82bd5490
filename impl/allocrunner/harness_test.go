package allocrunner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
	"go.uber.org/goleak"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/vclock"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var t0 = time.Date(2024, 3, 10, 6, 0, 0, 0, time.UTC)

// Task builders.
func mainTask(name string) *structs.Task { return &structs.Task{Name: name, Driver: "mock"} }
func leaderTask(name string) *structs.Task {
	t := mainTask(name)
	t.Leader = true
	return t
}
func hookTask(name, hook string, sidecar bool) *structs.Task {
	t := mainTask(name)
	t.Lifecycle = &structs.TaskLifecycle{Hook: hook, Sidecar: sidecar}
	return t
}

// testAlloc is alloc a1 of a service job whose group "web" has tasks.
func testAlloc(tasks ...*structs.Task) *structs.Allocation {
	job := &structs.Job{ID: "job", Name: "job", Namespace: "prod", Type: structs.JobTypeService,
		TaskGroups: []*structs.TaskGroup{{Name: "web", Count: 1, Tasks: tasks}}}
	job.Canonicalize()
	return &structs.Allocation{
		ID: "a1", NodeID: "n1", Namespace: "prod", JobID: "job", Job: job, TaskGroup: "web",
		DesiredStatus: structs.AllocDesiredStatusRun, ClientStatus: structs.AllocClientStatusPending,
		AllocModifyIndex: 10,
	}
}

func withCSI(a *structs.Allocation, aliases ...string) *structs.Allocation {
	tg := a.Job.TaskGroups[0]
	tg.Volumes = map[string]*structs.VolumeRequest{}
	for _, al := range aliases {
		tg.Volumes[al] = &structs.VolumeRequest{Name: "vol-" + al, Type: structs.VolumeTypeCSI, Source: "src-" + al}
	}
	tg.Volumes["host"] = &structs.VolumeRequest{Name: "h", Type: "host", Source: "/h"}
	return a
}

// fakeUpdater records pushed allocs (SYNC-1) and PutAllocation calls.
type fakeUpdater struct {
	mu     sync.Mutex
	pushed []*structs.Allocation
	puts   []*structs.Allocation
	putErr error
}

func (u *fakeUpdater) AllocStateUpdated(a *structs.Allocation) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.pushed = append(u.pushed, a)
}

func (u *fakeUpdater) PutAllocation(a *structs.Allocation) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.puts = append(u.puts, a)
	return u.putErr
}

func (u *fakeUpdater) last() *structs.Allocation {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.pushed) == 0 {
		return nil
	}
	return u.pushed[len(u.pushed)-1]
}

// fakeCSI is a CSI manager; mount of an alias in fail fails; each call
// can check the hook resources seen at that moment.
type fakeCSI struct {
	mu        sync.Mutex
	fail      map[string]error
	mounted   []string
	unmounted []string
	onMount   func(alias string)
	reqs      map[string]*structs.VolumeRequest
}

func (c *fakeCSI) MountVolume(_ context.Context, allocID, alias string, vol *structs.VolumeRequest) (*interfaces.CSIMountPoint, error) {
	if c.onMount != nil {
		c.onMount(alias)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.fail[alias]; err != nil {
		return nil, err
	}
	c.mounted = append(c.mounted, alias)
	if c.reqs == nil {
		c.reqs = map[string]*structs.VolumeRequest{}
	}
	c.reqs[alias] = vol
	return &interfaces.CSIMountPoint{Source: "/csi/" + allocID + "/" + vol.Source}, nil
}

func (c *fakeCSI) UnmountVolume(_ context.Context, _, alias string, _ *structs.VolumeRequest) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.unmounted = append(c.unmounted, alias)
	return nil
}

// fakeWatcher blocks Wait for d on the clock (a previous alloc).
type fakeWatcher struct {
	h   *harness
	d   time.Duration
	err error
}

func (w *fakeWatcher) Wait(ctx context.Context) error {
	select {
	case <-w.h.clk.After(w.d):
		return w.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
func (w *fakeWatcher) IsWaiting() bool { return true }

type fakeMigrator struct {
	fakeWatcher
	migrated interfaces.AllocDir
}

func (m *fakeMigrator) IsMigrating() bool { return true }
func (m *fakeMigrator) Migrate(_ context.Context, dest interfaces.AllocDir) error {
	m.migrated = dest
	return m.err
}

// harness builds an alloc runner over fake task runners, a memory state
// DB, a memory alloc dir and an in-memory metrics sink, on a virtual
// clock. Use inside synctest.Test.
type harness struct {
	t       *testing.T
	clk     *vclock.Clock
	cfg     *interfaces.Config
	db      *state.DB
	fs      *allocdir.MemFS
	updater *fakeUpdater
	sink    *metrics.InmemSink
	csi     *fakeCSI
	log     *callLog
	ar      *allocRunner
	trs     map[string]*fakeTR
	// setup, if set, adjusts each fake task runner at construction.
	setup func(*fakeTR)
}

func newHarness(t *testing.T, alloc *structs.Allocation) *harness {
	t.Helper()
	clk := vclock.New(t0)
	sink := hookstatstest.NewSink()
	m, err := hookstats.NewMetrics(sink)
	must.NoError(t, err)
	fs := allocdir.NewMemFS(clk)
	h := &harness{
		t: t, clk: clk, db: state.NewMemDB(state.MemConfig{}), fs: fs,
		updater: &fakeUpdater{}, sink: sink, csi: &fakeCSI{}, log: &callLog{},
		trs: map[string]*fakeTR{},
	}
	h.cfg = &interfaces.Config{
		Alloc: alloc, Clock: clk, Rand: rand.New(rand.NewPCG(1, 2)),
		ClientConfig: &interfaces.ClientConfig{NodeID: "n1", Datacenter: "dc1", NodePool: "default"},
		BaseLabels:   hookstats.BaseLabels("n1", "dc1", "", "default"),
		Metrics:      m, StateDB: h.db, StateUpdater: h.updater, CSIManager: h.csi,
		AllocDirFactory: allocdir.MemFactory(fs, allocdir.Config{Root: "/alloc", Clock: clk}),
	}
	return h
}

// build constructs the alloc runner.
func (h *harness) build() *allocRunner {
	h.t.Helper()
	ar, err := newAllocRunner(h.cfg, Policies{NewTaskRunner: func(cfg *taskrunner.Config) (TaskRunner, error) {
		tr := newFakeTR(cfg, h.log)
		if h.setup != nil {
			h.setup(tr)
		}
		h.trs[cfg.Task.Name] = tr
		return tr, nil
	}})
	must.NoError(h.t, err)
	h.ar = ar
	h.t.Cleanup(h.finish) // also after a failed assertion, so the bubble drains
	return ar
}

// start builds and runs the alloc runner and lets it settle.
func (h *harness) start() *allocRunner {
	ar := h.build()
	go ar.Run()
	synctest.Wait()
	return ar
}

// advance moves virtual time by d once everything settled.
func (h *harness) advance(d time.Duration) {
	synctest.Wait()
	h.clk.Add(d)
	synctest.Wait()
}

// states returns task name -> State, Failed as "state" or "state+failed".
func (h *harness) states() map[string]string {
	out := map[string]string{}
	for name, s := range h.ar.AllocState().TaskStates {
		v := s.State
		if s.Failed {
			v += "+failed"
		}
		out[name] = v
	}
	return out
}

// events returns a task's event types in order.
func (h *harness) events(task string) []string {
	var out []string
	for _, e := range h.trs[task].TaskState().Events {
		out = append(out, e.Type)
	}
	return out
}

func (h *harness) lastEvent(task string, typ string) *structs.TaskEvent {
	evs := h.trs[task].TaskState().Events
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == typ {
			return evs[i]
		}
	}
	return nil
}

// finish destroys the runner and waits for it, so the bubble has no
// goroutine left.
func (h *harness) finish() {
	for _, tr := range h.trs {
		if tr.IsPoststopTask() { // poststop tasks are never killed: end them
			select {
			case tr.exitCh <- false:
			default:
			}
		}
	}
	h.ar.Destroy()
	if !h.advanceUntil(h.ar.DestroyCh()) {
		h.t.Errorf("DestroyCh not closed after 600 virtual seconds")
	}
}

// waitClosed advances the clock a second at a time until ch is closed.
func (h *harness) waitClosed(ch <-chan struct{}, what string) {
	h.t.Helper()
	if !h.advanceUntil(ch) {
		h.t.Fatalf("%s not closed after 600 virtual seconds", what)
	}
}

func (h *harness) advanceUntil(ch <-chan struct{}) bool {
	for i := 0; i < 600; i++ {
		synctest.Wait()
		select {
		case <-ch:
			return true
		default:
		}
		h.clk.Add(time.Second)
	}
	return false
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// metricLines renders the sink as sorted "<name> hook=<hook> count=<n> sum=<s>".
func (h *harness) metricLines() []string {
	var out []string
	for _, m := range hookstatstest.Read(h.sink) {
		hook := ""
		for _, l := range m.Labels {
			if l.Name == hookstats.LabelHookName {
				hook = l.Value
			}
		}
		out = append(out, fmt.Sprintf("%s hook=%s count=%d sum=%g", strings.TrimPrefix(m.Name, "nomad.client."), hook, m.Count, m.Sum))
	}
	slices.Sort(out)
	return out
}

var errBoom = errors.New("boom")

// metricKeys returns the sink's flat keys.
func (h *harness) metricKeys() []string {
	var out []string
	for _, m := range hookstatstest.Read(h.sink) {
		out = append(out, m.Key())
	}
	return out
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }
