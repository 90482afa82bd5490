package restore

import (
	"maps"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// Properties lists the package's properties in suite order.
func Properties() []prop.Property {
	return []prop.Property{noSecondStarted, acknowledgedSurvives, failedRestore, handleCleared, allocEvery60s, allocEntryCurrent, gcDeletesState, shutdownWrites, taskStateStored}
}

// drawCrashes draws a service job of long-running tasks (a prestart
// task, sometimes a sidecar) and one or two client crashes at random
// instants. Then, each on some runs and where the property allows the
// class: the first crash early, while the first updates are sent, with
// calls that take time (rpc_latency), so that one is in flight at the
// crash; failing writes of one state DB key (acknowledged_state: an
// acknowledgement lost; task_state: an alloc with no task state at the
// crash, STATE-3 (2)); failing recoveries (Failed Restoring Task, which
// ends a run: a new Started may follow).
func drawCrashes(d *prop.Drawer, env prop.Env) scenario.Scenario {
	tasks := []*structs.Task{task("main", nil, map[string]any{"kill_after": "500ms"})}
	if d.Bool("prestart") {
		tasks = append(tasks, task("init", &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart},
			map[string]any{"run_for": d.Duration("init run", time.Second, 20*time.Second, time.Second).String(), "exit_code": 0}))
	}
	if d.Bool("sidecar") {
		tasks = append(tasks, task("side", &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPoststart, Sidecar: true}, map[string]any{}))
	}
	j := &structs.Job{ID: "job1", Name: "job1", Type: structs.JobTypeService, TaskGroups: []*structs.TaskGroup{{Name: "g1", Count: d.IntRange("count", 1, 2), Tasks: tasks}}}
	j.Canonicalize()
	sc := scenario.Scenario{Start: prop.Pick(d, "start", scenario.Starts), Duration: scenario.Duration(d.Duration("duration", 3*time.Minute, 6*time.Minute, time.Minute)),
		Jobs: []scenario.JobAt{{Job: j}}}
	at := time.Duration(0)
	for i := 0; i < d.IntRange("crashes", 1, 2); i++ {
		at += d.Duration("crash after", 2*time.Second, 90*time.Second, 100*time.Millisecond)
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.ClientCrash, At: at, For: d.Duration("down for", time.Second, 30*time.Second, time.Second)})
		at += 30 * time.Second
	}
	if env.Allows(faults.RPCLatency) && d.IntRange("crash in sync", 0, 2) == 0 {
		sc.Faults[0].At = d.Duration("early crash at", 500*time.Millisecond, 4*time.Second, 10*time.Millisecond)
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.RPCLatency, Rate: float64(d.IntRange("latency percent", 30, 100)) / 100,
			Max: d.Duration("latency max", 500*time.Millisecond, 5*time.Second, 100*time.Millisecond)})
	}
	if env.Allows(faults.StateDBWriteFailure) && d.IntRange("write failures", 0, 2) == 0 {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.StateDBWriteFailure, Rate: float64(d.IntRange("write failure percent", 50, 100)) / 100,
			Key: prop.Pick(d, "write failure key", []string{"acknowledged_state", "task_state"})}) // STATE-1 keys
	}
	if env.Allows(faults.DriverRecoverFailure) && d.IntRange("recover failures", 0, 2) == 0 {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.DriverRecoverFailure, Rate: float64(d.IntRange("recover failure percent", 30, 100)) / 100})
	}
	return sc
}

// task is a mock_driver task of the package's scenarios (kill timeout
// 2 s, SIGINT) with lifecycle lc (nil: main) and driver config cfg.
func task(name string, lc *structs.TaskLifecycle, cfg map[string]any) *structs.Task {
	return &structs.Task{Name: name, Driver: "mock_driver", KillTimeout: 2 * time.Second, KillSignal: "SIGINT", Lifecycle: lc, Config: cfg}
}

// runEnds are the events that end a task run (a new Started may follow).
var runEnds = map[string]bool{
	structs.TaskTerminated: true, structs.TaskDriverFailure: true, structs.TaskRestoreFailed: true,
	structs.TaskKilled: true, structs.TaskRestarting: true, structs.TaskNotRestarting: true,
}

// noSecondStarted: STATE-3's "no second Received" and STATE-4's
// "recovered: running with no Started" over crashes at random instants.
var noSecondStarted = prop.Property{
	ID:       "STATE-4/no-second-started",
	Specs:    []string{"STATE-4", "STATE-3"},
	Doc:      "after crashes and restores a task has one Received, and a Started only after its previous run ended (a recovered task gets none), and none once a job stopped while the client was down is known",
	Faults:   []faults.Class{faults.ClientCrash, faults.DriverRecoverFailure},
	Draw:     drawCrashesStopped,
	Liveness: 30 * time.Second,
	Situations: []prop.Situation{
		{Name: "recovered-running", Doc: "a task running at the crash recovered its handle: running, no Started"},
		{Name: "sidecar-recovered", Doc: "a poststart sidecar recovered its handle"},
		{Name: "crash-before-start", Doc: "a task not started yet at the crash: its first Started comes after the restore"},
		{Name: "crash-during-prestart-task", Doc: "a prestart task running at the crash"},
		{Name: "restored-dead-task", Doc: "a task dead at the crash (a completed prestart task) restored dead: no Started"},
		{Name: "several-allocs", Doc: "two allocs restored at once"},
		{Name: "several-crashes", Doc: "a second crash and restore"},
		{Name: "recover-failure", Doc: "RecoverTask failed for a running task: Failed Restoring Task, wait for the server"},
		{Name: "started-again-after-restore", Doc: "a task started before a crash started again in a later incarnation (its prestart reran: no second Task Setup)"},
		{Name: "stopped-while-down", Doc: "the job was stopped while the client was down: after the restored client contacted the servers no task starts"},
		{Name: "recovered-not-rewritten", Doc: "a task recovered its handle at a restart with no event: its task_state not written then"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		stopped := newStoppedBeforeRestart(sc)
		f := newFeed()
		received := map[key]int{}
		runningRun := map[key]bool{} // a Started not yet followed by a run end
		// setUp: the crash count when the task first started after its
		// Task Setup: task_dir's data (is_done) was stored by then, for
		// local_state is written after each prestart hook whose state
		// changed, before the driver start (STATE-2).
		setUp := map[key]int{}
		crashes := 0
		return prop.Checks{OnSettled: func(v *prop.View) {
			if stopped.settled(v); v.Failed() {
				return
			}
			if checkNoRewrite(v); v.Failed() {
				return
			}
			crashes += reachCrash(v, crashes)
			for _, ne := range f.Next(v) {
				switch t := ne.Event.Type; {
				case t == structs.TaskReceived:
					if received[ne.Key]++; received[ne.Key] > 1 {
						v.Violatef(ne.Key.Alloc, ne.Key.Task, "Received events", received[ne.Key], "1 (a restored task keeps its state)")
						return
					}
				case t == structs.TaskSetup:
					if _, ok := setUp[ne.Key]; ok {
						v.Violatef(ne.Key.Alloc, ne.Key.Task, "event Task Setup", "a second one, after the task had started",
							"none: task_dir's first build stored is_done, so later prestarts, restored ones too, re-ensure the dirs silently (AR-5, STATE-4)")
						return
					}
					setUp[ne.Key] = -1
				case t == structs.TaskStarted:
					if runningRun[ne.Key] {
						v.Violatef(ne.Key.Alloc, ne.Key.Task, "event Started", "a second one while the run it started had not ended", "none for a recovered task (STATE-4)")
						return
					}
					runningRun[ne.Key] = true
					switch n, ok := setUp[ne.Key]; {
					case ok && n < 0:
						setUp[ne.Key] = crashes
					case ok && n < crashes:
						v.Reach("started-again-after-restore")
					}
				case runEnds[t]:
					runningRun[ne.Key] = false
				}
			}
		}}
	},
}

// acknowledgedSurvives: the acknowledged state of each alloc survives a
// crash: the first update the server receives of an alloc after a
// restart is not the state it had acknowledged before the crash; and
// after healing, every task that ran before a crash runs again.
var acknowledgedSurvives = prop.Property{
	ID:       "STATE-3/acknowledged-survives",
	Specs:    []string{"STATE-3", "STATE-2"},
	Doc:      "a restored client does not re-send the state the server acknowledged before the crash, and its tasks that should run run again",
	Faults:   []faults.Class{faults.ClientCrash, faults.RPCLatency, faults.StateDBWriteFailure},
	Draw:     drawCrashes,
	Liveness: time.Minute,
	Situations: []prop.Situation{
		{Name: "acked-at-crash", Doc: "the server's newest state of an alloc was acknowledged (persisted) when the client crashed"},
		{Name: "unacked-at-crash", Doc: "the server's newest state of an alloc was not yet acknowledged at the crash"},
		{Name: "call-in-flight-at-crash", Doc: "an UpdateAlloc was in flight at the crash: its acknowledgement never written"},
		{Name: "changed-after-restore", Doc: "the first update after the restart carries a changed state"},
		{Name: "unchanged-not-resent", Doc: "an alloc acknowledged before the crash and unchanged after it: nothing re-sent"},
		{Name: "no-task-state-at-crash", Doc: "an alloc with no task state persisted at the crash: its bucket is deleted, skipped"},
		{Name: "task-runs-again", Doc: "a task that should run runs again after restore and healing"},
		{Name: "ack-write-failed", Doc: "an acknowledged_state write failed (logged)"},
	},
	New: func(scenario.Scenario) prop.Checker {
		c := &ackChecker{ackAt: map[string]time.Time{}, acked: map[string]int{}, watch: map[string]int{}, stated: map[string]bool{}}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

// reachCrash counts what the tasks were doing at a crash of this
// instant, and their recoveries; it returns how many crashes it saw.
func reachCrash(v *prop.View, before int) int {
	n := 0
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			if n++; before+n > 1 {
				v.Reach("several-crashes")
			}
			allocs := v.Allocs()
			if len(allocs) > 1 {
				v.Reach("several-allocs")
			}
			for _, a := range allocs {
				for name, ts := range a.TaskStates {
					t := v.Task(a.ID, name)
					switch {
					case ts == nil || t == nil:
					case ts.State == structs.TaskStatePending && ts.StartedAt.IsZero():
						v.Reach("crash-before-start")
					case ts.State == structs.TaskStateRunning && t.IsPrestart():
						v.Reach("crash-during-prestart-task")
					case ts.State == structs.TaskStateDead:
						v.Reach("restored-dead-task")
					}
				}
			}
		case r.Kind == trace.KindDriver && r.Op == "RecoverTask" && r.Msg == "ok":
			v.Reach("recovered-running")
			if t := v.Task(r.Alloc, r.Task); t != nil && t.IsSidecar() {
				v.Reach("sidecar-recovered")
			}
		case r.Kind == trace.KindDriver && r.Op == "RecoverTask" && r.Msg != "already_tracked":
			v.Reach("recover-failure")
		}
	}
	return n
}

type ackChecker struct {
	ackAt   map[string]time.Time // alloc → last acknowledged_state write
	acked   map[string]int       // alloc → History length acknowledged at the last crash
	watch   map[string]int       // alloc → History length at the last crash, if its last entry was acknowledged
	stated  map[string]bool      // alloc → a task_state was persisted (situations only)
	crashes int                  // crashes seen (situations only)
}

func (c *ackChecker) settled(v *prop.View) {
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindStateDB && r.Op == "put acknowledged_state" && r.Msg == "ok":
			c.ackAt[r.Alloc] = r.At
		case r.Kind == trace.KindStateDB && r.Op == "put acknowledged_state":
			v.Reach("ack-write-failed")
		case r.Kind == trace.KindStateDB && r.Op == "put task_state" && r.Msg == "ok":
			c.stated[r.Alloc] = true
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			c.reachCrash(v, r.At)
			c.crashed(v)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(c.watch)) {
		n := c.watch[id]
		h := v.World.Server().History(id, n-1) // the acknowledged one, then what came after
		if len(h) < 2 {
			continue
		}
		delete(c.watch, id)
		if !sameState(h[1].State, h[0].State) {
			v.Reach("changed-after-restore")
		}
		if sameState(h[1].State, h[0].State) {
			v.Violatef(id, "", "first update received after the restart", "the state acknowledged before the crash", "not re-sent (STATE-3 (5))")
			return
		}
	}
}

// crashed notes, per alloc, whether the server's newest state was
// acknowledged (written as acknowledged_state after it was committed).
func (c *ackChecker) crashed(v *prop.View) {
	for _, a := range v.Allocs() {
		h := v.World.Server().History(a.ID, 0)
		if len(h) == 0 {
			continue
		}
		if at, ok := c.ackAt[a.ID]; ok && !at.Before(h[len(h)-1].CommittedAt) {
			c.watch[a.ID] = len(h)
		} else {
			delete(c.watch, a.ID)
		}
	}
}

// reachCrash counts what a crash at instant at leaves unacknowledged.
func (c *ackChecker) reachCrash(v *prop.View, at time.Time) {
	c.crashes++
	for _, a := range v.Allocs() {
		if !c.stated[a.ID] {
			v.Reach("no-task-state-at-crash")
		}
		h := v.World.Server().History(a.ID, 0)
		if len(h) == 0 {
			continue
		}
		if t, ok := c.ackAt[a.ID]; ok && !t.Before(h[len(h)-1].CommittedAt) {
			v.Reach("acked-at-crash")
		} else {
			v.Reach("unacked-at-crash")
		}
	}
	// A call the crash cut returned at the crash's instant, with an
	// error: it was in flight then all the same.
	inc, _ := v.World.Incarnation()
	for _, call := range v.World.SyncCalls(0) {
		if call.Incarnation == inc && (call.InFlight(at) || !call.Start.After(at) && call.Return.Equal(at) && call.Err != "") {
			v.Reach("call-in-flight-at-crash")
		}
	}
}

func (c *ackChecker) final(v *prop.View) {
	if len(c.watch) > 0 {
		v.Reach("unchanged-not-resent")
	}
	for _, a := range v.Allocs() {
		if sa := v.ServerAlloc(a.ID); sa == nil || sa.ServerTerminal() {
			continue
		}
		for _, name := range structs.SortedTaskNames(a.TaskStates) {
			ts := a.TaskStates[name]
			t := v.Task(a.ID, name)
			if t == nil || t.Config["run_for"] != nil {
				continue
			}
			if ts.State != structs.TaskStateRunning {
				v.Violatef(a.ID, name, "task state after restore and healing", ts.State, "running (it should run)")
				return
			}
			if c.crashes > 0 {
				v.Reach("task-runs-again")
			}
		}
	}
}

// sameState is SYNC-2's equality of two received client states: no
// difference of any priority.
func sameState(a, b *structs.AllocState) bool {
	return a != nil && b != nil && syncpolicy.StatePriority(a, b) == syncpolicy.None
}
