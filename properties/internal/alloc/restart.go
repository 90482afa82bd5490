package alloc

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/restart"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// restartPolicy: AR-7 decisions replayed on a model/restart Tracker per
// task, fed the run ends the runner reported (Terminated, Driver
// Failure, Task hook failed). Start errors come from the task config
// only (their recoverability is known); crashes are left out (a restore
// rebuilds the tracker).
var restartPolicy = prop.Property{
	ID:     "AR-7/restart-policy",
	Specs:  []string{"AR-7", "DATA-6"},
	Doc:    "every restart decision (Restarting with its delay, Not Restarting, Terminated; reason; Restarts) follows model/restart's tracker",
	Faults: []faults.Class{faults.DriverExit, faults.DriverStartDelay},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		typ := prop.Pick(d, "job type", []string{structs.JobTypeService, structs.JobTypeBatch})
		attempts := d.IntRange("attempts", 0, 5)
		mode := structs.RestartPolicyModeFail
		if attempts > 0 && d.Bool("delay mode") {
			mode = structs.RestartPolicyModeDelay
		}
		policy := structs.NewRestartPolicy(attempts, d.Duration("interval", 5*time.Minute, 8*time.Minute, time.Minute),
			d.Duration("delay", 0, 20*time.Second, time.Second), mode)
		var tasks []*structs.Task
		for i, name := range []string{"a", "b"} {
			if i > 0 && !d.Bool("second task") {
				break
			}
			cfg := runCfg(d.Duration("run for", 2*time.Second, 40*time.Second, time.Second),
				prop.Pick(d, "exit code", []int{1, 0, 2}), 500*time.Millisecond)
			if d.IntRange("start error", 0, 4) == 0 {
				cfg["start_error"] = "configured start failure"
				cfg["start_error_recoverable"] = d.Bool("recoverable")
			}
			tasks = append(tasks, mkTask(name, "main", cfg, 2*time.Second))
		}
		sc := mkScenario(d, d.Duration("duration", 3*time.Minute, 12*time.Minute, time.Minute), mkJob("job1", typ, policy, tasks...))
		if env.Allows(faults.DriverExit) && d.Bool("exit fault") {
			sc.Faults = append(sc.Faults, faults.Fault{Class: faults.DriverExit, Rate: 0.5, Max: d.Duration("exit max", time.Second, 30*time.Second, time.Second)})
		}
		// Half the batch runs without restarts end task a cleanly (AR-7
		// (3): Terminated). Else one run in four gives task a a negative
		// kill timeout, which its validate prestart hook rejects: a hook
		// failure goes to the decision as a recoverable start error
		// (AR-5). One service run in two restarts task a in place now and
		// then (AR-1's RestartTask: a triggered restart, AR-7 (2)).
		if typ == structs.JobTypeBatch && attempts == 0 && d.Bool("clean exit") {
			cfg := tasks[0].Config
			cfg["exit_code"] = 0
			delete(cfg, "start_error")
			delete(cfg, "start_error_recoverable")
		} else if d.IntRange("hook failure", 0, 3) == 0 {
			tasks[0].KillTimeout = -time.Second
		}
		if typ == structs.JobTypeService && d.Bool("restarts") {
			for i := 0; i < d.IntRange("restart calls", 2, 5); i++ {
				sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(d.Duration("restart at", 5*time.Second, sc.Duration.D()-5*time.Second, time.Second)),
					Op: scenario.OpRestart, Alloc: "job1.g1[0]", Task: "a"})
			}
			slices.SortStableFunc(sc.Calls, func(a, b scenario.Call) int { return cmp.Compare(a.At, b.At) })
		}
		return sc
	},
	Situations: []prop.Situation{
		{Name: "killed", Doc: "a kill pre-empted a task's decision (rule 1: Killed)"},
		{Name: "triggered-or-pause-restart", Doc: "a triggered or pause-induced restart (rule 2: delay 0, empty reason, no attempt)"},
		{Name: "no-restarts-failed", Doc: "attempts 0 and no successful exit to end on: Not Restarting (rule 3)"},
		{Name: "no-restarts-success", Doc: "attempts 0 and a successful exit without restart-on-success: Terminated (rule 3)"},
		{Name: "interval-rolled-over", Doc: "a decision after the interval's end reset the count and the window (rule 4)"},
		{Name: "unrecoverable-start-error", Doc: "an unrecoverable start error: Not Restarting (rule 5)"},
		{Name: "recoverable-start-error", Doc: "a recoverable driver start error went to the decision"},
		{Name: "hook-failure", Doc: "a prestart hook failure went to the decision as a recoverable start error"},
		{Name: "success-terminated", Doc: "a successful exit without restart-on-success (batch): Terminated (rule 6)"},
		{Name: "success-restarted", Doc: "a successful exit with restart-on-success (service): restarted within policy"},
		{Name: "signal-exit", Doc: "an exit with code 0 and a signal: not successful"},
		{Name: "exceeded-fail", Doc: "attempts exhausted in the interval, mode fail: Not Restarting (rule 7)"},
		{Name: "exceeded-delay", Doc: "attempts exhausted in the interval, mode delay: Restarting at the interval's end (rule 7)"},
		{Name: "within-policy", Doc: "Restarting within policy after Delay plus jitter (rule 8)"},
		{Name: "zero-delay", Doc: "a within-policy restart with Delay 0 (read as 1 ns)"},
	},
	New: func(scenario.Scenario) prop.Checker { return newRestartChecker() },
}

type trackedTask struct {
	tr         *restart.Tracker
	delay      time.Duration // the policy's Delay, defaulted
	pending    bool          // a run ended; its decision is due
	endedAt    time.Time
	killed     bool
	restarting uint64
	success    bool // the last run ended successfully (situations only)
	running    bool // a Started not yet followed by the end of its run
}

type restartChecker struct {
	f     *prop.EventFeed
	tasks map[taskKey]*trackedTask
	// The run's within-policy Restarting decisions with a Delay of at
	// least jitterMinDelay: how many, whether one had jitter, and the
	// first one's task.
	bare     int
	jittered bool
	firstKey taskKey
}

// A correct runner adds uniform[0,Delay) * 0.25 to a within-policy
// delay (AR-7 (8)); with Delay >= 1 s it adds nothing only on a draw
// below 4e-9, so jitterMinRestarts such restarts all without jitter mean
// the jitter is missing.
const (
	jitterMinDelay    = time.Second
	jitterMinRestarts = 4
)

func newRestartChecker() *restartChecker {
	return &restartChecker{f: newFeed(), tasks: map[taskKey]*trackedTask{}}
}

func (c *restartChecker) Final(v *prop.View) {
	if v.Failed() || c.jittered || c.bare < jitterMinRestarts {
		return
	}
	v.Violatef(c.firstKey.Alloc, c.firstKey.Task, "within-policy Restarting StartDelay",
		fmt.Sprintf("exactly the policy Delay in all %d restarts with Delay >= %s", c.bare, jitterMinDelay),
		"Delay plus a jitter of uniform[0,Delay) * 0.25 (AR-7 (8))")
}

func (c *restartChecker) Settled(v *prop.View) {
	evs := c.f.Next(v)
	// Tasks received this instant are tracked first, so that a kill in
	// the same instant (a sibling failing at once) marks them too.
	for _, ne := range evs {
		if ne.Event.Type == structs.TaskReceived {
			c.event(v, ne)
		}
	}
	// A kill in the same instant may pre-empt a decision: such tasks are
	// no longer checked.
	for _, ne := range evs {
		switch ne.Event.Type {
		case structs.TaskKilling, structs.TaskKilled, structs.TaskSetupFailure:
			if t := c.tasks[ne.Key]; t != nil && !t.killed {
				v.Reach("killed")
			}
			c.killed(ne.Key)
		default:
			if killRuleEvent(ne.Event.Type) {
				if t := c.tasks[ne.Key]; t != nil && !t.killed {
					v.Reach("killed")
				}
				c.killed(ne.Key)
			}
		}
	}
	for _, ne := range evs {
		if ne.Event.Type == structs.TaskReceived {
			continue
		}
		c.event(v, ne)
		if v.Failed() {
			return
		}
	}
	for _, a := range v.Allocs() {
		for _, name := range structs.SortedTaskNames(a.TaskStates) {
			ts := a.TaskStates[name]
			t := c.tasks[taskKey{Alloc: a.ID, Task: name}]
			if t == nil || t.killed {
				continue
			}
			if ts.Restarts != t.restarting {
				v.Violatef(a.ID, name, "TaskState.Restarts", ts.Restarts, t.restarting)
				return
			}
			if t.pending && ts.State == structs.TaskStateDead {
				// No Restarting or Not Restarting: the decision was Terminated.
				d := c.decide(v, t, t.endedAt)
				t.pending = false
				if d.State != restart.Terminated {
					v.Violatef(a.ID, name, "restart decision", "Terminated (task dead without a Restarting or Not Restarting event)", describe(d))
					return
				}
			}
		}
	}
	// AR-6 takes the decision as a run ends (the delay comes after it):
	// one still due an instant later was never taken.
	for _, k := range sortedTracked(c.tasks) {
		if t := c.tasks[k]; t.pending && !t.killed && t.endedAt.Before(v.Now()) {
			d := c.decide(v, t, t.endedAt)
			t.pending = false
			v.Violatef(k.Alloc, k.Task, fmt.Sprintf("restart decision of the run that ended at %s", prop.When(t.endedAt, nil)),
				"none (no Restarting or Not Restarting, not dead)", describe(d)+", at that instant (AR-6, AR-7)")
			return
		}
	}
}

func sortedTracked(m map[taskKey]*trackedTask) []taskKey {
	out := make([]taskKey, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b taskKey) int { return strings.Compare(a.Alloc+"/"+a.Task, b.Alloc+"/"+b.Task) })
	return out
}

func (c *restartChecker) killed(k taskKey) {
	if t := c.tasks[k]; t != nil {
		t.killed = true
	}
}

func (c *restartChecker) event(v *prop.View, ne newEvent) {
	k, e := ne.Key, ne.Event
	at := time.Unix(0, e.Time).UTC()
	t := c.tasks[k]
	if e.Type == structs.TaskReceived && t == nil {
		job, tg := groupOf(v, k.Alloc)
		if tg == nil {
			return
		}
		task := tg.LookupTask(k.Task)
		p := tg.RestartPolicy.WithDefaults(job.Type)
		t = &trackedTask{tr: restart.New(tg.RestartPolicy, job.Type, task, at), delay: p.GetDelay()}
		c.tasks[k] = t
		return
	}
	if t == nil {
		return
	}
	if e.Type == structs.TaskRestartSignal || e.Type == structs.TaskPausing {
		v.Reach("triggered-or-pause-restart")
	}
	if e.Type == structs.TaskRestartSignal && t.running && !t.killed {
		// A restart of a running task (AR-1): its exit restarts with
		// delay 0 and no attempt used (AR-7 (2)).
		t.tr.SetRestartTriggered()
	}
	switch e.Type {
	case structs.TaskStarted:
		t.running = true
	case structs.TaskTerminated, structs.TaskDriverFailure, structs.TaskHookFailed:
		t.running = false
	}
	if e.Type == structs.TaskRestarting {
		t.restarting++
	}
	if t.killed {
		return
	}
	switch e.Type {
	case structs.TaskTerminated:
		var err error
		if e.Message != "" {
			err = errors.New(e.Message)
		}
		res := restart.ExitResult{ExitCode: e.ExitCode, Signal: e.Signal, Err: err}
		t.tr.SetExitResult(res)
		t.pending, t.endedAt = true, at
		t.success = res.Successful()
		if e.ExitCode == 0 && e.Signal != 0 {
			v.Reach("signal-exit")
		}
	case structs.TaskDriverFailure:
		rec := false
		if _, tg := groupOf(v, k.Alloc); tg != nil {
			if task := tg.LookupTask(k.Task); task != nil {
				rec, _ = task.Config["start_error_recoverable"].(bool)
			}
		}
		t.tr.SetStartError(errors.New(e.DriverError), rec)
		t.pending, t.endedAt = true, at
		t.success = false
		if rec {
			v.Reach("recoverable-start-error")
		}
	case structs.TaskHookFailed:
		t.tr.SetStartError(errors.New(e.Message), true)
		t.pending, t.endedAt = true, at
		t.success = false
		v.Reach("hook-failure")
	case structs.TaskRestarting, structs.TaskNotRestarting:
		if !t.pending {
			v.Violatef(k.Alloc, k.Task, "event "+e.Type, "without a run end before it", "a decision only after a run ends (exit or start error)")
			return
		}
		t.pending = false
		d := c.decide(v, t, at)
		if string(d.State) != e.Type || d.Reason != e.RestartReason {
			v.Violatef(k.Alloc, k.Task, "restart decision", e.Type+" ("+e.RestartReason+")", describe(d))
			return
		}
		if d.State != restart.Restarting {
			return
		}
		got := time.Duration(e.StartDelay)
		lo, hi := d.Delay, d.Delay
		if d.Reason == restart.ReasonWithinPolicy {
			base := max(t.delay, time.Nanosecond)
			hi = base + time.Duration(float64(base-1)*restart.JitterFraction)
		}
		if got < lo || got > hi {
			v.Violatef(k.Alloc, k.Task, "Restarting StartDelay", got, "in ["+lo.String()+", "+hi.String()+"]")
			return
		}
		if d.Reason == restart.ReasonWithinPolicy && t.delay >= jitterMinDelay {
			if c.bare == 0 {
				c.firstKey = k
			}
			c.bare++
			if got != t.delay {
				c.jittered = true
			}
		}
	}
}

// decide is t's tracker decision at at (GetState), counting the AR-7
// rule that made it.
func (c *restartChecker) decide(v *prop.View, t *trackedTask, at time.Time) restart.Decision {
	ws, n := t.tr.WindowStart(), t.tr.Count()
	d := t.tr.GetState(at, nil)
	if n > 0 && !t.tr.WindowStart().Equal(ws) {
		v.Reach("interval-rolled-over")
	}
	switch {
	case d.Reason == restart.ReasonNoRestartsAllowed && d.State == restart.Terminated:
		v.Reach("no-restarts-success")
	case d.Reason == restart.ReasonNoRestartsAllowed:
		v.Reach("no-restarts-failed")
	case d.Reason == restart.ReasonUnrecoverableError:
		v.Reach("unrecoverable-start-error")
	case d.Reason == restart.ReasonSuccessfulTermination:
		v.Reach("success-terminated")
	case d.Reason == restart.ReasonDelay:
		v.Reach("exceeded-delay")
	case d.Reason == restart.ReasonWithinPolicy:
		v.Reach("within-policy")
		if t.delay == 0 {
			v.Reach("zero-delay")
		}
		if t.success {
			v.Reach("success-restarted")
		}
	case d.State == restart.NotRestarting && d.ConsumesAttempt:
		v.Reach("exceeded-fail")
	}
	return d
}

func describe(d restart.Decision) string {
	s := string(d.State)
	if d.Reason != "" {
		s += " (" + d.Reason + ")"
	}
	if d.State == restart.Restarting {
		s += " in " + d.Delay.String()
	}
	return s
}

// restartAPI: AR-1's RestartTask, RestartRunning and RestartAll, called
// on the runner at one drawn instant (a world action). Task a runs until
// stopped, b (if drawn) exits 0 and waits dead for an alloc restart
// (AR-6), c (if drawn) stays pending in a blocking driver start; the
// policy allows no restarts, so an exit the restart policy decided would
// fail the task. Every task the call selects (RestartTask: the named one,
// if running or dead; RestartRunning: the running ones; RestartAll: the
// running and dead ones) gets `Restart Signaled` at the call; a running
// one then exits and restarts with no attempt used (`Terminated`,
// `Restarting` `Task restarting in 0s`, `Started`, AR-7 (2)); a dead one
// becomes pending and starts again. A task not selected gets no event,
// and a pending task named by RestartTask is refused. On some runs b,
// revived by the call, is restarted again once it started: as a running
// task (a runner that still takes it for dead signals it without
// stopping it). On some runs with b the client restarts (an agent
// restart, ClientRestart) after b exited and before the call: b is then
// a task restored dead but not done (it waits for an alloc restart,
// AR-6, STATE-4), which the call must revive all the same.
var restartAPI = prop.Property{
	ID:     "AR-1/restart-api",
	Specs:  []string{"AR-1", "AR-7", "AR-6"},
	Doc:    "RestartTask, RestartRunning and RestartAll append Restart Signaled to exactly the tasks they select, restart running ones with no attempt used (Restarting in 0s) and dead ones from pending",
	Faults: []faults.Class{faults.ClientRestart},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		tasks := []*structs.Task{mkTask("a", "main", runCfg(0, 0, d.Duration("a kill after", 100*time.Millisecond, 2*time.Second, 100*time.Millisecond)), 3*time.Second)}
		var restore *faults.Fault
		if d.Bool("b") {
			cfg := runCfg(d.Duration("b run for", 2*time.Second, 15*time.Second, time.Second), 0, 0)
			if block := d.Duration("b start block", 0, 3*time.Second, time.Second); block > 0 {
				cfg["start_block_for"] = block.String()
			}
			tasks = append(tasks, mkTask("b", "main", cfg, 3*time.Second))
			// Two runs in three with b restart the client after b exited
			// (by 18 s: start block and run) and before the call (the
			// client is back by 25 s, the earliest call).
			if env.Allows(faults.ClientRestart) && d.IntRange("client restart", 0, 2) > 0 {
				restore = &faults.Fault{Class: faults.ClientRestart,
					At:  d.Duration("client restart at", 19*time.Second, 22*time.Second, time.Second),
					For: d.Duration("client down for", time.Second, 3*time.Second, time.Second)}
			}
		}
		// No c with a client restart: a graceful shutdown waits for c's
		// StartTask, blocked for an hour.
		if restore == nil && d.Bool("c") {
			cfg := runCfg(0, 0, 0)
			cfg["start_block_for"] = "1h"
			tasks = append(tasks, mkTask("c", "main", cfg, 3*time.Second))
		}
		policy := structs.NewRestartPolicy(0, 5*time.Minute, time.Second, structs.RestartPolicyModeFail)
		j := mkJob("job1", structs.JobTypeBatch, policy, tasks...)
		// The call, as data the checker reads back (and a replay prints).
		j.Meta = map[string]string{
			metaRestartOp: prop.Pick(d, "restart op", restartOps),
			metaRestartAt: d.Duration("restart at", 25*time.Second, 40*time.Second, time.Second).String(),
		}
		if d.Bool("restart reason") {
			j.Meta[metaRestartReason] = "suite restart"
		}
		// With b, one run in two revives it (task b or all) and restarts
		// it again once it started: a running task now, restarted as one
		// (AR-7 (2)).
		if j.TaskGroups[0].LookupTask("b") != nil && d.Bool("restart again") {
			j.Meta[metaRestartOp] = prop.Pick(d, "restart again op", []string{"task b", "all"})
			j.Meta[metaRestartAgain] = "b"
		}
		sc := mkScenario(d, 2*time.Minute, j)
		// After a client restart the call is one that selects the
		// restored b (task b, all) or must leave it alone (running).
		if restore != nil {
			sc.Faults = append(sc.Faults, *restore)
			if j.Meta[metaRestartAgain] == "" {
				j.Meta[metaRestartOp] = prop.Pick(d, "restart op after restore", []string{"task b", "all", "running"})
			}
		}
		return sc
	},
	Situations: []prop.Situation{
		{Name: "running-restarted", Doc: "a running task restarted: Terminated, Restarting in 0s, Started"},
		{Name: "dead-restarted", Doc: "a dead task waiting for an alloc restart restarted: pending, Started"},
		{Name: "restored-dead-restarted", Doc: "a task restored dead by a client restart, not done (waiting for an alloc restart), restarted: pending, Started"},
		{Name: "dead-restarted-pending", Doc: "a restarted dead task seen pending while its start blocks"},
		{Name: "pending-refused", Doc: "RestartTask of a pending task: refused, no event"},
		{Name: "left-alone", Doc: "a task the call does not select: no event"},
		{Name: "with-reason", Doc: "a caller's event with a RestartReason: its DisplayMessage"},
		{Name: "revived-restarted", Doc: "a dead task the call revived, restarted again once running: as a running one"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		meta := sc.Jobs[0].Job.Meta
		at, _ := time.ParseDuration(meta[metaRestartAt])
		c := &restartAPIChecker{at: sc.Start.Add(at), op: meta[metaRestartOp], reason: meta[metaRestartReason], again: meta[metaRestartAgain],
			restored: len(sc.Faults.Of(faults.ClientRestart)) > 0}
		return prop.Checks{OnSettled: c.settled, OnFinal: c.final}
	},
}

// restartOps are the calls restartAPI makes, by the name drawn.
var restartOps = []string{"task a", "task b", "task c", "running", "all"}

// The job meta keys restartAPI's draw leaves for its checker.
const (
	metaRestartOp     = "suite_restart_op"
	metaRestartAt     = "suite_restart_at"
	metaRestartReason = "suite_restart_reason"
	metaRestartAgain  = "suite_restart_again"
)

type restartAPIChecker struct {
	at     time.Time
	op     string
	reason string
	again  string // a task to restart again once the call revived it and it started
	// restored: the client restarted before the call (the draw puts its
	// restart before the earliest call), so its tasks were restored.
	restored bool
	called   bool
	calAt    time.Time
	alloc    string
	err      error
	want     map[string]string   // task → its state at the call, for the selected tasks
	seen     map[string][]string // task → the events and states seen since the call
}

func (c *restartAPIChecker) settled(v *prop.View) {
	if c.called {
		c.observe(v)
		if !v.Failed() {
			c.restartAgain(v)
		}
		return
	}
	if v.Now().Before(c.at) {
		return
	}
	allocs := v.Allocs()
	if len(allocs) != 1 {
		return
	}
	a := allocs[0]
	ar := v.World.AllocRunner(a.ID)
	if ar == nil || a.ClientStatus != structs.AllocClientStatusRunning {
		return
	}
	c.called, c.calAt, c.alloc = true, v.Now(), a.ID
	c.want, c.seen = map[string]string{}, map[string][]string{}
	selected := func(name, state string) bool {
		switch c.op {
		case "running":
			return state == structs.TaskStateRunning
		case "all":
			return state != structs.TaskStatePending
		}
		return c.op == "task "+name && state != structs.TaskStatePending
	}
	for name, ts := range a.TaskStates {
		if ts != nil && selected(name, ts.State) {
			c.want[name] = ts.State
		}
	}
	var ev *structs.TaskEvent
	if c.reason != "" {
		ev = &structs.TaskEvent{Type: structs.TaskRestartSignal}
		ev.SetRestartReason(c.reason)
	}
	v.World.Do(func() {
		switch c.op {
		case "running":
			c.err = ar.RestartRunning(ev)
		case "all":
			c.err = ar.RestartAll(ev)
		default:
			c.err = ar.RestartTask(c.op[len("task "):], ev)
		}
	})
	named := strings.TrimPrefix(c.op, "task ")
	switch {
	case named != c.op && a.TaskStates[named] == nil:
		// the task was not drawn: the call's error is not what is checked
	case named != c.op && c.want[named] == "":
		v.Reach("pending-refused")
		if c.err == nil {
			v.Violatef(a.ID, named, "RestartTask of a pending task", "nil error", "an error (Task not running): no live or dead run to restart")
		}
	case c.err != nil:
		v.Violatef(a.ID, "", c.op+" restart error", c.err, "nil: every selected task is running or dead, pending ones are left alone")
	}
}

// observe collects, per task, the restart-relevant events after the
// call and checks each task's sequence so far; a dead task restarted is
// pending until it starts again (AR-6), at every settled instant.
func (c *restartAPIChecker) observe(v *prop.View) {
	for _, r := range v.New {
		if r.Alloc != c.alloc || r.At.Before(c.calAt) || r.Kind != trace.KindTaskEvent {
			continue
		}
		switch r.Msg {
		case structs.TaskRestartSignal, structs.TaskRestarting:
			c.seen[r.Task] = append(c.seen[r.Task], r.Msg+" "+strconv.Quote(oracle.EventOf(r).Display))
		case structs.TaskTerminated, structs.TaskNotRestarting, structs.TaskStarted:
			c.seen[r.Task] = append(c.seen[r.Task], r.Msg)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.seen)) {
		if c.mismatch(v, name, c.seen[name]) {
			return
		}
	}
	a := v.Alloc(c.alloc)
	for _, name := range slices.Sorted(maps.Keys(c.want)) {
		seen := c.seen[name]
		if c.want[name] != structs.TaskStateDead || len(seen) != 1 || a == nil || a.TaskStates[name] == nil {
			continue
		}
		if st := a.TaskStates[name].State; st != structs.TaskStatePending {
			v.Violatef(c.alloc, name, "state of a dead task restarted by "+c.op+", before it started again (AR-6)", st, structs.TaskStatePending)
			return
		}
		v.Reach("dead-restarted-pending")
	}
}

// expected is the event sequence a selected task shows after the call
// (its first events; what follows is the task's normal life).
func (c *restartAPIChecker) expected(name string) []string {
	signaled := structs.TaskRestartSignal + " " + strconv.Quote(cmp.Or(c.reason, "Task signaled to restart"))
	switch c.want[name] {
	case structs.TaskStateRunning:
		return []string{signaled, structs.TaskTerminated, structs.TaskRestarting + ` "Task restarting in 0s"`, structs.TaskStarted}
	case structs.TaskStateDead:
		return []string{signaled, structs.TaskStarted}
	}
	return nil
}

func (c *restartAPIChecker) mismatch(v *prop.View, name string, seen []string) bool {
	want := c.expected(name)
	if want == nil {
		if len(seen) > 0 && strings.HasPrefix(seen[0], structs.TaskRestartSignal) {
			v.Violatef(c.alloc, name, "event after "+c.op+" restart", seen[0], "none: the call does not select the task (AR-1)")
			return true
		}
		return false
	}
	for i := range min(len(seen), len(want)) {
		if seen[i] != want[i] {
			v.Violatef(c.alloc, name, fmt.Sprintf("after %s restart of a %s task (AR-1, AR-7 (2)): event %d", c.op, c.want[name], i+1),
				strings.Join(seen[:i+1], ", "), strings.Join(want, ", "))
			return true
		}
	}
	if len(seen) >= len(want) {
		switch c.want[name] {
		case structs.TaskStateRunning:
			v.Reach("running-restarted")
		case structs.TaskStateDead:
			v.Reach("dead-restarted")
			if c.restored {
				v.Reach("restored-dead-restarted")
			}
		}
		if c.reason != "" {
			v.Reach("with-reason")
		}
	}
	return false
}

func (c *restartAPIChecker) final(v *prop.View) {
	if !c.called {
		return
	}
	for name, st := range c.want {
		want := c.expected(name)
		if len(c.seen[name]) < len(want) {
			v.Violatef(c.alloc, name, "after "+c.op+" restart of a "+st+" task (AR-1)", cmp.Or(strings.Join(c.seen[name], ", "), "nothing"), strings.Join(want, ", "))
			return
		}
	}
	for name := range v.Alloc(c.alloc).TaskStates {
		if c.want[name] == "" {
			v.Reach("left-alone")
		}
	}
}

// restartAgain: once the call revived the dead task c.again and it
// started, RestartTask it again, now a running task; from then on the
// checker expects that second call's events (the first call's are done).
// A runner that still takes it for dead signals it without stopping it.
func (c *restartAPIChecker) restartAgain(v *prop.View) {
	name := c.again
	if name == "" || c.want[name] != structs.TaskStateDead || len(c.seen[name]) < len(c.expected(name)) {
		return
	}
	ar := v.World.AllocRunner(c.alloc)
	if a := v.Alloc(c.alloc); ar == nil || a == nil || a.TaskStates[name] == nil || a.TaskStates[name].State != structs.TaskStateRunning {
		return
	}
	c.again, c.op, c.calAt = "", "task "+name, v.Now()
	c.want, c.seen = map[string]string{name: structs.TaskStateRunning}, map[string][]string{}
	v.Reach("revived-restarted")
	var ev *structs.TaskEvent
	if c.reason != "" {
		ev = &structs.TaskEvent{Type: structs.TaskRestartSignal}
		ev.SetRestartReason(c.reason)
	}
	v.World.Do(func() { c.err = ar.RestartTask(name, ev) })
	if c.err != nil {
		v.Violatef(c.alloc, name, "RestartTask of the running task the first call revived", c.err, "nil: the task is running (AR-1)")
	}
}
