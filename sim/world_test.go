package sim

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/shoenig/test/must"
)

// allRunning reports whether the server has n allocs, all running.
func allRunning(w *World, n int) func() bool {
	return func() bool {
		allocs := w.Server().Allocs()
		for _, a := range allocs {
			if a.ClientStatus != structs.AllocClientStatusRunning {
				return false
			}
		}
		return len(allocs) == n
	}
}

func records(w *World, kind trace.Kind) []trace.Record {
	var out []trace.Record
	for _, r := range w.Trace().Records() {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// TestMinimalRunnerReachesServer: with the minimal runner (AR-3) the
// server receives running for every placed alloc within one sync tick
// plus the commit window (SYNC-3, SYNC-4).
func TestMinimalRunnerReachesServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w, err := New(Config{Scenario: simpleScenario(nil, simpleJob("web", 3, nil)), Factory: minimalFactory()})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		must.True(t, w.RunUntil(allRunning(w, 3), time.Second))
		must.LessEq(t, 250*time.Millisecond, w.Now().Sub(start), must.Sprint("first tick (200 ms) + commit window (50 ms)"))
		for _, a := range w.Server().Allocs() {
			must.SliceNotEmpty(t, w.Server().History(a.ID, 0))
		}
		must.Positive(t, w.Steps())
		must.NotNil(t, w.Client())
		must.EqOp(t, w.NodeID(), w.Client().NodeID())
		first, again := w.ClientAllocs(), w.ClientAllocs()
		must.SliceLen(t, 3, first)
		for i := range first {
			must.True(t, first[i] == again[i], must.Sprint("an alloc not pushed since is handed out as the same copy"))
		}
		must.NoError(t, w.Close())
		must.SliceLen(t, 3, records(w, trace.KindAlloc), must.Sprint("one status change per alloc"))
		must.EqOp(t, "end", w.Trace().Records()[len(w.Trace().Records())-1].Msg)
		must.Error(t, w.Close(), must.Sprint("closed twice"))
	})
}

// TestReferenceRunnerLifecycle: the reference runner (observed through
// Listener) starts its task; the server converges; the trace holds the
// driver calls, task events and the hook telemetry (TELEM-1).
func TestReferenceRunnerLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sc := simpleScenario(nil, simpleJob("web", 1, map[string]any{"run_for": "30s", "exit_code": 0}))
		sc.Jobs[0].Job.Type = structs.JobTypeBatch
		w, err := New(Config{Scenario: sc, Factory: referenceFactory()})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		ok := w.RunUntil(func() bool {
			a := w.Server().Allocs()
			return len(a) == 1 && a[0].ClientStatus == structs.AllocClientStatusComplete
		}, time.Minute)
		must.True(t, ok)
		must.NoError(t, w.Close())
		var events []string
		for _, r := range records(w, trace.KindTaskEvent) {
			events = append(events, r.Msg)
		}
		must.Eq(t, []string{"Received", "Task Setup", "Started", "Terminated"}, events)
		var ops []string
		for _, r := range records(w, trace.KindDriver) {
			ops = append(ops, r.Op)
		}
		must.Eq(t, []string{"DestroyTask", "Exit", "StartTask", "WaitTask"}, uniq(ops))
		must.SliceNotEmpty(t, records(w, trace.KindMetric))
		must.SliceNotEmpty(t, w.Metrics())
	})
}

func uniq(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// TestCrashRestore: a crash cuts the client off, a restart restores from
// the state DB and recovers the running task through a fresh driver
// instance (STATE-3, STATE-4: RecoverTask, no second Started), and no
// goroutine of the crashed client is left.
func TestCrashRestore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		plan := faults.Plan{{Class: faults.ClientCrash, At: 10 * time.Second, For: 5 * time.Second}}
		w, err := New(Config{Scenario: simpleScenario(plan, simpleJob("web", 1, nil)), Factory: referenceFactory()})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		w.Advance(12 * time.Second)
		must.Nil(t, w.Client(), must.Sprint("crashed"))
		must.ErrorIs(t, w.Crash(), errNotRunning)
		w.Advance(10 * time.Second)
		must.NotNil(t, w.Client(), must.Sprint("restarted"))
		must.ErrorIs(t, w.Restart(), errAlreadyRunning)
		must.NoError(t, w.Close())
		var started, recovered int
		for _, r := range w.Trace().Records() {
			switch {
			case r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskStarted:
				started++
			case r.Kind == trace.KindDriver && r.Op == "RecoverTask" && r.Msg == "ok":
				recovered++
			}
		}
		must.EqOp(t, 1, started)
		must.EqOp(t, 1, recovered)
		must.SliceEmpty(t, w.Violations())
		var world []string
		for _, r := range records(w, trace.KindWorld) {
			world = append(world, r.Msg)
		}
		must.Eq(t, []string{"start", "client_start", "client_crash", "client_start", "end"}, world)
	})
}

// TestLeakDetection: goroutines a client leaves after Shutdown, and a
// runner pushing state after it, are violations.
func TestLeakDetection(t *testing.T) {
	for _, push := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			// Created in the bubble, so the leaked goroutine blocked on it
			// is durably blocked.
			release := make(chan struct{})
			var wg sync.WaitGroup
			w, err := New(Config{Scenario: simpleScenario(nil), Factory: leakyFactory(release, &wg, push)})
			must.NoError(t, err)
			must.NoError(t, w.Start())
			must.NoError(t, w.Crash())
			w.Advance(time.Second)
			err = w.Close()
			must.ErrorContains(t, err, "client incarnation 1 left 1 goroutines after Shutdown returned")
			if push {
				must.ErrorContains(t, err, "client incarnation 1 pushed alloc a1 after Shutdown returned")
			}
			must.SliceNotEmpty(t, records(w, trace.KindViolation))
			close(release)
			wg.Wait()
		})
	}
}

// TestPartitionHeals: during a partition nothing reaches the server;
// once it heals the server converges to the client's state (SYNC-5.3).
func TestPartitionHeals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		plan := faults.Plan{{Class: faults.RPCPartition, At: 0, For: 20 * time.Second}}
		w, err := New(Config{Scenario: simpleScenario(plan, simpleJob("web", 2, nil)), Factory: minimalFactory()})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		w.Advance(19 * time.Second)
		must.True(t, w.Network().Partitioned())
		must.EqOp(t, 0, w.Server().Stats().UpdateAllocCalls)
		must.True(t, w.RunUntil(allRunning(w, 2), time.Minute))
		must.False(t, w.Network().Partitioned())
		must.NoError(t, w.Close())
		var fault []string
		for _, r := range records(w, trace.KindFault) {
			fault = append(fault, r.Op+" "+r.Msg)
		}
		must.Eq(t, []string{"rpc_partition fire", "rpc_partition heal"}, fault)
	})
}

// TestClockJump: a suspended host resumes later at once; the overdue
// sync tick fires on resuming (the minimal runner's state then reaches
// the server right after the jump).
func TestClockJump(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		plan := faults.Plan{{Class: faults.ClockJump, At: 0, For: time.Hour}}
		sc := simpleScenario(plan, simpleJob("web", 1, nil))
		w, err := New(Config{Scenario: sc, Factory: minimalFactory()})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		w.Advance(time.Millisecond)
		must.Between(t, time.Hour, w.Now().Sub(start), time.Hour+time.Second)
		ok := w.RunUntil(allRunning(w, 1), time.Second)
		if !ok {
			w.Trace().Flush()
			for _, l := range w.Trace().Tail(40) {
				t.Log(l)
			}
		}
		must.True(t, ok)
		must.NoError(t, w.Close())
		var jumped bool
		for _, r := range records(w, trace.KindWorld) {
			jumped = jumped || r.Msg == "clock_resumed"
		}
		must.True(t, jumped)
		h := w.Server().History(w.Server().Allocs()[0].ID, 0)
		must.False(t, h[0].At.Before(start.Add(time.Hour)), must.Sprint("nothing reached the server before resuming"))
	})
}

// TestAPICalls: scenario calls go through the server's routing (API-7)
// to the client: pause and resume of a scheduled task, a read, a signal,
// an in-place schedule update and a stop; errors are traced.
func TestAPICalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		job := simpleJob("web", 1, nil)
		job.TaskGroups[0].Tasks[0].Schedule = &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 10", Timezone: "UTC"}}
		sc := simpleScenario(nil, job)
		sc.Duration = scenario.Duration(10 * time.Minute)
		at := func(d time.Duration) scenario.Duration { return scenario.Duration(d) }
		sc.Calls = []scenario.Call{
			{At: at(time.Second), Op: scenario.OpPause, Alloc: "web.g1[0]", Task: "t1"},
			{At: at(2 * time.Second), Op: scenario.OpGetPause, Alloc: "web.g1[0]", Task: "t1"},
			{At: at(3 * time.Second), Op: scenario.OpResume, Alloc: "web.g1[0]", Task: "t1"},
			{At: at(4 * time.Second), Op: scenario.OpSignal, Alloc: "web.g1[0]", Task: "nope", Signal: "SIGHUP"},
			{At: at(5 * time.Second), Op: scenario.OpPause, Alloc: "web.g1[7]", Task: "t1"},
			{At: at(6 * time.Second), Op: scenario.OpUpdateSchedule, Job: "web", Task: "t1"},
			{At: at(7 * time.Second), Op: scenario.OpUpdateSchedule, Job: "web", Task: "ghost"},
			{At: at(8 * time.Second), Op: scenario.OpStopJob, Job: "web"},
		}
		w, err := Run(Config{Scenario: sc, Factory: referenceFactory()})
		must.NoError(t, err)
		var got []string
		for _, r := range records(w, trace.KindAPI) {
			got = append(got, r.Op+" "+r.Msg+" "+string(r.Data))
		}
		must.Eq(t, []string{
			`pause ok {}`,
			`get_pause ok {"state":"force_pause"}`,
			`resume ok {}`,
			`signal error {"error":"Task not found"}`,
			`pause error {"error":"no alloc named web.g1[7]"}`,
			`update_schedule ok {}`,
			`update_schedule error {"error":"job web has no task ghost"}`,
			`stop_job ok {}`,
		}, got)
		a := w.Server().Allocs()[0]
		must.Nil(t, a.Job.TaskGroups[0].Tasks[0].Schedule, must.Sprint("schedule removed in place"))
		must.EqOp(t, structs.AllocDesiredStatusStop, a.DesiredStatus)
	})
}

// TestHoldStateDB: state DB writes are held by default. The reference
// runner (whose locks held across writes are channels, so that its
// goroutines waiting for them are durably blocked) settles and replays
// exactly with them held, on the seed whose failing writes used to race a
// sibling task (3627536103417198808); the minimal runner replays with
// every hold set.
func TestHoldStateDB(t *testing.T) {
	run := func(f interfaces.Factory, seed uint64, hold Hold) []byte {
		var out []byte
		synctest.Test(t, func(t *testing.T) {
			sc := scenario.Generate(seed, scenario.Options{})
			w, err := Run(Config{Scenario: sc, Factory: f, Hold: hold})
			must.NoError(t, err)
			out = traceBytes(t, w)
		})
		return out
	}
	for _, h := range []Hold{0, HoldDriver | HoldCSI, HoldNone} {
		must.Eq(t, string(run(minimalFactory(), 42, h)), string(run(minimalFactory(), 42, h)))
	}
	const raced = 3627536103417198808
	ref := run(referenceFactory(), raced, 0)
	must.StrContains(t, string(ref), `"op":"statedb_write_failure put `, must.Sprint("the seed must fail state DB writes"))
	must.Eq(t, string(ref), string(run(referenceFactory(), raced, 0)))

	must.True(t, Hold(0).has(HoldDriver))
	must.True(t, Hold(0).has(HoldStateDB))
	must.True(t, Hold(0).has(HoldRPC))
	must.False(t, (HoldDriver | HoldCSI).has(HoldStateDB))
	must.False(t, (HoldNone | HoldDriver).has(HoldDriver))
}

// TestConfigErrors: the simulator has no default client; scenarios are
// validated; a client that cannot be built fails Start.
func TestConfigErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, err := New(Config{Scenario: simpleScenario(nil)})
		must.ErrorIs(t, err, errNoClientFactory)
		_, err = New(Config{Scenario: simpleScenario(nil), Factory: interfaces.Factory{Name: "half", NewClient: minimalFactory().NewClient}})
		must.ErrorIs(t, err, errNoRunnerFactory)
		bad := simpleScenario(nil)
		bad.Duration = 0
		_, err = New(Config{Scenario: bad, Factory: minimalFactory()})
		must.ErrorContains(t, err, "duration must be positive")
		bad = simpleScenario(nil)
		bad.LocalZone = "Mars/Olympus"
		_, err = Run(Config{Scenario: bad, Factory: minimalFactory()})
		must.ErrorContains(t, err, "local zone")

		boom := errors.New("boom")
		f := interfaces.Factory{Name: "broken", NewAllocRunner: minimalFactory().NewAllocRunner,
			NewClient: func(*interfaces.ClientOptions) (interfaces.Client, error) { return nil, boom }}
		w, err := Run(Config{Scenario: simpleScenario(nil), Factory: f})
		must.ErrorIs(t, err, boom)
		must.NotNil(t, w)
		must.Nil(t, w.Client())

		w, err = New(Config{Scenario: simpleScenario(nil), Factory: minimalFactory()})
		must.NoError(t, err)
		must.NoError(t, w.Start())
		must.Error(t, w.Start())
		must.False(t, w.RunUntil(func() bool { return false }, time.Second))
		must.EqOp(t, start.Add(time.Second), w.Now())
		must.NoError(t, w.Close())
		must.ErrorIs(t, w.Restart(), errClosed)
		must.EqOp(t, "simple", w.Scenario().Name)
		must.NotNil(t, w.Clock())
		must.NotNil(t, w.CSI())
	})
}

// TestNewEvents: the events appended between two observations of a task,
// with the 10-event window (DATA-6).
func TestNewEvents(t *testing.T) {
	ev := func(typ string, at int64) *structs.TaskEvent { return &structs.TaskEvent{Type: typ, Time: at} }
	a, b, c, d, e := ev("A", 1), ev("B", 2), ev("C", 2), ev("D", 3), ev("E", 2)
	// full fills a window (MaxTaskEvents) ending with evs by later events.
	full := func(evs ...*structs.TaskEvent) []*structs.TaskEvent {
		out := slices.Clone(evs)
		for i := len(out); i < structs.MaxTaskEvents; i++ {
			out = append(out, ev("F", int64(10+i)))
		}
		return out
	}
	cases := []struct {
		old, cur []*structs.TaskEvent
		want     []*structs.TaskEvent
	}{
		{nil, []*structs.TaskEvent{a, b}, []*structs.TaskEvent{a, b}},
		{[]*structs.TaskEvent{a, b}, []*structs.TaskEvent{a, b}, nil},
		{[]*structs.TaskEvent{a, b}, []*structs.TaskEvent{a, b, c}, []*structs.TaskEvent{c}},
		{[]*structs.TaskEvent{a, b}, []*structs.TaskEvent{b, c, d}, []*structs.TaskEvent{c, d}},
		// The window dropped one of old's events at its last instant (b):
		// c is old, e new at that instant (AR-1/restart-call-result seed
		// 548 lost e when same-instant events were counted).
		{[]*structs.TaskEvent{a, b, c}, full(c, e, d), full(c, e, d)[1:]},
		{[]*structs.TaskEvent{a, b, c}, full(e, d), full(e, d)},
	}
	for i, tc := range cases {
		must.Eq(t, tc.want, structs.AppendedEvents(tc.old, tc.cur), must.Sprintf("case %d", i))
	}
}

func TestFailureString(t *testing.T) {
	f := Failure{Scenario: simpleScenario(nil), Violation: "SYNC-5.4: older state after newer",
		Trace: []string{`{"t":"x"}`}, Replay: ReplayCommand("./sim", "TestReplay", 7)}
	s := f.String()
	for _, want := range []string{"--- seed\n7\n", "--- scenario\nscenario \"simple\"", "--- violation\nSYNC-5.4",
		"--- last 1 trace lines\n{\"t\":\"x\"}", "To reproduce: go test ./sim -run 'TestReplay$' -seed=7"} {
		must.StrContains(t, s, want)
	}
	must.True(t, strings.HasSuffix(s, "-seed=7\n"))
}
