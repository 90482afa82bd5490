package taskrunner

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/sim/vclock"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
)

// t0 is the start of every test: Monday 2024-03-04 08:00 UTC.
var t0 = time.Date(2024, 3, 4, 8, 0, 0, 0, time.UTC)

const (
	testAllocID = "0b7d1f2e-0000-4000-8000-000000000001"
	testTask    = "web"
)

// harness is one task runner's world on a virtual clock: mock driver,
// memory state DB, memory alloc dir, hook resources and an in-memory
// metrics sink. Build it inside a synctest bubble.
type harness struct {
	t        *testing.T
	clk      *vclock.Clock
	driver   *mock.Driver
	registry *drivers.Registry
	db       *state.DB
	fsys     *allocdir.MemFS
	allocDir interfaces.AllocDir
	res      *hookres.HookResources
	sink     *metrics.InmemSink
	stats    hookstats.Handler
	alloc    *structs.Allocation
	client   *interfaces.ClientConfig
	startCh  chan struct{}
	servers  chan struct{}
	updates  atomic.Int64

	mu        sync.Mutex
	driverOps []mock.DriverEvent
	dbFault   func(state.Write) error
}

// faults lets a test inject driver faults.
type faults struct {
	mock.NoFaults
	stop    func(taskID string) mock.StopFault
	recover func(h *drivers.TaskHandle) error
}

func (f *faults) StopTask(id string, _ time.Duration, _ string) mock.StopFault {
	if f.stop == nil {
		return mock.StopFault{}
	}
	return f.stop(id)
}

func (f *faults) RecoverTask(h *drivers.TaskHandle) error {
	if f.recover == nil {
		return nil
	}
	return f.recover(h)
}

// newTask returns a mock_driver task with cfg as its Config.
func newTask(cfg map[string]any) *structs.Task {
	return &structs.Task{Name: testTask, Driver: mock.DefaultName, Config: cfg,
		KillTimeout: 5 * time.Second, KillSignal: "SIGINT"}
}

// newHarness builds the world of task in a job of jobType with policy
// (nil: the job type's defaults).
func newHarness(t *testing.T, jobType string, policy *structs.RestartPolicy, task *structs.Task) *harness {
	t.Helper()
	h := &harness{t: t, clk: vclock.New(t0), startCh: make(chan struct{}), servers: make(chan struct{})}
	close(h.startCh)
	h.newDriver(&faults{})
	h.db = state.NewMemDB(state.MemConfig{FaultHook: func(w state.Write) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.dbFault != nil {
			return h.dbFault(w)
		}
		return nil
	}})
	h.fsys = allocdir.NewMemFS(h.clk)
	h.allocDir = allocdir.NewMem(h.fsys, allocdir.Config{Root: "/alloc"}, testAllocID)
	must.NoError(t, h.allocDir.Build())
	h.res = hookres.New()
	h.sink = hookstatstest.NewSink()
	m, err := hookstats.NewMetrics(h.sink)
	must.NoError(t, err)
	h.stats = hookstats.New(hookstats.Config{Kind: hookstats.TaskHook, Metrics: m, Clock: h.clk, Namespace: "default"})
	h.client = &interfaces.ClientConfig{NodeID: "node-1", MaxKillTimeout: 30 * time.Second}
	job := &structs.Job{ID: "job", Name: "job", Type: jobType, TaskGroups: []*structs.TaskGroup{{
		Name: "group", Count: 1, RestartPolicy: policy, Tasks: []*structs.Task{task},
		Volumes: map[string]*structs.VolumeRequest{
			"data":  {Name: "data", Type: structs.VolumeTypeCSI, Source: "vol-data"},
			"cache": {Name: "cache", Type: "host", Source: "cache"},
		},
	}}}
	job.Canonicalize()
	h.alloc = &structs.Allocation{ID: testAllocID, NodeID: "node-1", Namespace: "default", JobID: "job",
		Job: job, TaskGroup: "group", DesiredStatus: structs.AllocDesiredStatusRun,
		ClientStatus: structs.AllocClientStatusPending}
	return h
}

// newDriver swaps in a fresh mock driver instance on the same clock, as a
// client restart does.
func (h *harness) newDriver(f *faults) {
	h.driver = mock.New(mock.Config{Clock: h.clk, Faults: f, OnEvent: func(e mock.DriverEvent) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.driverOps = append(h.driverOps, e)
	}})
	h.registry = drivers.NewRegistry(h.driver)
}

func (h *harness) setDBFault(f func(state.Write) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dbFault = f
}

func (h *harness) config() *Config {
	return &Config{
		Alloc: h.alloc, Task: h.alloc.LookupTaskGroup().Tasks[0], Clock: h.clk,
		ClientConfig: h.client, StateDB: h.db, DriverManager: h.registry,
		AllocDir: h.allocDir, HookResources: h.res, HookStats: h.stats,
		StateUpdated: func() { h.updates.Add(1) }, StartConditionMetCh: h.startCh,
		ServersContactedCh: h.servers,
	}
}

// newTR builds a task runner of the harness's task.
func (h *harness) newTR() *TaskRunner {
	h.t.Helper()
	tr, err := NewTaskRunner(h.config())
	must.NoError(h.t, err)
	return tr
}

// start builds a task runner, runs it and lets it settle.
func (h *harness) start() *TaskRunner {
	tr := h.newTR()
	tr.Start()
	synctest.Wait()
	return tr
}

// advance moves virtual time by d and lets everything settle.
func (h *harness) advance(d time.Duration) {
	synctest.Wait()
	h.clk.Add(d)
	synctest.Wait()
}

// advanceTo moves virtual time to at.
func (h *harness) advanceTo(at time.Time) { h.advance(at.Sub(h.clk.Now())) }

// kill kills tr with a Killing event like the alloc runner's and waits.
func (h *harness) kill(tr *TaskRunner) error {
	task := tr.Task()
	ev := structs.NewTaskEvent(structs.TaskKilling, h.clk.Now()).
		SetKillTimeout(task.EffectiveKillTimeout(h.client.MaxKillTimeout))
	errCh := make(chan error, 1)
	go func() { errCh <- tr.Kill(context.Background(), ev) }()
	for range 1000 {
		synctest.Wait()
		select {
		case err := <-errCh:
			return err
		default:
		}
		h.advance(time.Second)
	}
	h.t.Fatal("Kill did not return within 1000 virtual seconds")
	return nil
}

// ops returns the driver calls traced so far, as "<op> <detail>".
func (h *harness) ops() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.driverOps))
	for _, e := range h.driverOps {
		out = append(out, fmt.Sprintf("%s %s", e.Op, e.Detail))
	}
	return out
}

// metrics returns the telemetry as "<kind> <name> hook=<hook> count=<n>".
func (h *harness) metrics() []string {
	var out []string
	for _, m := range hookstatstest.Read(h.sink) {
		hook := m.Labels[len(m.Labels)-1].Value
		out = append(out, fmt.Sprintf("%s hook=%s count=%d", m.Name, hook, m.Count))
	}
	return out
}

// types returns the event types of a task state.
func types(ts *structs.TaskState) []string {
	out := make([]string, len(ts.Events))
	for i, e := range ts.Events {
		out[i] = e.Type
	}
	return out
}

// lastEvent returns the newest event of type typ, failing if none.
func lastEvent(t *testing.T, ts *structs.TaskState, typ string) *structs.TaskEvent {
	t.Helper()
	for i := len(ts.Events) - 1; i >= 0; i-- {
		if ts.Events[i].Type == typ {
			return ts.Events[i]
		}
	}
	t.Fatalf("no %q event in %v", typ, types(ts))
	return nil
}

// persisted reads the task's state back from the DB.
func (h *harness) persisted() (*interfaces.LocalState, *structs.TaskState) {
	h.t.Helper()
	ls, ts, err := h.db.GetTaskRunnerState(testAllocID, testTask)
	must.NoError(h.t, err)
	return ls, ts
}

// scheduled returns a task schedule in UTC.
func scheduled(start, end string) *schedule.Schedule {
	return &schedule.Schedule{Cron: &schedule.Cron{Start: start, End: end, Timezone: "UTC"}}
}

// at returns t0's day at hh:mm.
func at(hh, mm int) time.Time {
	return time.Date(t0.Year(), t0.Month(), t0.Day(), hh, mm, 0, 0, time.UTC)
}

func policy(attempts int, interval, delay time.Duration, mode string) *structs.RestartPolicy {
	return structs.NewRestartPolicy(attempts, interval, delay, mode)
}

// tail returns the types of the newest n events.
func tail(ts *structs.TaskState, n int) []string {
	all := types(ts)
	if n > len(all) {
		n = len(all)
	}
	return all[len(all)-n:]
}
