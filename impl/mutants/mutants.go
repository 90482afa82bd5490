package mutants

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/allocsim/allocsim/impl/allocrunner"
	"github.com/allocsim/allocsim/impl/client"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/restart"
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// Mutant is one deliberately wrong runner: the reference runner with one
// defect, built around it.
type Mutant struct {
	Name     string   // the mutant's, also its Factory's
	Breaks   []string // the SPEC rule IDs the defect violates
	Mirrors  string   // the real bug the defect reproduces, in one sentence
	CaughtBy []string // the properties made to catch it: each must fail on it
	// AlsoFails are the other properties it may fail because they depend
	// on the rule it breaks: IDs, or prefixes ending in *. Any other
	// failure is a false alarm of the suite.
	AlsoFails []string
	Factory   interfaces.Factory // the reference's, one half given a wrong policy, Config or wrapper
}

// table is every mutant, one row each; All and Lookup name the Factory.
var table = []Mutant{
	{Name: "status-running-over-failed", Breaks: []string{"AR-8"}, CaughtBy: []string{"AR-8/client-status-every-instant"},
		Mirrors: "An alloc status precedence that checks running before failed, so an alloc with a failed task and a live one reports running.",
		Factory: runs(allocrunner.Factory(allocrunner.Policies{ClientStatus: func(states map[string]*structs.TaskState) (string, string) {
			st, desc := status.ClientStatus(states)
			for _, s := range states {
				if st == structs.AllocClientStatusFailed && s != nil && s.State == structs.TaskStateRunning {
					return structs.AllocClientStatusRunning, status.DescriptionRunning
				}
			}
			return st, desc
		}}))},
	{Name: "sched-utc", Breaks: []string{"SCHED-4"}, CaughtBy: []string{"SCHED-5/inside-windows-only"},
		// Wrong windows move every start and stop a property sees.
		AlsoFails: []string{"SCHED-*", "PAUSE-*"},
		Mirrors:   "A schedule evaluator that never loads the cron block's Timezone and reads every window in UTC.",
		Factory:   runs(tasks(taskrunner.Policies{Evaluate: evalUTC}))},
	{Name: "sched-nomad-window", Breaks: []string{"SCHED-5", "SCHED-10"}, CaughtBy: []string{"SCHED-5/window-start-instant", "SCHED-5/overnight-windows", "SCHED-5/several-daily-starts", "SCHED-6/short-dst-day"},
		AlsoFails: []string{"SCHED-*", "PAUSE-*"},
		Mirrors:   "Nomad 1.8-1.10's schedule windows: a 24 h absolute look-back, the start instant outside, overnight windows an error (#23329).",
		Factory:   runs(tasks(taskrunner.Policies{Evaluate: evalNomadWindow}))},
	{Name: "sched-dst-naive", Breaks: []string{"SCHED-6"}, CaughtBy: []string{"SCHED-6/dst-transitions"},
		Mirrors: "Naive wall-clock conversion on a spring-forward day: 02:30 New York becomes 01:30 EST, an hour before the gap, instead of 03:30 EDT.",
		Factory: runs(tasks(taskrunner.Policies{Evaluate: evalDSTNaive}))},
	{Name: "pause-counts-restarts", Breaks: []string{"PAUSE-6"}, CaughtBy: []string{"PAUSE-6/no-attempt-consumed"},
		// A pause exit through the restart policy waits, not PAUSE-5's 0s.
		AlsoFails: []string{"PAUSE-5/stop-at-window-end"},
		Mirrors:   "Nomad #25085: a schedule pause's task exit goes through the restart policy like a crash and can fail the task.",
		Factory: runs(tasks(taskrunner.Policies{PauseStep: func(m pause.Machine, in pause.Input) (pause.Machine, pause.Output) {
			next, out := m.Step(in)
			out.PauseInduced = false
			return next, out
		}}))},
	{Name: "pause-killing-event", Breaks: []string{"PAUSE-5"}, CaughtBy: []string{"PAUSE-5/stop-at-window-end"},
		Mirrors: "A pause stop implemented with the ordinary kill path, which appends a Killing event.",
		Factory: runs(tasks(taskrunner.Policies{PauseStopEvent: func(task *structs.Task, maxKill time.Duration, at time.Time) *structs.TaskEvent {
			return structs.NewTaskEvent(structs.TaskKilling, at).SetKillTimeout(task.EffectiveKillTimeout(maxKill))
		}}))},
	{Name: "telem-counts-skipped", Breaks: []string{"TELEM-3"}, CaughtBy: []string{"TELEM-3/one-emission-per-hook-execution"},
		Mirrors: "Hook metrics emitted around the PrestartDone check, so skipped prestart hooks count as successful runs.",
		Factory: runs(allocrunner.Factory(allocrunner.Policies{HookStats: func(c hookstats.Config) hookstats.Handler {
			return countsSkipped{Handler: hookstats.New(c), clock: c.Clock}
		}}))},
	{Name: "telem-wallclock", Breaks: []string{"TELEM-4"}, CaughtBy: []string{"TELEM-4/elapsed-is-virtual-duration"},
		Mirrors: "Elapsed time measured with metrics.MeasureSince (the wall clock), which ignores simulated blocking.",
		Factory: runs(allocrunner.Factory(allocrunner.Policies{HookStats: func(c hookstats.Config) hookstats.Handler {
			return wallclock{Handler: hookstats.New(c), clock: c.Clock}
		}}))},
	{Name: "restore-double-start", Breaks: []string{"STATE-4"}, CaughtBy: []string{"STATE-4/no-second-started"},
		Mirrors: "A task runner that treats a recovered driver handle as a fresh start and appends Started again after a client restart.",
		Factory: runs(tasks(taskrunner.Policies{RecoveredEvent: func(at time.Time) *structs.TaskEvent {
			return structs.NewTaskEvent(structs.TaskStarted, at)
		}}))},
	{Name: "kill-order", Breaks: []string{"AR-9"}, CaughtBy: []string{"AR-9/kill-order"},
		Mirrors: "A kill loop that stops sidecars (log shippers, proxies) before the leader, losing the leader's last output.",
		Factory: runs(allocrunner.Factory(allocrunner.Policies{KillOrder: func(tasks []*structs.Task) [][]string {
			o := status.KillOrder(tasks)
			return [][]string{o.Sidecars, o.Main, o.Leader}
		}}))},
	{Name: "kill-poststop-too", Breaks: []string{"AR-9"}, CaughtBy: []string{"AR-9/kill-order"},
		Mirrors: "A kill loop over every task of the group that forgets poststop tasks are left to run: cleanup tasks killed with the rest, never running to completion after a stop (issue 23's unnamed defect).",
		Factory: runs(allocrunner.Factory(allocrunner.Policies{KillOrder: func(tasks []*structs.Task) [][]string {
			o := status.KillOrder(tasks)
			var post []string
			for _, t := range tasks {
				if t.IsPoststop() {
					post = append(post, t.Name)
				}
			}
			return [][]string{o.Leader, o.Main, o.Sidecars, post}
		}}))},
	{Name: "event-cap-11", Breaks: []string{"DATA-6"}, CaughtBy: []string{"DATA-6/events-newest-10"},
		Mirrors: "An off-by-one in the task event ring (> instead of >= on the cap), keeping the newest 11 events.",
		Factory: runs(tasks(taskrunner.Policies{AppendEvent: func(ts *structs.TaskState, ev *structs.TaskEvent) {
			kept := append(slices.Clone(ts.Events), ev)
			ts.AppendEvent(ev)
			ts.Events = kept[max(0, len(kept)-structs.MaxTaskEvents-1):]
		}}))},
	{Name: "update-older-wins", Breaks: []string{"AR-10"}, CaughtBy: []string{"AR-10/update-queue"},
		Mirrors: "An update queue that replaces the queued alloc without comparing AllocModifyIndex, so a stale update wins.",
		Factory: runs(allocrunner.Factory(allocrunner.Policies{Supersedes: func(_, _ *structs.Allocation) bool { return true }}))},
	{Name: "restart-recoverable-lost", Breaks: []string{"AR-7"}, CaughtBy: []string{"AR-7/restart-policy"},
		Mirrors: "A driver start error wrapped before the restart tracker sees it, losing its recoverable flag, so a transient start failure fails the task (Error was unrecoverable).",
		Factory: runs(withConfig(func(c *interfaces.Config) { c.DriverManager = fatalStarts{c.DriverManager} }))},
	{Name: "kill-rule-mains-only", Breaks: []string{"AR-9"}, CaughtBy: []string{"AR-9/kill-rules"},
		Mirrors: "A kill rule that appends its event (Sibling Task Failed, Leader Task Dead, Main Tasks Dead) only to the non-sidecar tasks, so a sidecar's events never say why it was killed.",
		Factory: runs(allocrunner.Factory(allocrunner.Policies{KillRule: func(tasks []*structs.Task, states map[string]*structs.TaskState) (status.Kill, bool) {
			k, ok := status.KillRule(tasks, states)
			k.Recipients = slices.DeleteFunc(k.Recipients, func(name string) bool {
				return slices.ContainsFunc(tasks, func(t *structs.Task) bool { return t != nil && t.Name == name && t.IsSidecar() })
			})
			return k, ok
		}}))},
	{Name: "lifecycle-main-early", Breaks: []string{"AR-9"}, CaughtBy: []string{"AR-9/lifecycle-start-order"},
		Mirrors: "A start gate that checks the prestart tasks started (the sidecar condition) for every prestart task, so main tasks start before an init task completed.",
		Factory: runs(allocrunner.Factory(allocrunner.Policies{Startable: func(tasks []*structs.Task, states map[string]*structs.TaskState) []string {
			return status.Startable(prestartAsSidecars(tasks), states)
		}}))},
	{Name: "event-display-raw", Breaks: []string{"DATA-8"}, CaughtBy: []string{"DATA-8/event-messages-exact"},
		// PAUSE-5 and PAUSE-6 check a pause exit's exact Restarting,
		// AR-1/restart-api a triggered restart's.
		AlsoFails: []string{"PAUSE-5/stop-at-window-end", "PAUSE-6/no-attempt-consumed", "AR-1/restart-api"},
		Mirrors:   "A Restarting DisplayMessage formatted from the int64 StartDelay instead of a time.Duration: `Task restarting in 5123456789`.",
		Factory: runs(tasks(taskrunner.Policies{AppendEvent: func(ts *structs.TaskState, ev *structs.TaskEvent) {
			if ev.Type == structs.TaskRestarting && ev.DisplayMessage == "" {
				ev.DisplayMessage = fmt.Sprintf("Task restarting in %v", ev.StartDelay)
			}
			ts.AppendEvent(ev)
		}}))},
	{Name: "restore-forgets-ack", Breaks: []string{"STATE-3"}, CaughtBy: []string{"STATE-3/acknowledged-survives"},
		// A status change after a restart is then Typical: the 5th tick.
		AlsoFails: []string{"SYNC-5/urgent-rides-first-tick"},
		Mirrors:   "An alloc runner that resets its sync bookkeeping when Run starts, dropping the acknowledged state Restore loaded, so every unchanged alloc is re-sent after a client restart.",
		Factory:   runs(wrapRunner(func(ar interfaces.AllocRunner) interfaces.AllocRunner { return forgetsAck{runner{ar}} }))},
	{Name: "sync-retry-appended", Breaks: []string{"SYNC-5"}, CaughtBy: []string{"SYNC-5/server-never-receives-older", "SYNC-5/acknowledged-not-resent"},
		// The server stores the appended stale copy (urgency and spacing
		// are judged against it), not what the client acknowledged.
		AlsoFails: []string{"SYNC-5/spaced-without-urgent", "SYNC-5/urgent-rides-first-tick"},
		Mirrors:   "A retry list kept beside the pending-updates buffer: the failed batch is appended to every later UpdateAlloc after the fresh updates (the list is never cleared), so the server applies a stale copy last.",
		Factory: clientOf(withOptions(func(o *interfaces.ClientOptions) {
			var resend []*structs.Allocation // only the sync loop sends
			o.RPCClient = updateAllocs{next: o.RPCClient, around: func(req *structs.AllocUpdateRequest, send func() error) error {
				fresh := req.Alloc
				req.Alloc = append(slices.Clip(fresh), resend...)
				err := send()
				if err != nil {
					resend = fresh
				}
				return err
			}}
		}))},
	{Name: "sync-lossy-retry", Breaks: []string{"SYNC-3", "SYNC-5"}, CaughtBy: []string{"SYNC-5/converges-after-healing"},
		// SYNC-5/urgent-while-classifying restates SYNC-5's rules under a
		// hold; a failed placement's report whose UpdateAlloc fails is
		// lost too (AR-3/build-failure-reported).
		AlsoFails: []string{"SYNC-5/urgent-while-classifying", "AR-3/build-failure-reported"},
		Mirrors:   "A sync loop that takes the buffer before the RPC and forgets it when the call fails: a state whose UpdateAlloc failed reaches the server only if a newer one follows.",
		Factory:   clientOf(client.Factory(client.Policies{Failed: func(*syncpolicy.Buffer, syncpolicy.Batch) {}}))},
	{Name: "pause-get-unknown-ok", Breaks: []string{"PAUSE-2"}, CaughtBy: []string{"PAUSE-2/api-state-machine"},
		Mirrors: "A pause-state lookup that returns the zero state for a task name it does not know instead of `Task not found`, so a typo in `alloc pause -status` reads as \"run per schedule\".",
		Factory: runs(wrapRunner(func(ar interfaces.AllocRunner) interfaces.AllocRunner { return getUnknownOK{runner{ar}} }))},
	{Name: "telem-class-empty", Breaks: []string{"TELEM-2"}, CaughtBy: []string{"TELEM-2/exact-labels"},
		Mirrors: "Base labels built from the node's class verbatim, without the `none` default, so classless nodes emit node_class=\"\".",
		Factory: runs(withConfig(func(c *interfaces.Config) {
			n := c.ClientConfig
			c.BaseLabels = hookstats.BaseLabels(n.NodeID, n.Datacenter, n.NodeClass, n.NodePool)
			c.BaseLabels[2].Value = n.NodeClass // node_class, without `none`
		}))},
	{Name: "telem-ignores-switch", Breaks: []string{"TELEM-5"}, CaughtBy: []string{"TELEM-5/disable-switch"},
		Mirrors: "Hook metric handlers built without passing disable_allocation_hook_metrics, so the switch has no effect.",
		Factory: runs(allocrunner.Factory(allocrunner.Policies{HookStats: func(c hookstats.Config) hookstats.Handler {
			c.Disabled = false
			return hookstats.New(c)
		}}))},
	{Name: "sched-no-notice", Breaks: []string{"SCHED-9"}, CaughtBy: []string{"SCHED-9/no-future-start"},
		Mirrors: "A pause gate that drops the Task hook message of a schedule with no future start: the task stays paused silently.",
		Factory: runs(tasks(taskrunner.Policies{PauseStep: func(m pause.Machine, in pause.Input) (pause.Machine, pause.Output) {
			next, out := m.Step(in)
			out.Events = slices.DeleteFunc(slices.Clone(out.Events), func(e pause.Event) bool { return e.Message == pause.MsgNoFutureStart })
			return next, out
		}}))},
	{Name: "pause-forgets-override", Breaks: []string{"PAUSE-10"}, CaughtBy: []string{"PAUSE-10/restore-overrides"},
		Mirrors: "A restore that seeds the pause gate from the schedule, not the persisted Paused value, so force_pause or force_run is lost in a client restart.",
		Factory: runs(tasks(taskrunner.Policies{PauseStep: func(m pause.Machine, in pause.Input) (pause.Machine, pause.Output) {
			if in.Kind == pause.KindRestore && in.State.Override() {
				in.State = structs.TaskScheduleStateRun
			}
			return m.Step(in)
		}}))},
	{Name: "signal-paused-ok", Breaks: []string{"PAUSE-11"}, CaughtBy: []string{"PAUSE-11/signals"},
		Mirrors: "A Signal that returns nil when the task has no live handle (paused, dead or not started) instead of `Task not running`.",
		Factory: runs(wrapRunner(func(ar interfaces.AllocRunner) interfaces.AllocRunner { return signalNotRunningOK{runner{ar}} }))},
	{Name: "restart-no-jitter", Breaks: []string{"AR-7"}, CaughtBy: []string{"AR-7/restart-policy"},
		Mirrors: "A restart delay taken straight from the policy's Delay without the random jitter, so tasks that fail together restart together (a thundering herd).",
		Factory: runs(tasks(taskrunner.Policies{Restart: func(t *restart.Tracker, now time.Time, draw func() float64) restart.Decision {
			return t.GetState(now, func() float64 { draw(); return 0 })
		}}))},
	{Name: "sync-no-priority", Breaks: []string{"SYNC-3", "SYNC-5"}, CaughtBy: []string{"SYNC-5/spaced-without-urgent"},
		Mirrors: "Nomad before prioritized client updates (1.9): the sync loop sends whatever is buffered on every 200 ms tick, so a busy node makes five UpdateAlloc calls a second.",
		Factory: clientOf(client.Factory(client.Policies{Tick: reclassified(syncpolicy.Typical, syncpolicy.Urgent)}))},
	{Name: "sync-lazy-status", Breaks: []string{"SYNC-2", "SYNC-5"}, CaughtBy: []string{"SYNC-5/urgent-rides-first-tick"},
		// SYNC-5/urgent-while-classifying restates SYNC-5's rules under a hold.
		AlsoFails: []string{"SYNC-5/urgent-while-classifying"},
		Mirrors:   "A priority function that compares task states but not ClientStatus, so a failed or complete alloc waits for the 5th tick like a routine task event.",
		Factory:   clientOf(client.Factory(client.Policies{Tick: reclassified(syncpolicy.Urgent, syncpolicy.Typical)}))},
	{Name: "sync-oldest-wins", Breaks: []string{"SYNC-1", "SYNC-5"}, CaughtBy: []string{"SYNC-5/urgent-rides-first-tick", "SYNC-5/converges-after-healing"},
		// SYNC-5/urgent-while-classifying restates SYNC-5's rules under a hold.
		AlsoFails: []string{"SYNC-5/urgent-while-classifying"},
		Mirrors:   "A pending-updates buffer that inserts only when the alloc has no entry yet, so the server receives the oldest state of each batch window and the newest waits for the next change.",
		Factory: clientOf(client.Factory(client.Policies{Add: func(b *syncpolicy.Buffer, a *structs.Allocation) {
			if _, ok := b.Get(a.ID); !ok {
				b.Add(a)
			}
		}}))},
	{Name: "sync-blocking-producer", Breaks: []string{"SYNC-1", "SYNC-5"}, CaughtBy: []string{"SYNC-5/producers-never-block"},
		// A blocked producer delays later pushes: the world's DET-1 stamp
		// check (of every run) reports them in any property.
		AlsoFails: []string{"*"},
		Mirrors:   "A buffer lock held across Node.UpdateAlloc: every task state change on the node waits for the server while a call hangs.",
		Factory:   clientOf(withOptions(blockingProducer))},
	{Name: "sync-early-send", Breaks: []string{"SYNC-3"}, CaughtBy: []string{"SYNC-5/nothing-before-contact"},
		Mirrors: "A sync loop that ignores ServersContactedCh, so a restarted client sends restored states before it learned what the servers still want.",
		Factory: clientOf(client.Factory(client.Policies{Tick: func(b *syncpolicy.Buffer, in syncpolicy.TickInput) syncpolicy.TickResult {
			in.ServersContacted = true
			return b.Tick(in)
		}}))},
	{Name: "hookres-rmw", Breaks: []string{"HOOKRES-2", "HOOKRES-4"}, CaughtBy: []string{"HOOKRES-2/history-linearizable"},
		Mirrors: "Nomad #16623's setter: the CSI hook reads the mount map, adds one volume and sets it back per volume, so a restored prestart racing the prerun sees a partial map.",
		Factory: runs(restore16623(true, false))},
	{Name: "hookres-late-handoff", Breaks: []string{"HOOKRES-1", "HOOKRES-4"}, CaughtBy: []string{"HOOKRES-4/no-nil-read"},
		// Its restore starts the tasks' prestart before any CSI prerun of
		// the incarnation, which HOOKRES-2's prerun-mounted check sees.
		AlsoFails: []string{"HOOKRES-2/history-linearizable"},
		Mirrors:   "Nomad 1.5.2 before #16722: task runners receive the hook resources through an unsynchronised setter after the CSI hook ran, so a restored prestart that runs first reads nil.",
		Factory:   runs(restore16623(false, true))},
}

// All returns every mutant, sorted by name.
func All() []Mutant {
	out := slices.Clone(table)
	for i := range out {
		out[i].Factory.Name = out[i].Name
	}
	slices.SortFunc(out, func(a, b Mutant) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Lookup returns the mutant called name.
func Lookup(name string) (Mutant, bool) {
	i := slices.IndexFunc(table, func(m Mutant) bool { return m.Name == name })
	if i < 0 {
		return Mutant{}, false
	}
	m := table[i]
	m.Factory.Name = name
	return m, true
}

// runs is the reference client running alloc runners built by f.
func runs(f interfaces.AllocRunnerFactory) interfaces.Factory {
	return interfaces.Factory{NewClient: client.New, NewAllocRunner: f}
}

// clientOf is the client built by f running the reference alloc runner.
func clientOf(f interfaces.ClientFactory) interfaces.Factory {
	return interfaces.Factory{NewClient: f, NewAllocRunner: allocrunner.NewAllocRunner}
}

// countsSkipped emits a skipped hook as a successful run of no time.
type countsSkipped struct {
	hookstats.Handler
	clock clock.Clock
}

func (h countsSkipped) Skipped(hookName, hookType string) {
	h.Emit(h.clock.Now(), hookName, hookType, nil)
}

// wallclock measures every hook as a wall clock does under simulated time:
// a fixed millisecond, whatever the hook waited for.
type wallclock struct {
	hookstats.Handler
	clock clock.Clock
}

func (h wallclock) Emit(_ time.Time, hookName, hookType string, err error) {
	h.Handler.Emit(h.clock.Now().Add(-time.Millisecond), hookName, hookType, err)
}

// fatalStarts marks every driver start error unrecoverable.
type fatalStarts struct{ drivers.DriverManager }

func (m fatalStarts) Dispense(name string) (drivers.Driver, error) {
	d, err := m.DriverManager.Dispense(name)
	if err == nil {
		d = fatalStart{d}
	}
	return d, err
}

type fatalStart struct{ drivers.Driver }

func (d fatalStart) StartTask(cfg *drivers.TaskConfig) (*drivers.TaskHandle, error) {
	h, err := d.Driver.StartTask(cfg)
	return h, drivers.NewRecoverableError(err, false)
}

// prestartAsSidecars reads every prestart task as a prestart sidecar, so
// the main tasks start once the prestart tasks started.
func prestartAsSidecars(tasks []*structs.Task) []*structs.Task {
	out := slices.Clone(tasks)
	for i, t := range out {
		if t.IsPrestart() && !t.IsSidecar() {
			c := *t
			c.Lifecycle = &structs.TaskLifecycle{Hook: t.Lifecycle.Hook, Sidecar: true}
			out[i] = &c
		}
	}
	return out
}

// forgetsAck resets the acknowledged state as Run starts.
type forgetsAck struct{ runner }

func (r forgetsAck) Run() {
	r.AcknowledgeState(nil)
	r.AllocRunner.Run()
}

// getUnknownOK answers an unknown task's pause state with "".
type getUnknownOK struct{ runner }

func (r getUnknownOK) GetTaskPauseState(task string) (structs.TaskScheduleState, error) {
	s, _ := r.AllocRunner.GetTaskPauseState(task) // "" with the error
	return s, nil
}

// signalNotRunningOK answers a signal to a task without a live handle
// with nil (the client signals every task one by one).
type signalNotRunningOK struct{ runner }

func (r signalNotRunningOK) Signal(task, sig string) error {
	if err := r.AllocRunner.Signal(task, sig); !errors.Is(err, taskrunner.ErrTaskNotRunning) {
		return err
	}
	return nil
}

// reclassified ticks with a runner's priority from read as to (None,
// unchanged, is never read as another).
func reclassified(from, to syncpolicy.Priority) func(*syncpolicy.Buffer, syncpolicy.TickInput) syncpolicy.TickResult {
	return func(b *syncpolicy.Buffer, in syncpolicy.TickInput) syncpolicy.TickResult {
		if classify := in.Classify; classify != nil {
			in.Classify = func(a *structs.Allocation) (syncpolicy.Priority, bool) {
				p, runner := classify(a)
				if runner && p == from {
					p = to
				}
				return p, runner
			}
		}
		return b.Tick(in)
	}
}

// blockingProducer makes AllocStateUpdated wait, durably (on a channel),
// while a Node.UpdateAlloc is in flight.
func blockingProducer(o *interfaces.ClientOptions) {
	sending := &atomic.Pointer[chan struct{}]{} // set while an UpdateAlloc is in flight
	o.RPCClient = updateAllocs{next: o.RPCClient, around: func(_ *structs.AllocUpdateRequest, send func() error) error {
		ch := make(chan struct{})
		sending.Store(&ch)
		defer func() { sending.Store(nil); close(ch) }()
		return send()
	}}
	next := o.AllocRunnerFactory
	o.AllocRunnerFactory = func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		c := *cfg
		c.StateUpdater = waitingUpdater{StateUpdater: cfg.StateUpdater, sending: sending}
		return next(&c)
	}
}

type waitingUpdater struct {
	interfaces.StateUpdater
	sending *atomic.Pointer[chan struct{}]
}

func (u waitingUpdater) AllocStateUpdated(a *structs.Allocation) {
	for ch := u.sending.Load(); a != nil && ch != nil; ch = u.sending.Load() {
		<-*ch
	}
	u.StateUpdater.AllocStateUpdated(a)
}
